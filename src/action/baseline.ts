/**
 * Where the action's baseline comes from (input `baseline`):
 * - empty or `none`: no baseline, the findings alone decide;
 * - `artifact`: the report artifact of the newest successful push run of this workflow on the default
 *   branch of this repository (never a pull-request run, never a fork's), found through the REST API;
 * - `ab`: the base build run beside the head in this job (mode run with base-workdir or base-run);
 *   the engine makes that baseline, so here it only needs checking;
 * - any other value: a report.json path in the workspace.
 * A baseline that cannot be had is a warning and a note in the summary, never a crash.
 */
import * as core from '@actions/core';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseGateText, type GateFlag, type GateOptionsInput } from '../compare/options.js';
import type { BaselineChoice } from '../engine/analyze.js';
import { UsageError } from '../errors.js';
import { findReportFiles, loadReport } from '../engine/load-reports.js';
import { downloadArtifact, listArtifacts } from './github/artifacts.js';
import { INPUTS } from './inputs.js';
import { defaultArtifactName, oneLine, type ModeContext } from './publish.js';

/** Successful default-branch runs searched for a baseline artifact, newest first. */
const RUNS_SEARCHED = 20;

export interface ResolvedBaseline {
  baseline: BaselineChoice | null;
  /** Why there is no comparison, for the summary, when there is none. */
  note?: string;
}

/** The workflow file of this run, from GITHUB_WORKFLOW_REF (`owner/repo/.github/workflows/x.yml@ref`). */
function workflowFile(): string | undefined {
  return /\/\.github\/workflows\/([^@]+)@/.exec(process.env['GITHUB_WORKFLOW_REF'] ?? '')?.[1];
}

async function fromArtifact(ctx: ModeContext): Promise<ResolvedBaseline> {
  const name = ctx.inputs.baselineArtifactName || defaultArtifactName(ctx);
  const workflow = workflowFile();
  if (!workflow) return { baseline: null, note: `no baseline: GITHUB_WORKFLOW_REF does not name this workflow's file, so its default-branch runs cannot be searched for '${name}'` };
  const octokit = ctx.github();
  const { owner, repo } = ctx.run;
  const repository = (await octokit.rest.repos.get({ owner, repo })).data;
  const branch = repository.default_branch;
  const { data } = await octokit.rest.actions.listWorkflowRuns({
    owner,
    repo,
    workflow_id: workflow,
    branch,
    event: 'push',
    status: 'success',
    exclude_pull_requests: true,
    per_page: RUNS_SEARCHED,
  });
  for (const run of data.workflow_runs) {
    // A run whose head repository is another one was produced by a fork's code: never a baseline.
    if (run.head_repository?.id !== undefined && run.head_repository.id !== repository.id) continue;
    if (run.id === ctx.run.runId) continue;
    const source = { owner, repo, runId: run.id, token: ctx.inputs.githubToken };
    const artifact = (await listArtifacts(source, name)).find((a) => a.name === name);
    if (!artifact) continue;
    const dir = await downloadArtifact(source, artifact, await mkdtemp(join(process.env['RUNNER_TEMP'] || tmpdir(), 'profile-gate-baseline-')));
    const [found] = await findReportFiles([dir]);
    if (!found) continue;
    return {
      baseline: {
        report: await loadReport(found.path),
        origin: 'artifact',
        path: `${run.html_url} (${name})`,
        reason: `newest successful push run on ${branch} with artifact '${name}' (run ${run.id}, ${run.head_sha.slice(0, 7)})`,
      },
    };
  }
  return { baseline: null, note: `no baseline: no artifact '${name}' in the last ${data.workflow_runs.length} successful push runs of ${workflow} on ${branch}` };
}

export async function resolveBaseline(ctx: ModeContext, abRun = false): Promise<ResolvedBaseline> {
  const input = ctx.inputs.baseline;
  if (abRun) {
    if (input !== '' && input !== 'ab') throw new UsageError(`input '${INPUTS.baseline}' is ${JSON.stringify(input)}, but base-workdir/base-run make this an A/B run whose baseline is the base build; leave '${INPUTS.baseline}' empty or set it to ab`);
    return { baseline: null };
  }
  if (input === 'ab') throw new UsageError(`input '${INPUTS.baseline}': ab runs the base build in this job; it needs mode run and input 'base-workdir' (a checkout of the base commit) or 'base-run'`);
  if (input === '' || input === 'none') return { baseline: null, note: `no baseline configured (input '${INPUTS.baseline}')` };
  if (input === 'artifact') {
    try {
      return await fromArtifact(ctx);
    } catch (error) {
      const message = oneLine(error instanceof Error ? error.message : String(error));
      core.warning(`Baseline artifact not available: ${message}`);
      return { baseline: null, note: `no baseline: the artifact could not be read (${message})` };
    }
  }
  return { baseline: { report: await loadReport(input), origin: 'file', path: input, reason: `input '${INPUTS.baseline}'` } };
}

/** The gate's options from the inputs, through the parser the CLI uses; a bad value names the input. */
export function gateOptions(ctx: ModeContext): GateOptionsInput {
  const input: Record<GateFlag, string> = {
    threshold: INPUTS.thresholds,
    'fail-on': INPUTS.failOn,
    'allow-throttled': INPUTS.allowThrottled,
    'allow-environment-mismatch': INPUTS.allowEnvironmentMismatch,
    'overlap-check': INPUTS.overlapCheck,
    'drop-outliers': INPUTS.dropOutliers,
  };
  return {
    // failOn is read with the other inputs and handed to the analysis itself.
    thresholds: {},
    ...parseGateText(
      {
        threshold: ctx.inputs.thresholds,
        allowThrottled: ctx.inputs.allowThrottled,
        allowEnvironmentMismatch: ctx.inputs.allowEnvironmentMismatch,
        overlapCheck: ctx.inputs.overlapCheck,
        dropOutliers: ctx.inputs.dropOutliers,
      },
      (flag) => `input '${input[flag]}'`,
    ),
  };
}
