/**
 * The REST client: @actions/github's Octokit plus bounded retries (5xx, 429 and rate-limit 403s,
 * honouring Retry-After) and one clear message per failure class (401, 403, 404).
 * The toolkit's Octokit has no retry of its own.
 */
import { getOctokit } from '@actions/github';

export type GitHubClient = ReturnType<typeof getOctokit>;

export interface RetryPolicy {
  /** Tries in all, the first included. */
  attempts: number;
  /** First backoff; doubles per retry, ±20% jitter. */
  baseMs: number;
  /** A server asking for a longer wait than this is not waited for. */
  maxWaitMs: number;
  sleep: (ms: number) => Promise<void>;
}

export const DEFAULT_RETRY: RetryPolicy = {
  attempts: 4,
  baseMs: 1000,
  maxWaitMs: 60_000,
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
};

/** A GitHub API failure with a message that says what to do about it. */
export class GitHubApiError extends Error {
  override name = 'GitHubApiError';
  constructor(
    readonly status: number,
    readonly route: string,
    message: string,
  ) {
    super(message);
  }
}

interface HttpErrorLike {
  status?: number;
  message?: string;
  response?: { headers?: Record<string, string | number | undefined> };
}

function header(error: HttpErrorLike, name: string): string | undefined {
  const value = error.response?.headers?.[name];
  return value === undefined ? undefined : String(value);
}

/** Retry-After in seconds or as an HTTP date; else a rate-limit reset time; else undefined. */
export function serverWaitMs(error: HttpErrorLike, now = Date.now()): number | undefined {
  const retryAfter = header(error, 'retry-after');
  if (retryAfter !== undefined) {
    const seconds = Number(retryAfter);
    if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
    const date = Date.parse(retryAfter);
    if (Number.isFinite(date)) return Math.max(0, date - now);
  }
  if (header(error, 'x-ratelimit-remaining') === '0') {
    const reset = Number(header(error, 'x-ratelimit-reset'));
    if (Number.isFinite(reset)) return Math.max(0, reset * 1000 - now);
  }
  return undefined;
}

function isRetryable(error: HttpErrorLike): boolean {
  const status = error.status ?? 0;
  if (status === 429 || status >= 500) return true;
  // A 403 that carries rate-limit headers is a secondary rate limit, not a permission problem.
  return status === 403 && serverWaitMs(error) !== undefined;
}

/** The message a user sees, by status. `route` is the endpoint template, never user data. */
export function explain(status: number, route: string, detail: string, attempts: number): string {
  const what = `${detail || 'no message'}`.replace(/\s+/g, ' ').slice(0, 200);
  switch (status) {
    case 401:
      return `GitHub rejected the token (401: ${what}) on ${route}; check the github-token input`;
    case 403:
      return `the token may not do this (403: ${what}) on ${route}; on pull requests from forks GitHub grants only a read-only token: give the job 'pull-requests: write', or comment from a workflow_run workflow (examples/fork-safe-comment.yml)`;
    case 404:
      return `not found (404: ${what}) on ${route}; check the repository, the pull request or run number, and that the token can read them ('actions: read' for other runs' artifacts)`;
    default:
      return status === 429 || status >= 500
        ? `GitHub kept failing (${status}: ${what}) on ${route} after ${attempts} attempt${attempts === 1 ? '' : 's'}`
        : `GitHub answered ${status} (${what}) on ${route}`;
  }
}

/** The endpoint without origin or query (pagination hands over absolute URLs). */
function routePath(url: string): string {
  const path = /^https?:\/\//.test(url) ? new URL(url).pathname : url;
  return path.split('?')[0]!;
}

export interface ClientOptions {
  baseUrl?: string;
  retry?: Partial<RetryPolicy>;
}

export function createGitHubClient(token: string, options: ClientOptions = {}): GitHubClient {
  const policy: RetryPolicy = { ...DEFAULT_RETRY, ...options.retry };
  const octokit = getOctokit(token, options.baseUrl ? { baseUrl: options.baseUrl } : {});
  octokit.hook.wrap('request', async (request, requestOptions) => {
    const route = `${requestOptions.method} ${routePath(requestOptions.url)}`;
    for (let attempt = 1; ; attempt++) {
      try {
        return await request(requestOptions);
      } catch (caught) {
        const error = caught as HttpErrorLike;
        if (typeof error.status !== 'number') throw caught;
        const asked = serverWaitMs(error);
        const backoff = policy.baseMs * 2 ** (attempt - 1) * (0.8 + Math.random() * 0.4);
        const wait = asked ?? backoff;
        if (!isRetryable(error) || attempt >= policy.attempts || wait > policy.maxWaitMs) {
          // A 3xx (e.g. an artifact download redirect) is the caller's business, not a failure.
          if (error.status < 400) throw caught;
          throw new GitHubApiError(error.status, route, explain(error.status, route, error.message ?? '', attempt));
        }
        await policy.sleep(Math.round(wait));
      }
    }
  });
  return octokit;
}
