/**
 * What the action needs to know about the workflow run it is in: the repository, the run, and the
 * pull request it concerns (directly, or through the `workflow_run` that triggered it).
 */
import { context } from '@actions/github';

export interface TriggeringRun {
  id: number;
  event: string;
  headSha: string;
  /** PRs GitHub links to the run; empty for pull requests from forks. */
  pullRequests: number[];
}

export interface RunContext {
  owner: string;
  repo: string;
  runId: number;
  runAttempt: number;
  job: string;
  eventName: string;
  serverUrl: string;
  runUrl: string;
  /** The PR this event is about (pull_request / pull_request_target), and its head commit. */
  pullRequest?: number;
  pullRequestHeadSha?: string;
  /** The PR's head repository differs from the base: the token is read-only. */
  fromFork: boolean;
  /** For `workflow_run` events: the run that finished. */
  triggeringRun?: TriggeringRun;
}

interface Payload {
  pull_request?: { number?: number; head?: { sha?: string; repo?: { full_name?: string } } };
  repository?: { full_name?: string };
  workflow_run?: { id?: number; event?: string; head_sha?: string; pull_requests?: { number?: number }[] };
}

export function readRunContext(): RunContext {
  const payload = context.payload as Payload;
  const [owner = '', repo = ''] = (process.env['GITHUB_REPOSITORY'] ?? '').split('/');
  const serverUrl = context.serverUrl.replace(/\/+$/, '');
  const runId = Number.isFinite(context.runId) ? context.runId : 0;
  const pr = payload.pull_request;
  const headRepo = pr?.head?.repo?.full_name;
  const baseRepo = payload.repository?.full_name ?? `${owner}/${repo}`;
  const wr = payload.workflow_run;
  return {
    owner,
    repo,
    runId,
    runAttempt: Number.isFinite(context.runAttempt) ? context.runAttempt : 1,
    job: context.job ?? '',
    eventName: context.eventName ?? '',
    serverUrl,
    runUrl: `${serverUrl}/${owner}/${repo}/actions/runs/${runId}`,
    ...(typeof pr?.number === 'number' ? { pullRequest: pr.number } : {}),
    ...(pr?.head?.sha ? { pullRequestHeadSha: pr.head.sha } : {}),
    fromFork: Boolean(headRepo && headRepo !== baseRepo),
    ...(context.eventName === 'workflow_run' && typeof wr?.id === 'number'
      ? {
          triggeringRun: {
            id: wr.id,
            event: wr.event ?? '',
            headSha: wr.head_sha ?? '',
            pullRequests: (wr.pull_requests ?? []).map((p) => p.number).filter((n): n is number => typeof n === 'number'),
          },
        }
      : {}),
  };
}

/** Events that are about a pull request, for `comment: auto`. */
export function isPullRequestEvent(run: RunContext): boolean {
  if (run.eventName === 'pull_request' || run.eventName === 'pull_request_target') return true;
  return run.triggeringRun?.event === 'pull_request' || run.triggeringRun?.event === 'pull_request_target';
}

export function artifactUrl(run: RunContext, runId: number, artifactId: number): string {
  return `${run.serverUrl}/${run.owner}/${run.repo}/actions/runs/${runId}/artifacts/${artifactId}`;
}
