/**
 * What the action needs to know about the workflow run it is in: the repository, the run, and the
 * pull request it concerns (directly, or through the `workflow_run` that triggered it). Read once
 * from the host's environment (GITHUB_*, RUNNER_TEMP); nothing else in the action reads those.
 */
import { readFileSync } from 'node:fs';
import { systemErrorText, UsageError } from '../../errors.js';

export interface TriggeringRun {
  id: number;
  event: string;
  headSha: string;
  /** PRs GitHub links to the run; empty for pull requests from forks. */
  pullRequests: number[];
}

/** The environment as the host hands it over. */
export type Environment = Readonly<Record<string, string | undefined>>;

export interface RunContext {
  owner: string;
  repo: string;
  runId: number;
  runAttempt: number;
  job: string;
  eventName: string;
  serverUrl: string;
  /** The REST API's root (GITHUB_API_URL), no trailing slash. */
  apiUrl: string;
  runUrl: string;
  /** The commit and ref the workflow run is for (GITHUB_SHA, GITHUB_REF), when set. */
  sha?: string;
  ref?: string;
  /** The runner's scratch directory (RUNNER_TEMP), when set. */
  tempDir?: string;
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

/**
 * The event payload the runner wrote (GITHUB_EVENT_PATH): `{}` when there is none, one line naming
 * the file and the byte offset when it is not JSON.
 */
export function readEventPayload(env: Environment): Record<string, unknown> {
  const path = env['GITHUB_EVENT_PATH'];
  if (!path) return {};
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return {};
    throw new UsageError(`GITHUB_EVENT_PATH ${path}: cannot read it (${systemErrorText(error)})`);
  }
  let payload: unknown;
  try {
    payload = JSON.parse(text);
  } catch (error) {
    const at = /position (\d+)/.exec((error as Error).message)?.[1];
    throw new UsageError(`GITHUB_EVENT_PATH ${path}: not JSON${at ? ` at byte ${at}` : ''}; expected the event payload the runner writes`);
  }
  if (typeof payload !== 'object' || payload === null || Array.isArray(payload)) throw new UsageError(`GITHUB_EVENT_PATH ${path}: expected a JSON object (the event payload)`);
  return payload as Record<string, unknown>;
}

function whole(text: string | undefined, fallback: number): number {
  const n = Number(text);
  return text && Number.isInteger(n) ? n : fallback;
}

export function readRunContext(env: Environment): RunContext {
  const payload = readEventPayload(env) as Payload;
  const eventName = env['GITHUB_EVENT_NAME'] ?? '';
  const [owner = '', repo = ''] = (env['GITHUB_REPOSITORY'] ?? '').split('/');
  const serverUrl = (env['GITHUB_SERVER_URL'] || 'https://github.com').replace(/\/+$/, '');
  const runId = whole(env['GITHUB_RUN_ID'], 0);
  const pr = payload.pull_request;
  const headRepo = pr?.head?.repo?.full_name;
  const baseRepo = payload.repository?.full_name ?? `${owner}/${repo}`;
  const wr = payload.workflow_run;
  const [sha, ref, tempDir] = [env['GITHUB_SHA'], env['GITHUB_REF'], env['RUNNER_TEMP']];
  return {
    owner,
    repo,
    runId,
    runAttempt: whole(env['GITHUB_RUN_ATTEMPT'], 1),
    job: env['GITHUB_JOB'] ?? '',
    eventName,
    serverUrl,
    apiUrl: (env['GITHUB_API_URL'] || 'https://api.github.com').replace(/\/+$/, ''),
    runUrl: `${serverUrl}/${owner}/${repo}/actions/runs/${runId}`,
    ...(sha ? { sha } : {}),
    ...(ref ? { ref } : {}),
    ...(tempDir ? { tempDir } : {}),
    ...(typeof pr?.number === 'number' ? { pullRequest: pr.number } : {}),
    ...(pr?.head?.sha ? { pullRequestHeadSha: pr.head.sha } : {}),
    fromFork: Boolean(headRepo && headRepo !== baseRepo),
    ...(eventName === 'workflow_run' && typeof wr?.id === 'number'
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
