/**
 * Mode `report`: every report artifact of a run (matrix legs) merged into one summary and one
 * comment. The run is this one, the `run-id` input, or the run that triggered a `workflow_run`
 * workflow: the fork-safe pattern, where nothing from the PR is executed and the artifacts are
 * read as untrusted data (schema-validated, size-capped, PR number checked against the head commit).
 */
import * as core from '@actions/core';
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { z } from 'zod';
import { findReportFiles, labelFor, loadReport, type FoundReport } from '../../engine/load-reports.js';
import type { Report } from '../../model/report.js';
import { mergeReports, type ReportEntry } from '../../report/merge-reports.js';
import { downloadArtifact, listArtifacts, type ArtifactSource } from '../github/artifacts.js';
import { artifactUrl } from '../github/run-context.js';
import { UsageError } from '../../errors.js';
import { OUTPUTS } from '../inputs.js';
import { CONTEXT_FILE, oneLine, publish, type ModeContext } from '../publish.js';

/** More legs than any sane matrix; a bound on what a hostile run can make us download. */
const MAX_ARTIFACTS = 256;
const MAX_ARTIFACT_BYTES = 512 * 1024 * 1024;

const ClaimedContextSchema = z.object({ pullRequest: z.number().int().positive().optional(), headSha: z.string().regex(/^[0-9a-f]{7,64}$/).optional() });
type ClaimedContext = z.infer<typeof ClaimedContextSchema>;

interface Collected {
  entries: ReportEntry[];
  claims: ClaimedContext[];
}

function sourceOf(ctx: ModeContext): ArtifactSource {
  const base = { owner: ctx.run.owner, repo: ctx.run.repo };
  const runId = ctx.inputs.runId ?? ctx.run.triggeringRun?.id;
  if (runId === undefined || runId === ctx.run.runId) return base;
  return { ...base, runId, token: ctx.inputs.githubToken };
}

async function readClaim(reportPath: string): Promise<ClaimedContext | undefined> {
  try {
    const parsed = ClaimedContextSchema.safeParse(JSON.parse(await readFile(join(dirname(reportPath), CONTEXT_FILE), 'utf8')));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

async function collect(paths: readonly string[], label: (found: FoundReport, report: Report) => string, into: Collected, artifact?: ReportEntry['artifact']): Promise<void> {
  for (const found of await findReportFiles(paths)) {
    try {
      const report = await loadReport(found.path);
      into.entries.push({ label: label(found, report), report, ...(artifact ? { artifact } : {}) });
      const claim = await readClaim(found.path);
      if (claim) into.claims.push(claim);
    } catch (error) {
      core.warning(`Skipped a report: ${oneLine((error as Error).message)}`);
    }
  }
}

async function fromArtifacts(ctx: ModeContext, source: ArtifactSource): Promise<Collected> {
  const collected: Collected = { entries: [], claims: [] };
  const prefix = ctx.inputs.artifactPrefix;
  let artifacts;
  try {
    artifacts = await listArtifacts(source, prefix);
  } catch (error) {
    // Another run's artifacts need `actions: read`; without it the API answers 403 "Resource not accessible".
    throw new UsageError(
      `cannot list the report artifacts of run ${source.runId ?? ctx.run.runId}: ${oneLine((error as Error).message)} (reading another run's artifacts needs the permission actions: read)`,
    );
  }
  core.info(`Found ${artifacts.length} report artifact(s) named '${prefix}*' in run ${source.runId ?? ctx.run.runId}.`);
  if (artifacts.length > MAX_ARTIFACTS) core.warning(`Only the first ${MAX_ARTIFACTS} of ${artifacts.length} report artifacts are read.`);
  const root = await mkdtemp(join(process.env['RUNNER_TEMP'] || tmpdir(), 'profile-gate-reports-'));
  for (const artifact of artifacts.slice(0, MAX_ARTIFACTS)) {
    if (artifact.size > MAX_ARTIFACT_BYTES) {
      core.warning(`Skipped artifact '${artifact.name}': ${artifact.size} bytes is more than a report artifact holds.`);
      continue;
    }
    try {
      const dir = await downloadArtifact(source, artifact, join(root, String(artifact.id)));
      const link = { name: artifact.name, id: artifact.id, url: artifactUrl(ctx.run, source.runId ?? ctx.run.runId, artifact.id) };
      const leg = artifact.name.slice(prefix.length) || artifact.name;
      let n = 0;
      await collect([dir], () => (n++ === 0 ? leg : `${leg}-${n}`), collected, link);
    } catch (error) {
      core.warning(`Skipped artifact '${artifact.name}': ${oneLine((error as Error).message)}`);
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
    if (numbers.length > 1) core.warning(`The report artifacts name ${numbers.length} different pull requests; not commenting.`);
    return undefined;
  }
  const claimed = numbers[0]!;
  try {
    const { data } = await ctx.github().rest.pulls.get({ owner: ctx.run.owner, repo: ctx.run.repo, pull_number: claimed });
    if (data.head.sha === trigger.headSha) return claimed;
    core.warning(`PR #${claimed} named by the artifacts has head ${data.head.sha.slice(0, 12)}, not the commit ${trigger.headSha.slice(0, 12)} the run built; not commenting.`);
  } catch (error) {
    core.warning(`Could not check PR #${claimed} named by the artifacts: ${oneLine((error as Error).message)}`);
  }
  return undefined;
}

export async function reportMode(ctx: ModeContext): Promise<void> {
  const source = sourceOf(ctx);
  let collected: Collected;
  if (ctx.inputs.reports.length) {
    collected = { entries: [], claims: [] };
    await collect(ctx.inputs.reports, (found, report) => labelFor(found, report, ctx.inputs.artifactPrefix), collected);
  } else {
    collected = await fromArtifacts(ctx, source);
  }
  if (collected.entries.length === 0) core.warning('No report was found to merge; the summary says so.');
  const merged = mergeReports(collected.entries);
  const runUrl = source.runId !== undefined ? `${ctx.run.serverUrl}/${ctx.run.owner}/${ctx.run.repo}/actions/runs/${source.runId}` : ctx.run.runUrl;
  core.setOutput(OUTPUTS.reportJson, '');
  core.setOutput(OUTPUTS.artifactId, '');
  core.setOutput(OUTPUTS.decodeTokS, '');
  await publish(ctx, { merged, runUrl, prNumber: await resolvePullRequest(ctx, collected.claims) });
}
