/**
 * Mode `report`: every report artifact of a run (matrix legs) merged into one summary and one
 * comment. The run is this one, the `run-id` input, or the run that triggered a `workflow_run`
 * workflow: the fork-safe pattern, where nothing from the PR is executed and the artifacts are
 * read as untrusted data (schema-validated, within the limits of src/github/limits.ts, PR number
 * checked against the head commit).
 */
import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { z } from 'zod';
import { findReportFiles, labelFor, loadReport, type FoundReport } from '../../io/reports.js';
import { isCapturesArtifact } from '../../github/artifact-names.js';
import { reportsInZip, unreadableReason } from '../../github/report-artifacts.js';
import type { Report } from '../../model/report.js';
import { boundReport } from '../../report/bounded-report.js';
import { verdictLines } from '../../report/verdict-lines.js';
import { mergeReports, type ReportEntry } from '../../report/merge-reports.js';
import { redact, redactValue } from '../../io/secrets.js';
import { artifactUrl } from '../github/run-context.js';
import { safeText } from '../../report/markdown/text.js';
import { UsageError } from '../../errors.js';
import { INPUTS, OUTPUTS } from '../inputs.js';
import { CONTEXT_FILE, oneLine, publish, settleVerdict, type ModeContext } from '../publish.js';
import { compareText } from '../../model/text-order.js';

const ClaimedContextSchema = z.object({ pullRequest: z.number().int().positive().optional(), headSha: z.string().regex(/^[0-9a-f]{7,64}$/).optional() });
type ClaimedContext = z.infer<typeof ClaimedContextSchema>;

interface Collected {
  entries: ReportEntry[];
  claims: ClaimedContext[];
  /** The reports and artifacts left out, one line each (also a warning): the job fails on them unless allowed. */
  unreadable: string[];
}

/** A report or artifact left out: a warning now, and a line of the failure unless allow-unreadable-reports. */
function leaveOut(ctx: ModeContext, into: Collected, line: string): void {
  ctx.host.warning(line);
  into.unreadable.push(line);
}

/** The run whose artifacts are merged: the run-id input, the run that triggered this one, or this run. */
function sourceRun(ctx: ModeContext): number {
  return ctx.inputs.runId ?? ctx.run.triggeringRun?.id ?? ctx.run.runId;
}

function claimOf(data: unknown): ClaimedContext | undefined {
  const parsed = ClaimedContextSchema.safeParse(data);
  return parsed.success ? parsed.data : undefined;
}

async function readClaim(reportPath: string): Promise<ClaimedContext | undefined> {
  try {
    return claimOf(JSON.parse(await readFile(join(dirname(reportPath), CONTEXT_FILE), 'utf8')));
  } catch {
    return undefined;
  }
}

async function collect(ctx: ModeContext, paths: readonly string[], label: (found: FoundReport, report: Report) => string, into: Collected): Promise<void> {
  for (const found of await findReportFiles(paths)) {
    try {
      const report = boundReport(await loadReport(found.path));
      into.entries.push({ label: label(found, report), report });
      const claim = await readClaim(found.path);
      if (claim) into.claims.push(claim);
    } catch (error) {
      leaveOut(ctx, into, `Skipped a report: ${oneLine((error as Error).message)}`);
    }
  }
}

/**
 * Every report artifact of the run, through the REST API, one zip and one report at a time: each
 * report is cut down to what the merged summary shows before the next is read, and each bad
 * artifact or report is left out with one line saying why.
 */
async function fromArtifacts(ctx: ModeContext, runId: number): Promise<Collected> {
  const collected: Collected = { entries: [], claims: [], unreadable: [] };
  const prefix = ctx.inputs.artifactPrefix;
  const client = ctx.github();
  const repo = `${ctx.run.owner}/${ctx.run.repo}`;
  const limits = ctx.limits.artifacts;
  let artifacts;
  try {
    artifacts = (await client.runArtifacts(repo, runId)).filter((a) => a.name.startsWith(prefix) && !isCapturesArtifact(a.name)).sort((a, b) => compareText(a.name, b.name));
  } catch (error) {
    // Reading artifacts needs `actions: read`; without it the API answers 403 "Resource not accessible".
    throw new UsageError(`cannot list the report artifacts of run ${runId}: ${oneLine((error as Error).message)} (reading artifacts needs the permission actions: read)`);
  }
  ctx.host.info(`Found ${artifacts.length} report artifact(s) named '${prefix}*' in run ${runId}.`);
  if (artifacts.length > limits.maxArtifacts) ctx.host.warning(`Only the first ${limits.maxArtifacts} of ${artifacts.length} report artifacts are read.`);
  for (const artifact of artifacts.slice(0, limits.maxArtifacts)) {
    if (artifact.expired) {
      leaveOut(ctx, collected, `Skipped artifact '${artifact.name}': expired.`);
      continue;
    }
    if ((artifact.size_in_bytes ?? 0) > limits.maxZipBytes) {
      leaveOut(ctx, collected, `Skipped artifact '${artifact.name}': ${artifact.size_in_bytes} bytes is more than a report artifact holds (${limits.maxZipBytes}).`);
      continue;
    }
    const link = { name: artifact.name, id: artifact.id, url: artifactUrl(ctx.run, runId, artifact.id) };
    const leg = artifact.name.slice(prefix.length) || artifact.name;
    let n = 0;
    try {
      const zip = await client.artifactZip(repo, artifact.id, limits.maxZipBytes);
      for (const entry of reportsInZip(zip, `artifact '${artifact.name}'`, limits)) {
        if ('error' in entry) {
          leaveOut(ctx, collected, `Skipped a report: ${oneLine(entry.path)}: ${oneLine(entry.error)}`);
          continue;
        }
        collected.entries.push({ label: n++ === 0 ? leg : `${leg}-${n}`, report: boundReport(entry.report), artifact: link });
        const claim = claimOf(entry.context);
        if (claim) collected.claims.push(claim);
      }
    } catch (error) {
      leaveOut(ctx, collected, `Skipped artifact '${artifact.name}': ${oneLine(unreadableReason(error))}`);
    }
  }
  return collected;
}

/**
 * The PR to comment on. A number that came out of an artifact was written by the PR's own workflow
 * (possibly a fork's): it is used only if that PR's head is the commit the triggering run built.
 */
async function resolvePullRequest(ctx: ModeContext, claims: readonly ClaimedContext[]): Promise<number | undefined> {
  if (ctx.inputs.prNumber !== undefined) return ctx.inputs.prNumber;
  if (ctx.run.pullRequest !== undefined) return ctx.run.pullRequest;
  const trigger = ctx.run.triggeringRun;
  if (!trigger) return undefined;
  if (trigger.pullRequests.length) return trigger.pullRequests[0];
  const numbers = [...new Set(claims.map((c) => c.pullRequest).filter((n): n is number => n !== undefined))];
  if (numbers.length !== 1) {
    if (numbers.length > 1) ctx.host.warning(`The report artifacts name ${numbers.length} different pull requests; not commenting.`);
    return undefined;
  }
  const claimed = numbers[0]!;
  try {
    const data = await ctx.github().pull(`${ctx.run.owner}/${ctx.run.repo}`, claimed);
    if (data.head.sha === trigger.headSha) return claimed;
    ctx.host.warning(`PR #${claimed} named by the artifacts has head ${data.head.sha.slice(0, 12)}, not the commit ${trigger.headSha.slice(0, 12)} the run built; not commenting.`);
  } catch (error) {
    ctx.host.warning(`Could not check PR #${claimed} named by the artifacts: ${oneLine((error as Error).message)}`);
  }
  return undefined;
}

export async function reportMode(ctx: ModeContext): Promise<void> {
  const runId = sourceRun(ctx);
  let collected: Collected;
  if (ctx.inputs.reports.length) {
    collected = { entries: [], claims: [], unreadable: [] };
    await collect(ctx, ctx.inputs.reports, (found, report) => labelFor(found, report, ctx.inputs.artifactPrefix), collected);
  } else {
    try {
      collected = await fromArtifacts(ctx, runId);
    } catch (error) {
      // Nothing to merge: the summary still says why, then the job fails with the same line.
      await ctx.host.writeSummary(`## profile-gate: no report\n\n${safeText(oneLine((error as Error).message), 1000)}\n`).catch(() => undefined);
      throw error;
    }
  }
  if (collected.entries.length === 0) ctx.host.warning('No report was found to merge; the summary says so.');
  // Reports from other runs (an older version of the action, a fork) may quote a secret: redacted as data,
  // before rendering escapes their text beyond what a redaction of the page could find.
  const merged = mergeReports(collected.entries.map((entry) => ({ ...entry, label: redact(entry.label, ctx.secrets), report: redactValue(entry.report, ctx.secrets).value })));
  const runUrl = runId !== ctx.run.runId ? `${ctx.run.serverUrl}/${ctx.run.owner}/${ctx.run.repo}/actions/runs/${runId}` : ctx.run.runUrl;
  ctx.host.setOutput(OUTPUTS.reportJson, '');
  ctx.host.setOutput(OUTPUTS.artifactId, '');
  ctx.host.setOutput(OUTPUTS.decodeTokS, '');
  await publish(ctx, { merged, runUrl, prNumber: await resolvePullRequest(ctx, collected.claims) });
  // A leg left out could be the failing one: the merged verdict then speaks for the others only.
  if (collected.unreadable.length && !ctx.inputs.allowUnreadableReports) ctx.host.setFailed(unreadableFailure(collected.unreadable));
  // fail-verdicts judge the merged verdict, as they judge one report: its reasons are those of the legs that gave it.
  const worst = merged.entries.filter((e) => e.report.verdict === merged.verdict);
  settleVerdict(ctx, { verdict: merged.verdict, lines: worst.flatMap((e) => verdictLines(e.report).map((line) => `${e.label}: ${line}`)) });
}

/** The failure of a merge that left reports out: how many, the first, and the input that allows it. */
export function unreadableFailure(unreadable: readonly string[]): string {
  const more = unreadable.length > 1 ? ` (and ${unreadable.length - 1} more)` : '';
  return `profile-gate report: ${unreadable.length} report(s) could not be read, so the merged verdict does not cover every leg: ${unreadable[0]}${more}; set input '${INPUTS.allowUnreadableReports}: true' to merge the rest`;
}
