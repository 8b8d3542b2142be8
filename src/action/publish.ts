/**
 * Showing reports on GitHub: the job summary, annotations, the sticky PR comment and the outputs,
 * and, for a report made in this job, its files and artifact. Each step fails alone: a comment
 * refused (a fork's read-only token) or an upload that broke never loses the summary or the files.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { failsJob } from '../compare/verdict.js';
import { failureLine, verdictLines, type VerdictSummary } from '../report/verdict-lines.js';
import { applyAcceptance } from '../compare/acceptance.js';
import { readAcceptances } from './github/acceptance.js';
import { isFindingId } from '../model/finding-ids.js';
import { writeOutput } from '../io/input-paths.js';
import { redact, redactValue, type SecretSet } from '../io/secrets.js';
import { scrubForUpload } from '../io/scrub-uploads.js';
import { writeDerivedFiles } from '../io/derived-files.js';
import type { Capture } from '../model/capture.js';
import { REPORT_FILE, type Report } from '../model/report.js';
import { ACCEPTANCES_READ, COMPARED_NOTHING } from '../model/verdict-meaning.js';
import { buildAnnotations } from '../report/markdown/annotations.js';
import { commentMarker, decideComment, renderComment } from '../report/markdown/comment.js';
import { serializeReport } from '../report/json.js';
import { renderSummary } from '../report/markdown/summary.js';
import { labelFor, mergeReports, type ArtifactLink, type MergedReports, type ReportEntry } from '../report/merge-reports.js';
import { renderMergedSummary } from '../report/markdown/summary.js';
import { renderUploadNotes, type UploadNotes } from '../report/markdown/upload-notes.js';
import type { RunLinks } from '../report/markdown/sections.js';
import type { AcceptWays } from '../report/markdown/accept-hint.js';
import type { GitHubClient } from '../github/client.js';
import { GitHubApiError } from '../github/http.js';
import type { Limits } from '../github/limits.js';
import { CONTEXT_FILE } from '../github/report-artifacts.js';
import { upsertStickyComment } from '../github/sticky-comment.js';
import { uploadArtifact, type UploadedArtifact } from './github/artifacts.js';
import { CAPTURE_NAMES_FILE, capturesArtifactName, storablePath } from '../github/artifact-names.js';
import { artifactUrl, isPullRequestEvent, type RunContext } from './github/run-context.js';
import type { ActionHost } from './host.js';
import { inertLine } from '../report/inert-text.js';
import { INPUTS, OUTPUTS, type ActionInputs } from './inputs.js';

export interface ModeContext {
  /** Every side effect goes through it: log, annotations, outputs, summary, failing, uploads. */
  host: ActionHost;
  /** The job's secrets: taken out of every file, page and line that leaves the runner. */
  secrets: SecretSet;
  inputs: ActionInputs;
  run: RunContext;
  limits: Limits;
  /** The REST client, made on first use: a job that never comments never needs the token. */
  github(): GitHubClient;
}

/** What lets a later workflow (workflow_run) find the PR a report belongs to (CONTEXT_FILE). Untrusted when read back. */
export { CONTEXT_FILE };
export interface ReportContext {
  pullRequest?: number;
  headSha?: string;
  event: string;
  repository: string;
}

/** One line for the log: profile text must never start a workflow command (`::…`) on a new line. */
export function oneLine(text: string): string {
  return text.replace(/[\r\n]+/g, ' ');
}

function errorText(error: unknown): string {
  return oneLine(error instanceof Error ? error.message : String(error));
}

/** The key of the comment marker and of the default artifact name: the input, else the job id. */
export function commentKey(ctx: ModeContext): string {
  return ctx.inputs.key || (ctx.inputs.mode === 'report' ? 'report' : ctx.run.job || 'default');
}

export function defaultArtifactName(ctx: ModeContext): string {
  if (ctx.inputs.artifactName) return ctx.inputs.artifactName;
  const key = commentKey(ctx).replace(/[":<>|*?\s/\\]+/g, '-');
  return `${ctx.inputs.artifactPrefix}${key}`;
}

export interface Publication {
  merged: MergedReports;
  /** What the summary says of the files beyond the report (traces, files not uploaded). */
  uploads?: UploadNotes;
  /** The run whose page lists the artifacts the links point at. */
  runUrl: string;
  prNumber?: number | undefined;
  /** The pull request's head commit the report is for: the failing comment names it in the accept command. */
  headSha?: string | undefined;
}

/** What the summary and the comment link: the run (its artifacts) and, when given, the dashboard. */
function runLinks(ctx: ModeContext, publication: Publication): RunLinks {
  return { runUrl: publication.runUrl, ...(ctx.inputs.dashboardUrl ? { dashboardUrl: ctx.inputs.dashboardUrl } : {}) };
}

/** How a reviewer accepts a regression of this PR's head: the workflow's label and command, and the head. */
function acceptWays(ctx: ModeContext, publication: Publication): AcceptWays | undefined {
  if (publication.prNumber === undefined) return undefined;
  return { label: ctx.inputs.acceptLabel, command: ctx.inputs.acceptCommand, ...(publication.headSha ? { headSha: publication.headSha } : {}) };
}

async function comment(ctx: ModeContext, publication: Publication): Promise<string | undefined> {
  const decision = decideComment(ctx.inputs.comment, isPullRequestEvent(ctx.run), publication.merged);
  if (decision.action === 'skip') {
    ctx.host.info(`No PR comment: ${decision.reason}.`);
    return undefined;
  }
  const pr = publication.prNumber;
  if (pr === undefined) {
    const line = 'No PR comment: this run concerns no pull request (set the pr-number input to name one).';
    if (ctx.inputs.comment === 'always') ctx.host.notice(line);
    else ctx.host.info(line);
    return undefined;
  }
  const key = commentKey(ctx);
  const body = redact(renderComment(publication.merged, { key, links: runLinks(ctx, publication), accept: acceptWays(ctx, publication) }), ctx.secrets);
  try {
    const result = await upsertStickyComment(
      ctx.github(),
      { owner: ctx.run.owner, repo: ctx.run.repo, issueNumber: pr },
      body,
      { marker: commentMarker(key), author: ctx.inputs.commentAuthor, create: decision.action === 'post' },
    );
    if (result.cut) ctx.host.warning(`PR #${pr}: ${result.cut}; a new comment was ${result.action === 'created' ? 'posted' : 'not posted'}.`);
    if (result.action === 'none') ctx.host.info(`No PR comment: ${decision.reason}.`);
    else ctx.host.info(`PR #${pr}: comment ${result.action}${result.url ? ` (${result.url})` : ''}.`);
    return result.url;
  } catch (error) {
    const message = `Could not comment on PR #${pr}: ${errorText(error)}. The job summary and the report artifact hold the full report.`;
    if (error instanceof GitHubApiError && error.status === 403) ctx.host.notice(message);
    else ctx.host.warning(message);
    return undefined;
  }
}

/** Summary, annotations, comment and the shared outputs for one or several reports. */
export async function publish(ctx: ModeContext, publication: Publication): Promise<void> {
  const { merged } = publication;
  try {
    await ctx.host.writeSummary(renderMergedSummary(merged, { links: runLinks(ctx, publication), accept: acceptWays(ctx, publication) }) + (publication.uploads ? renderUploadNotes(publication.uploads) : ''));
  } catch (error) {
    ctx.host.warning(`The job summary was not written: ${errorText(error)}`);
  }
  for (const annotation of buildAnnotations(merged.entries)) {
    if (annotation.level === 'error') ctx.host.error(annotation.message, { title: annotation.title });
    else ctx.host.warning(annotation.message, { title: annotation.title });
  }
  const commentUrl = await comment(ctx, publication);
  ctx.host.setOutput(OUTPUTS.commentUrl, commentUrl ?? '');
  ctx.host.setOutput(OUTPUTS.verdict, merged.verdict);
  // Only known finding ids: a report read in mode report may come from a fork, and a workflow may
  // put this output into a shell line.
  const ids = new Set(merged.entries.flatMap((e) => e.report.findings.map((f) => f.id)).filter(isFindingId));
  ctx.host.setOutput(OUTPUTS.findings, [...ids].join(','));
  const skipped = merged.entries.flatMap((e) => e.report.skippedInputs.map((s) => oneLine(s.path)));
  ctx.host.setOutput(OUTPUTS.skippedInputs, skipped.join('\n'));
}

/** The verdicts that fail this job (input fail-verdicts, checked with the other inputs). */
export function failVerdicts(ctx: ModeContext): readonly string[] {
  return ctx.inputs.failVerdicts;
}

/**
 * Fails the job when the workflow's fail-verdicts list the verdict; a verdict that compared nothing
 * (invalid, insufficient-data) and does not fail it is still a warning annotation, never silent.
 */
export function settleVerdict(ctx: ModeContext, report: Report | VerdictSummary): void {
  const why = oneLine(failureLine('lines' in report ? report.lines : verdictLines(report)));
  const failing = failsJob(report.verdict, failVerdicts(ctx));
  if (failing) ctx.host.setFailed(`profile-gate verdict: ${report.verdict} (${why}; see the job summary)`);
  else if (COMPARED_NOTHING[report.verdict]) {
    ctx.host.warning(`profile-gate verdict: ${report.verdict}, which does not fail this job (input '${INPUTS.failVerdicts}' does not list it): ${why}`, { title: `profile-gate: ${report.verdict}` });
  }
}

/** The deepest directory holding every file: the artifact keeps their layout below it. */
export function commonRoot(files: readonly string[]): string {
  const split = files.map((f) => dirname(resolve(f)).split(sep));
  const first = split[0] ?? [resolve('.')];
  let n = first.length;
  for (const parts of split) {
    let i = 0;
    while (i < n && i < parts.length && parts[i] === first[i]) i++;
    n = i;
  }
  return first.slice(0, n).join(sep) || sep;
}

export interface ProducedReport {
  report: Report;
  /** The workload's own files: captures, logs. Uploaded only with upload-raw-captures. */
  extraFiles?: readonly string[];
  /** The captures the report was made from: what profile.json and the clean traces are written from. */
  captures?: readonly Capture[];
  /** Files read for their events only (the nsys SQLite export of a run that analyzed its stats). */
  traceInputs?: readonly string[];
  /** Why there is no comparison, when there is none. */
  baselineNote?: string;
}

async function upload(ctx: ModeContext, name: string, files: readonly string[], root: string): Promise<UploadedArtifact> {
  return uploadArtifact(ctx.host.artifacts, name, files, root, {
    runAttempt: ctx.run.runAttempt,
    ...(ctx.inputs.retentionDays ? { retentionDays: ctx.inputs.retentionDays } : {}),
  });
}

/**
 * Files made ready for one artifact: scrubbed copies (src/io/scrub-uploads.ts) in a staging folder
 * of their own, with the layout they had below `root`. Paths the artifact service refuses
 * (decode-12:00:00.jsonl) are stored under mapped names, and capture-names.json maps them back.
 * What cannot go (a profiler's own report, a file that still holds a secret) is said in the log.
 */
async function stageArtifact(ctx: ModeContext, files: readonly string[], root: string, notes?: UploadNotes): Promise<{ root: string; files: string[] }> {
  const stageRoot = await mkdtemp(join(ctx.run.tempDir || tmpdir(), 'profile-gate-upload-'));
  // A file's name may hold a secret too (a folder named after a token): entry names are redacted.
  const paths = files.map((file) => ({ file, path: redact(relative(root, file).split(sep).join('/'), ctx.secrets) }));
  const pathOf = new Map(paths.map((p) => [p.file, p.path]));
  const { staged, withheld } = await scrubForUpload(
    paths.map(({ file, path }) => ({ file, target: join(stageRoot, ...storablePath(path).split('/')) })),
    { secrets: ctx.secrets, rawReports: ctx.inputs.uploadRawReports },
  );
  const redactions = staged.reduce((sum, file) => sum + file.redactions, 0);
  if (redactions) ctx.host.info(`Scrubbed ${redactions} secret or environment value(s) from the files to upload.`);
  for (const { file, kind, reason } of withheld) {
    const path = pathOf.get(file) ?? '';
    notes?.withheld.push({ path, kind, reason });
    const line = inertLine(`Not uploaded: ${path}: ${reason}.`);
    // A raw report left out is the setting working as set; anything else is a file that should have gone.
    if (kind === 'raw-report') ctx.host.info(line);
    else ctx.host.warning(line);
  }
  const uploadFiles = staged.map((file) => file.target);
  const kept = new Set(staged.map((file) => file.file));
  const mapped = paths.filter((p) => kept.has(p.file) && storablePath(p.path) !== p.path);
  if (mapped.length) {
    const names = join(stageRoot, CAPTURE_NAMES_FILE);
    await writeFile(names, redact(`${JSON.stringify({ note: 'stored path -> the capture file name it stands for', names: Object.fromEntries(mapped.map((p) => [storablePath(p.path), p.path])) }, null, 2)}\n`, ctx.secrets));
    uploadFiles.push(names);
    ctx.host.info(inertLine(`${mapped.length} capture path(s) hold characters the artifact service refuses; stored under mapped names (${CAPTURE_NAMES_FILE}), e.g. ${mapped[0]!.path} as ${storablePath(mapped[0]!.path)}.`));
  }
  return { root: stageRoot, files: uploadFiles };
}

/** The report's own artifact: report.json, report.md and context.json only, so nothing else can sink it. */
async function uploadReport(ctx: ModeContext, files: readonly string[], root: string, notes: UploadNotes): Promise<ArtifactLink | undefined> {
  const name = defaultArtifactName(ctx);
  let stage: { root: string; files: string[] } | undefined;
  try {
    stage = await stageArtifact(ctx, files, root, notes);
    const uploaded = await upload(ctx, name, stage.files, stage.root);
    ctx.host.info(`Uploaded artifact '${name}' (id ${uploaded.id}, ${uploaded.size} bytes, ${stage.files.length} files).`);
    return { name, id: uploaded.id, url: artifactUrl(ctx.run, ctx.run.runId, uploaded.id) };
  } catch (error) {
    ctx.host.warning(`The report artifact '${name}' was not uploaded: ${errorText(error)}. report.json and report.md are in ${ctx.inputs.reportDir}.`);
    return undefined;
  } finally {
    if (stage) await rm(stage.root, { recursive: true, force: true });
  }
}

/** profile.json and the clean traces, and with upload-raw-captures the captures and logs, scrubbed, in an artifact of their own after the report's. */
async function uploadCaptures(ctx: ModeContext, reportArtifact: string, files: readonly string[], root: string, notes: UploadNotes): Promise<void> {
  const name = capturesArtifactName(reportArtifact);
  let stage: { root: string; files: string[] } | undefined;
  try {
    stage = await stageArtifact(ctx, files, root, notes);
    if (!stage.files.length) {
      ctx.host.info(`No captures artifact: none of the ${files.length} capture file(s) may be uploaded.`);
      return;
    }
    const uploaded = await upload(ctx, name, stage.files, stage.root);
    ctx.host.info(`Uploaded artifact '${name}' (id ${uploaded.id}, ${uploaded.size} bytes, ${stage.files.length} files).`);
    notes.capturesArtifact = name;
  } catch (error) {
    ctx.host.warning(`The captures artifact '${name}' was not uploaded: ${errorText(error)}. The report artifact '${reportArtifact}' holds the report; the captures are in the workspace.`);
  } finally {
    if (stage) await rm(stage.root, { recursive: true, force: true });
  }
}

/**
 * The report with the pull request's acceptances applied (src/compare/acceptance.ts): read only for
 * a verdict they can change or must be told they cannot (fail, invalid), on a pull request. Each
 * acceptance refused is a warning annotation as well as a line of the verdict; a source the token
 * could not read is a warning annotation.
 */
async function withAcceptance(ctx: ModeContext, report: Report): Promise<{ report: Report; headSha?: string }> {
  const pullRequest = ctx.inputs.prNumber ?? ctx.run.pullRequest;
  const { acceptLabel: label, acceptCommand: command } = ctx.inputs;
  const eventHead = ctx.inputs.prNumber === undefined ? ctx.run.pullRequestHeadSha : undefined;
  const known = eventHead ? { headSha: eventHead } : {};
  if (pullRequest === undefined || (!label && !command) || !ACCEPTANCES_READ[report.verdict]) return { report, ...known };
  let read;
  try {
    read = await readAcceptances(ctx.github(), {
      owner: ctx.run.owner,
      repo: ctx.run.repo,
      serverUrl: ctx.run.serverUrl,
      pullRequest,
      ...known,
      label,
      command,
    });
  } catch (error) {
    read = { claims: [], refused: [], unread: [`acceptances not read: ${errorText(error)}`], ...known };
  }
  // The rows it may cover are those the report records as failing it, under the policy it records.
  const accepted = applyAcceptance(report, { claims: read.claims, refused: read.refused });
  for (const line of read.refused) ctx.host.warning(oneLine(`profile-gate: ${line}`), { title: 'profile-gate: acceptance not applied' });
  // A token that may not read them is the workflow's setting, not the verdict's: the log says so.
  for (const line of read.unread) ctx.host.warning(oneLine(`profile-gate: ${line}`), { title: 'profile-gate: acceptances not read' });
  if (accepted.acceptance) ctx.host.notice(oneLine(`profile-gate: ${verdictLines(accepted)[0] ?? ''}`), { title: 'profile-gate: regression accepted' });
  return { report: accepted, ...(read.headSha ? { headSha: read.headSha } : {}) };
}

/** profile.json and a clean trace per capture with a timeline, beside the report; none when they could not be written (a warning). */
async function derivedFiles(ctx: ModeContext, report: Report, captures: readonly Capture[], traceInputs: readonly string[]): Promise<string[]> {
  try {
    const written = await writeDerivedFiles(ctx.inputs.reportDir, report, captures, ctx.secrets, { traceInputs });
    for (const line of written.unread) ctx.host.warning(inertLine(line));
    if (written.traces.length) ctx.host.info(`Wrote ${written.traces.length} clean trace(s) of the captures (traces/*.trace.json: open in https://ui.perfetto.dev or chrome://tracing).`);
    return [written.profile, ...written.traces].map((f) => resolve(f));
  } catch (error) {
    ctx.host.warning(`profile.json and the clean traces were not written: ${errorText(error)}`);
    return [];
  }
}

/** A report made in this job (modes analyze and run): files, artifact, then everything `publish` does. */
export async function publishReport(ctx: ModeContext, produced: ProducedReport): Promise<void> {
  // Command lines and names in the report may quote a secret: the report itself is redacted, so its
  // file, summary, comment and outputs are.
  const withAccepted = await withAcceptance(ctx, produced.report);
  const report = redactValue(withAccepted.report, ctx.secrets).value;
  const dir = ctx.inputs.reportDir;
  const jsonPath = join(dir, REPORT_FILE);
  const context: ReportContext = {
    event: ctx.run.eventName,
    repository: `${ctx.run.owner}/${ctx.run.repo}`,
    ...(ctx.run.pullRequest !== undefined ? { pullRequest: ctx.run.pullRequest } : {}),
    ...(ctx.run.pullRequestHeadSha ? { headSha: ctx.run.pullRequestHeadSha } : {}),
  };
  // A full disk must not cost the summary and the comment: they are published, then the job fails.
  let notWritten: string | undefined;
  try {
    await writeOutput(jsonPath, serializeReport(report));
    await writeOutput(join(dir, 'report.md'), renderSummary(report));
    await writeOutput(join(dir, CONTEXT_FILE), `${JSON.stringify(context, null, 2)}\n`);
  } catch (error) {
    notWritten = errorText(error);
  }
  ctx.host.setOutput(OUTPUTS.reportJson, notWritten ? '' : jsonPath);
  const decode = report.metrics.find((m) => m.name === 'decode_tok_s');
  ctx.host.setOutput(OUTPUTS.decodeTokS, decode ? String(decode.value) : '');

  const reportFiles = [jsonPath, join(dir, 'report.md'), join(dir, CONTEXT_FILE)].map((f) => resolve(f));
  // By default only what profile-gate wrote leaves the runner; the workload's own files on opt-in.
  const derived = ctx.inputs.uploadCaptures && ctx.inputs.uploadArtifact && !notWritten ? await derivedFiles(ctx, report, produced.captures ?? [], produced.traceInputs ?? []) : [];
  const raw = ctx.inputs.uploadCaptures && ctx.inputs.uploadRawCaptures ? (produced.extraFiles ?? []).map((f) => resolve(f)) : [];
  const captures = [...new Set([...derived, ...raw])].filter((f) => !reportFiles.includes(f));
  // One root for both artifacts, so the captures keep the layout they had beside the report; the
  // same root whether the raw files go or not, so the report's place in its artifact does not move.
  const root = commonRoot([...reportFiles, ...captures, ...(produced.extraFiles ?? []).map((f) => resolve(f))]);
  if (notWritten && ctx.inputs.uploadArtifact) ctx.host.warning(`The report artifact was not uploaded: the report files could not be written (${notWritten}).`);
  const derivedTraces = derived.filter((f) => f.endsWith('.trace.json'));
  const notes: UploadNotes = { traces: derivedTraces.map((f) => relative(root, f).split(sep).join('/')), withheld: [] };
  const artifact = ctx.inputs.uploadArtifact && !notWritten ? await uploadReport(ctx, reportFiles, root, notes) : undefined;
  if (artifact && captures.length) await uploadCaptures(ctx, artifact.name, captures, root, notes);
  ctx.host.setOutput(OUTPUTS.artifactId, artifact?.id !== undefined ? String(artifact.id) : '');

  const entry: ReportEntry = {
    label: ctx.inputs.key || labelFor(report, ctx.run.job || 'profile'),
    report,
    ...(artifact ? { artifact } : {}),
    ...(produced.baselineNote ? { baselineNote: produced.baselineNote } : {}),
  };
  await publish(ctx, { merged: mergeReports([entry]), runUrl: ctx.run.runUrl, prNumber: ctx.inputs.prNumber ?? ctx.run.pullRequest, headSha: withAccepted.headSha, uploads: notes });
  if (notWritten) ctx.host.setFailed(`profile-gate could not write its report files: ${notWritten}; the job summary holds the report`);
  settleVerdict(ctx, report);
}
