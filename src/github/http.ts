/**
 * The one HTTP layer between profile-gate and GitHub (REST API and artifact storage), on Node's
 * fetch: bounded retries with backoff (5xx, 429, rate-limit 403s, network errors, honouring
 * Retry-After), a connect timeout (until the answer's headers arrive), an idle timeout (between
 * two chunks of a body), an overall deadline for a body (a server trickling bytes just inside the
 * idle timeout), and a size limit on every body read. One message per failure class.
 * No @actions import: the CLI and the action share it.
 */
import { InputError } from '../errors.js';

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

export interface HttpLimits {
  /** From sending the request until the answer's headers arrive. */
  connectTimeoutMs: number;
  /** Longest silence while a body streams in. */
  idleTimeoutMs: number;
  /** Longest time one body may take to stream in, however steadily it comes. */
  bodyTimeoutMs: number;
  /** Largest JSON answer of the API read. */
  maxJsonBytes: number;
}

export const DEFAULT_HTTP_LIMITS: HttpLimits = {
  connectTimeoutMs: 30_000,
  idleTimeoutMs: 60_000,
  // A 256 MiB artifact zip at 1 MiB/s takes about 4.5 minutes.
  bodyTimeoutMs: 600_000,
  maxJsonBytes: 32 * 1024 * 1024,
};

/** A GitHub request that failed for good, with a message that says what to do about it. */
export class GitHubApiError extends InputError {
  override name = 'GitHubApiError';
  constructor(
    readonly status: number,
    readonly route: string,
    message: string,
  ) {
    super(route, message);
    // The explanation names the route itself, in its place in the sentence.
    this.message = message;
  }
}

/** Retry-After in seconds or as an HTTP date; else a rate-limit reset time; else undefined. */
export function serverWaitMs(headers: Headers, now = Date.now()): number | undefined {
  const retryAfter = headers.get('retry-after');
  if (retryAfter !== null) {
    const seconds = Number(retryAfter);
    if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
    const date = Date.parse(retryAfter);
    if (Number.isFinite(date)) return Math.max(0, date - now);
  }
  if (headers.get('x-ratelimit-remaining') === '0') {
    const reset = Number(headers.get('x-ratelimit-reset'));
    if (Number.isFinite(reset)) return Math.max(0, reset * 1000 - now);
  }
  return undefined;
}

/** The message a user sees, by status. `route` is the endpoint template, never user data. */
export function explain(status: number, route: string, detail: string, attempts: number): string {
  const what = `${detail || 'no message'}`.replace(/\s+/g, ' ').slice(0, 200);
  switch (status) {
    case 401:
      return `GitHub rejected the token (401: ${what}) on ${route}; check the github-token input or GITHUB_TOKEN`;
    case 403:
      return `the token may not do this (403: ${what}) on ${route}; reading artifacts needs 'actions: read', commenting 'pull-requests: write'; on pull requests from forks GitHub grants only a read-only token: comment from a workflow_run workflow (examples/fork-safe-comment.yml)`;
    case 404:
      return `not found (404: ${what}) on ${route}; check the repository, the workflow, the pull request or run number, and that the token can read them ('actions: read' for other runs' artifacts)`;
    default:
      return status === 429 || status >= 500
        ? `GitHub kept failing (${status}: ${what}) on ${route} after ${attempts} attempt${attempts === 1 ? '' : 's'}`
        : `GitHub answered ${status} (${what}) on ${route}`;
  }
}

export interface HttpOptions {
  fetch?: typeof fetch;
  retry?: Partial<RetryPolicy>;
  limits?: Partial<HttpLimits>;
}

export interface RequestOptions {
  method?: string;
  headers?: Record<string, string>;
  body?: string;
  /** `manual`: a 3xx is handed back (the artifact download's redirect to storage). */
  redirect?: 'manual' | 'follow';
}

/** An answer whose headers arrived; its body is read within the idle timeout and a size limit. */
export class HttpResponse {
  constructor(
    readonly status: number,
    readonly headers: Headers,
    private readonly response: Response,
    private readonly controller: AbortController,
    private readonly idleTimeoutMs: number,
    private readonly route: string,
    private readonly bodyTimeoutMs: number,
  ) {}

  /**
   * The body, at most `maxBytes`; a longer body, a silence longer than the idle timeout, or a body
   * still coming in at the body deadline stops it.
   */
  async bytes(maxBytes: number, what = 'answer'): Promise<Buffer> {
    const declared = Number(this.headers.get('content-length') ?? NaN);
    if (Number.isFinite(declared) && declared > maxBytes) {
      this.cancel();
      throw new InputError(this.route, `the ${what} is ${declared} bytes; expected at most ${maxBytes}`);
    }
    const reader = this.response.body?.getReader();
    if (!reader) return Buffer.alloc(0);
    const chunks: Buffer[] = [];
    let total = 0;
    let timer: NodeJS.Timeout | undefined;
    let idle = false;
    let late = false;
    const deadline = setTimeout(() => {
      late = true;
      this.controller.abort();
    }, this.bodyTimeoutMs);
    const arm = (): void => {
      clearTimeout(timer);
      timer = setTimeout(() => {
        idle = true;
        this.controller.abort();
      }, this.idleTimeoutMs);
    };
    try {
      for (;;) {
        arm();
        let step;
        try {
          step = await reader.read();
        } catch (error) {
          if (late) throw new InputError(this.route, `the ${what} was still coming in after ${this.bodyTimeoutMs} ms (${total} bytes so far); stopped waiting`);
          if (idle) throw new InputError(this.route, `the server sent nothing for ${this.idleTimeoutMs} ms while sending the ${what} (${total} bytes so far); stopped waiting`);
          throw new InputError(this.route, `the ${what} broke off after ${total} bytes (${(error as Error).message})`);
        }
        if (step.done) break;
        total += step.value.length;
        if (total > maxBytes) {
          this.cancel();
          throw new InputError(this.route, `the ${what} is more than ${maxBytes} bytes; stopped reading`);
        }
        chunks.push(Buffer.from(step.value));
      }
    } finally {
      clearTimeout(timer);
      clearTimeout(deadline);
    }
    return Buffer.concat(chunks);
  }

  async json<T>(maxBytes: number): Promise<T> {
    const data = await this.bytes(maxBytes, 'JSON answer');
    try {
      return JSON.parse(data.toString('utf8')) as T;
    } catch {
      throw new InputError(this.route, 'expected a JSON answer from the GitHub API');
    }
  }

  cancel(): void {
    this.controller.abort();
  }
}

export class Http {
  readonly policy: RetryPolicy;
  readonly limits: HttpLimits;
  private readonly fetch: typeof fetch;

  constructor(options: HttpOptions = {}) {
    this.policy = { ...DEFAULT_RETRY, ...options.retry };
    this.limits = { ...DEFAULT_HTTP_LIMITS, ...options.limits };
    this.fetch = options.fetch ?? globalThis.fetch;
  }

  /** One attempt: the answer once its headers are in, within the connect timeout. */
  private async once(url: string, options: RequestOptions, route: string): Promise<HttpResponse> {
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), this.limits.connectTimeoutMs);
    try {
      const response = await this.fetch(url, {
        method: options.method ?? 'GET',
        ...(options.headers ? { headers: options.headers } : {}),
        ...(options.body !== undefined ? { body: options.body } : {}),
        redirect: options.redirect ?? 'follow',
        signal: controller.signal,
      });
      return new HttpResponse(response.status, response.headers, response, controller, this.limits.idleTimeoutMs, route, this.limits.bodyTimeoutMs);
    } catch (error) {
      if (controller.signal.aborted) throw new TimeoutError(`no answer within ${this.limits.connectTimeoutMs} ms`);
      const cause = (error as { cause?: { code?: string; message?: string } }).cause;
      throw new NetworkError(cause?.code ?? cause?.message ?? (error as Error).message);
    } finally {
      clearTimeout(timer);
    }
  }

  /**
   * A request with bounded retries. An answer of 400 and up that is not retried becomes a
   * GitHubApiError; a 2xx or 3xx is handed back with its body unread.
   */
  async request(url: string, options: RequestOptions, route: string): Promise<HttpResponse> {
    for (let attempt = 1; ; attempt += 1) {
      let failure: string;
      let asked: number | undefined;
      let status = 0;
      let detail = '';
      try {
        const response = await this.once(url, options, route);
        asked = serverWaitMs(response.headers);
        status = response.status;
        const retryable = status === 429 || status >= 500 || (status === 403 && asked !== undefined);
        if (status < 400) return response;
        detail = await this.errorDetail(response);
        if (!retryable) throw new GitHubApiError(status, route, explain(status, route, detail, attempt));
        failure = `${status}`;
      } catch (error) {
        if (error instanceof GitHubApiError) throw error;
        if (!(error instanceof TimeoutError || error instanceof NetworkError)) throw error;
        failure = error.message;
      }
      const wait = asked ?? this.policy.baseMs * 2 ** (attempt - 1) * (0.8 + Math.random() * 0.4);
      if (attempt >= this.policy.attempts || wait > this.policy.maxWaitMs) {
        if (status) throw new GitHubApiError(status, route, explain(status, route, detail, attempt));
        throw new GitHubApiError(0, route, `GitHub could not be reached (${failure}) on ${route} after ${attempt} attempt${attempt === 1 ? '' : 's'}`);
      }
      await this.policy.sleep(Math.round(wait));
    }
  }

  /** The `message` of an error answer, read within a small cap. */
  private async errorDetail(response: HttpResponse): Promise<string> {
    try {
      const text = (await response.bytes(64 * 1024, 'error answer')).toString('utf8');
      try {
        const message = (JSON.parse(text) as { message?: unknown }).message;
        return typeof message === 'string' ? message : text.slice(0, 200);
      } catch {
        return text.slice(0, 200);
      }
    } catch {
      return '';
    }
  }
}

class TimeoutError extends Error {}
class NetworkError extends Error {}
