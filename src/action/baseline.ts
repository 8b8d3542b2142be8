/**
 * Where the action's baseline comes from (input `baseline`):
 * - empty or `none`: no baseline, the findings alone decide;
 * - `artifact`: the newest unexpired artifact of that name made on the default branch by this
 *   repository's own code (never a fork's, never a pull request's run), from any workflow (or input
 *   `baseline-workflow`'s), found through the branch's completed runs and then their artifacts; an
 *   unreadable one (newer schema, corrupt, over a cap) is skipped, with why, for the next;
 * - `ab`: the base build run beside the head in this job (mode run with base-workdir or base-run);
 *   the engine makes that baseline, so here it only needs checking;
 * - any other value: a report.json path in the workspace.
 * A baseline that cannot be had is a warning and a note in the summary, never a crash.
 */
import type { HistoryEntry } from '../compare/between-jobs.js';
import type { GateOptionsInput } from '../compare/gate-options.js';
import { gateOf } from '../options/table.js';
import type { BaselineChoice } from '../pipeline/analyze.js';
import { UsageError } from '../errors.js';
import { loadReport } from '../io/reports.js';
import type { Artifact, Repository } from '../github/client.js';
import { reportsInZip, unreadableReason } from '../github/report-artifacts.js';
import type { Report } from '../model/report.js';
import { INPUTS } from './inputs.js';
import { defaultArtifactName, oneLine, type ModeContext } from './publish.js';

export interface ResolvedBaseline {
  baseline: BaselineChoice | null;
  /** Why there is no comparison, for the summary, when there is none. */
  note?: string;
}

function fixFor(ctx: ModeContext, name: string, branch: string): string {
  const key = ctx.inputs.key ? ` with key '${ctx.inputs.key}'` : '';
  return `to fix: let a workflow on pushes to ${branch} run the same workload${key}, so it uploads '${name}' (examples/baseline-main.yml), or set '${INPUTS.baselineArtifactName}' to the name ${branch}'s run uploads`;
}

function plural(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}

/** What the search left out, and how far it looked. */
interface Search {
  runs: number;
  oldest?: string;
  left: { expired: number; fork: number; pullRequest: number };
}

/**
 * The default branch's artifacts of this name, newest run first: the completed workflow runs on the
 * branch (of input baseline-workflow's workflow, when set) made by this repository's own code and not
 * by a pull request's event, then each run's artifact of that name. Searching runs, not the
 * repository's artifacts by name, keeps main's artifact in reach however many pull-request runs
 * uploaded the same name since. Stops once `wanted` candidates are found or `maxRuns` runs were seen.
 */
async function defaultBranchArtifacts(ctx: ModeContext, repoName: string, repository: Repository, name: string, wanted: number): Promise<{ candidates: Artifact[]; search: Search }> {
  const client = ctx.github();
  const workflow = ctx.inputs.baselineWorkflow;
  const search: Search = { runs: 0, left: { expired: 0, fork: 0, pullRequest: 0 } };
  const runs = await client.workflowRuns(repoName, {
    ...(workflow ? { workflow } : {}),
    branch: repository.default_branch,
    status: 'completed',
    limit: ctx.limits.artifacts.baselineRunsSearched,
  });
  const candidates: Artifact[] = [];
  for (const run of runs) {
    if (candidates.length >= wanted) break;
    if (run.id === ctx.run.runId) continue;
    search.runs += 1;
    search.oldest = run.created_at ?? search.oldest;
    // Made by a fork's code (its head repository is another one): never a baseline.
    if (run.head_repository?.id !== repository.id || (run.repository?.id !== undefined && run.repository.id !== repository.id)) {
      search.left.fork += 1;
      continue;
    }
    // A pull request's run measures the pull request's merge, not the branch.
    if (run.event?.startsWith('pull_request')) {
      search.left.pullRequest += 1;
      continue;
    }
    for (const artifact of await client.runArtifacts(repoName, run.id, name)) {
      if (artifact.name !== name) continue;
      if (artifact.expired) {
        search.left.expired += 1;
        continue;
      }
      candidates.push({ ...artifact, workflow_run: { ...artifact.workflow_run, id: run.id, ...(run.head_sha ? { head_sha: run.head_sha } : {}) } });
    }
  }
  return { candidates, search };
}

async function fromArtifact(ctx: ModeContext): Promise<ResolvedBaseline> {
  const name = ctx.inputs.baselineArtifactName || defaultArtifactName(ctx);
  const client = ctx.github();
  const repoName = `${ctx.run.owner}/${ctx.run.repo}`;
  const repository = await client.repository(repoName);
  const branch = repository.default_branch;
  const workflow = ctx.inputs.baselineWorkflow;
  const limits = ctx.limits.artifacts;
  const { candidates, search } = await defaultBranchArtifacts(ctx, repoName, repository, name, limits.maxBaselineCandidates + limits.historyReports - 1);
  const skipped: string[] = [];
  for (const artifact of candidates.slice(0, limits.maxBaselineCandidates)) {
    const runId = artifact.workflow_run!.id!;
    const source = `run ${runId}`;
    let reason: string | undefined;
    if ((artifact.size_in_bytes ?? 0) > limits.maxZipBytes) reason = `${artifact.size_in_bytes} bytes; larger than ${limits.maxZipBytes}`;
    else {
      try {
        const zip = await client.artifactZip(repoName, artifact.id, limits.maxZipBytes);
        const first = reportsInZip(zip, `${name} of ${source}`, limits).next();
        if (first.done) reason = 'no report.json inside';
        else if ('error' in first.value) reason = first.value.error;
        else {
          const sha = artifact.workflow_run?.head_sha?.slice(0, 7);
          const passed = skipped.length ? `; skipped newer: ${skipped.join('; ')}` : '';
          const older = candidates.slice(candidates.indexOf(artifact) + 1, candidates.indexOf(artifact) + limits.historyReports);
          return {
            baseline: {
              report: first.value.report,
              origin: 'artifact',
              path: `${ctx.run.serverUrl}/${repoName}/actions/runs/${runId} (${name})`,
              reason: `newest readable artifact '${name}' on ${branch} (run ${runId}${sha ? `, ${sha}` : ''})${passed}`,
              history: [historyOf(first.value.report), ...(await olderReports(ctx, repoName, name, older))],
            },
          };
        }
      } catch (error) {
        reason = oneLine(unreadableReason(error));
      }
    }
    skipped.push(`${source}: ${reason}`);
    ctx.host.warning(`Skipped baseline candidate '${name}' of ${source}: ${reason}`);
  }
  const fix = fixFor(ctx, name, branch);
  if (skipped.length) return { baseline: null, note: `no baseline: ${plural(skipped.length, 'artifact')} '${name}' on ${branch} could not be read (${skipped.join('; ')}); ${fix}` };
  const others = [
    search.left.expired ? `${search.left.expired} expired` : '',
    search.left.fork ? `${plural(search.left.fork, 'run')} made by forks` : '',
    search.left.pullRequest ? `${plural(search.left.pullRequest, 'pull-request run')}` : '',
  ].filter(Boolean);
  const where = workflow ? ` of workflow ${workflow}` : '';
  const since = search.oldest ? `, back to ${search.oldest.slice(0, 10)}` : '';
  const looked = `searched the newest ${plural(search.runs, 'completed run')} on ${branch}${where}${since}${search.runs >= limits.baselineRunsSearched ? ` (the search stops at ${limits.baselineRunsSearched})` : ''}`;
  const left = others.length ? `; left out: ${others.join(', ')}` : '';
  return { baseline: null, note: `no baseline: no artifact '${name}' on ${branch}${where}: ${looked}${left}; ${fix}` };
}

/** What the between-job noise estimate reads of a report: its metric medians, nothing else kept. */
function historyOf(report: Report): HistoryEntry {
  return { metrics: report.metrics.map((m) => ({ name: m.name, value: m.value })) };
}

/**
 * The default branch's older reports of the same name, for the noise between jobs: read one at a
 * time within the same caps, reduced at once to their medians; one that cannot be read is left out
 * (it only narrows the estimate, which says how many reports it had).
 */
async function olderReports(ctx: ModeContext, repoName: string, name: string, artifacts: readonly Artifact[]): Promise<HistoryEntry[]> {
  const client = ctx.github();
  const limits = ctx.limits.artifacts;
  const out: HistoryEntry[] = [];
  for (const artifact of artifacts) {
    if ((artifact.size_in_bytes ?? 0) > limits.maxZipBytes) continue;
    try {
      const first = reportsInZip(await client.artifactZip(repoName, artifact.id, limits.maxZipBytes), `${name} of run ${artifact.workflow_run?.id}`, limits).next();
      if (!first.done && !('error' in first.value)) out.push(historyOf(first.value.report));
    } catch (error) {
      ctx.host.debug(`history: left out run ${artifact.workflow_run?.id}: ${oneLine(unreadableReason(error))}`);
    }
  }
  return out;
}

export async function resolveBaseline(ctx: ModeContext, abRun = false): Promise<ResolvedBaseline> {
  const input = ctx.inputs.baseline;
  if (abRun) {
    if (input !== '' && input !== 'ab') throw new UsageError(`input '${INPUTS.baseline}' is ${JSON.stringify(input)}, but base-workdir/base-run make this an A/B run whose baseline is the base build; leave '${INPUTS.baseline}' empty or set it to ab`);
    return { baseline: null };
  }
  if (input === 'ab') throw new UsageError(`input '${INPUTS.baseline}': ab runs the base build in this job; it needs mode run and input 'base-workdir' (a checkout of the base commit) or 'base-run'`);
  if (input === '' || input === 'none') return { baseline: null, note: `no baseline configured (input '${INPUTS.baseline}' is empty); to compare, set it to artifact (the default branch's report artifact of the same key) or to a report.json path` };
  if (input === 'artifact') {
    try {
      return await fromArtifact(ctx);
    } catch (error) {
      const message = oneLine(error instanceof Error ? error.message : String(error));
      ctx.host.warning(`Baseline artifact not available: ${message}`);
      return { baseline: null, note: `no baseline: the baseline artifact could not be looked up (${message}); to fix: give the job 'actions: read' and check the github-token input` };
    }
  }
  return { baseline: { report: await loadReport(input), origin: 'file', path: input, reason: `input '${INPUTS.baseline}'` } };
}

/** The gate's options, as the inputs set them (read and checked with the other inputs). */
export function gateOptions(ctx: ModeContext): GateOptionsInput {
  return gateOf(ctx.inputs);
}
