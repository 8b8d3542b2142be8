/**
 * `dashboard --from-artifacts`: the report artifacts of a workflow's last N successful runs on a
 * branch, through the GitHub REST API with plain fetch (the CLI has no @actions dependency):
 * list the workflow's runs, each run's artifacts named PREFIX*, download each zip (a 302 to
 * storage, followed without the token), and take the report.json files out of it.
 * Everything downloaded is untrusted: sizes are capped, reports are schema-validated, and a bad
 * artifact is left out with a note rather than failing the whole dashboard.
 */
import { InputError } from '../errors.js';
import { ReportSchema, type Report } from '../model/report.js';
import type { DashboardInput } from '../report/dashboard/build-data.js';
import type { SkippedReport } from '../report/dashboard/data.js';
import { MAX_REPORT_BYTES } from './load-reports.js';
import { readZipEntries } from './zip-reader.js';

export interface ArtifactQuery {
  /** OWNER/NAME. */
  repository: string;
  /** The workflow file name (nightly.yml) or its numeric id. */
  workflow: string;
  branch: string;
  /** Successful runs to read, newest first. */
  limit: number;
  prefix: string;
  /** Run events accepted (push and schedule: what builds main). */
  events: readonly string[];
}

export interface GitHubAccess {
  token: string;
  /** https://api.github.com, or GITHUB_API_URL on GitHub Enterprise. */
  apiUrl: string;
  /** https://github.com, for run links. */
  serverUrl: string;
  fetch?: typeof fetch;
  retry?: Partial<RetryPolicy>;
  /** A zip larger than this is not downloaded. */
  maxArtifactBytes?: number;
  log?: (line: string) => void;
}

export interface RetryPolicy {
  attempts: number;
  baseMs: number;
  maxWaitMs: number;
  sleep: (ms: number) => Promise<void>;
}

const DEFAULT_RETRY: RetryPolicy = { attempts: 4, baseMs: 1000, maxWaitMs: 60_000, sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)) };
export const MAX_ARTIFACT_BYTES = 256 * 1024 * 1024;
const MAX_PAGES = 20;

interface WorkflowRun {
  id: number;
  event?: string;
  status?: string;
  conclusion?: string | null;
  head_branch?: string;
  head_sha?: string;
  html_url?: string;
  created_at?: string;
  run_started_at?: string;
}

interface Artifact {
  id: number;
  name: string;
  size_in_bytes?: number;
  expired?: boolean;
}

export interface DownloadedReports {
  inputs: DashboardInput[];
  skipped: SkippedReport[];
  /** Runs looked at. */
  runs: number;
}

/** Seconds in Retry-After (or an HTTP date), else the rate-limit reset; undefined when neither is given. */
function serverWaitMs(headers: Headers, now = Date.now()): number | undefined {
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

function advice(status: number): string {
  if (status === 401) return 'GitHub rejected the token; set GITHUB_TOKEN to a token that can read the repository';
  if (status === 403) return "the token may not read this; it needs 'actions: read' (and 'contents: read' on private repositories)";
  if (status === 404) return 'not found; check --repo, --workflow (the file name, e.g. nightly.yml) and that the token can read them';
  return 'GitHub kept failing';
}

class GitHubRest {
  private readonly policy: RetryPolicy;
  private readonly fetch: typeof fetch;
  constructor(private readonly access: GitHubAccess) {
    this.policy = { ...DEFAULT_RETRY, ...access.retry };
    this.fetch = access.fetch ?? globalThis.fetch;
  }

  /** One request with bounded retries on 5xx, 429, rate-limit 403s and network errors. */
  async request(url: string, init: RequestInit, route: string): Promise<Response> {
    for (let attempt = 1; ; attempt += 1) {
      let response: Response | undefined;
      let failure: string;
      try {
        response = await this.fetch(url, init);
        const wait = serverWaitMs(response.headers);
        const retryable = response.status === 429 || response.status >= 500 || (response.status === 403 && wait !== undefined);
        if (!retryable) {
          if (response.status >= 400) {
            const detail = (await response.text().catch(() => '')).replace(/\s+/g, ' ').slice(0, 200);
            throw new InputError(route, `${advice(response.status)} (${response.status}${detail ? `: ${detail}` : ''})`);
          }
          return response;
        }
        failure = `${response.status}`;
        await response.body?.cancel().catch(() => undefined);
      } catch (error) {
        if (error instanceof InputError) throw error;
        failure = (error as Error).message;
      }
      const asked = response ? serverWaitMs(response.headers) : undefined;
      const wait = asked ?? this.policy.baseMs * 2 ** (attempt - 1) * (0.8 + Math.random() * 0.4);
      if (attempt >= this.policy.attempts || wait > this.policy.maxWaitMs) {
        throw new InputError(route, `GitHub kept failing (${failure}) after ${attempt} attempt${attempt === 1 ? '' : 's'}`);
      }
      await this.policy.sleep(Math.round(wait));
    }
  }

  private headers(): Record<string, string> {
    return { accept: 'application/vnd.github+json', authorization: `Bearer ${this.access.token}`, 'x-github-api-version': '2022-11-28', 'user-agent': 'profile-gate-dashboard' };
  }

  /** A JSON list endpoint, following Link rel="next" until `enough` says stop. */
  async list<T>(path: string, key: string, route: string, enough: (items: T[]) => boolean): Promise<T[]> {
    const items: T[] = [];
    let url: string | undefined = `${this.access.apiUrl}${path}`;
    const seen = new Set<string>();
    for (let page = 0; url && page < MAX_PAGES && !enough(items); page += 1) {
      if (seen.has(url)) break;
      seen.add(url);
      const response = await this.request(url, { headers: this.headers() }, route);
      let body: unknown;
      try {
        body = await response.json();
      } catch {
        throw new InputError(route, 'expected a JSON answer from the GitHub API');
      }
      const list = (body as Record<string, unknown> | null)?.[key];
      if (!Array.isArray(list)) throw new InputError(route, `expected a '${key}' list in the answer`);
      items.push(...(list as T[]));
      url = /<([^>]+)>;\s*rel="next"/.exec(response.headers.get('link') ?? '')?.[1];
      if (url && !url.startsWith(this.access.apiUrl)) url = undefined;
    }
    return items;
  }

  /** The artifact's zip: the API answers 302 to storage, which is fetched without the token. */
  async download(artifactId: number, route: string, maxBytes: number): Promise<Buffer> {
    const url = `${this.access.apiUrl}/repos/${route}/actions/artifacts/${artifactId}/zip`;
    const label = `GET /repos/${route}/actions/artifacts/${artifactId}/zip`;
    const first = await this.request(url, { headers: this.headers(), redirect: 'manual' }, label);
    let response = first;
    if (first.status >= 300 && first.status < 400) {
      const location = first.headers.get('location');
      await first.body?.cancel().catch(() => undefined);
      if (!location) throw new InputError(label, `a ${first.status} without a Location header`);
      response = await this.request(new URL(location, url).toString(), { redirect: 'follow' }, `${label} (storage)`);
    }
    const declared = Number(response.headers.get('content-length'));
    if (Number.isFinite(declared) && declared > maxBytes) {
      await response.body?.cancel().catch(() => undefined);
      throw new InputError(label, `${declared} bytes; expected an artifact under ${maxBytes} bytes`);
    }
    const chunks: Buffer[] = [];
    let total = 0;
    for await (const chunk of response.body ?? []) {
      total += (chunk as Uint8Array).length;
      if (total > maxBytes) throw new InputError(label, `more than ${maxBytes} bytes; expected a smaller artifact`);
      chunks.push(Buffer.from(chunk as Uint8Array));
    }
    return Buffer.concat(chunks);
  }
}

function validRepository(repository: string): boolean {
  return /^[A-Za-z0-9_.-]+\/[A-Za-z0-9_.-]+$/.test(repository) && !repository.includes('..');
}

function parseReport(data: Buffer, source: string): Report {
  let json: unknown;
  try {
    json = JSON.parse(data.toString('utf8'));
  } catch (error) {
    throw new InputError(source, `expected JSON, got ${(error as Error).message}`);
  }
  const parsed = ReportSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new InputError(source, `expected a profile-gate report.json (schemaVersion 1); at ${issue.path.length ? issue.path.join('.') : 'the top level'}: ${issue.message}`);
  }
  return parsed.data;
}

/** What the run says about itself wins over what the report claims: the API knows which commit it built. */
function withRunInfo(report: Report, run: WorkflowRun, query: ArtifactQuery, serverUrl: string): Report {
  const runUrl = run.html_url?.startsWith('https://') ? run.html_url : `${serverUrl}/${query.repository}/actions/runs/${run.id}`;
  return {
    ...report,
    run: {
      ...report.run,
      repository: query.repository,
      runId: String(run.id),
      runUrl,
      ...(run.head_sha ? { commit: run.head_sha } : {}),
      timestamp: report.run.timestamp ?? run.run_started_at ?? run.created_at ?? report.generatedAt,
    },
  };
}

export async function downloadReportArtifacts(query: ArtifactQuery, access: GitHubAccess): Promise<DownloadedReports> {
  if (!validRepository(query.repository)) throw new InputError('--repo', `${JSON.stringify(query.repository)}; expected OWNER/NAME`);
  if (!access.token) throw new InputError('GITHUB_TOKEN', "not set; --from-artifacts reads the GitHub API with it (a token with 'actions: read')");
  const rest = new GitHubRest(access);
  const log = access.log ?? (() => undefined);
  const maxArtifactBytes = access.maxArtifactBytes ?? MAX_ARTIFACT_BYTES;
  const repo = query.repository;
  const accepted = (run: WorkflowRun): boolean =>
    run.conclusion === 'success' && (run.head_branch === undefined || run.head_branch === query.branch) && query.events.includes(run.event ?? '');
  const params = new URLSearchParams({ branch: query.branch, status: 'success', per_page: '100', exclude_pull_requests: 'true' });
  const runsRoute = `GET /repos/${repo}/actions/workflows/{workflow}/runs`;
  const listed = await rest.list<WorkflowRun>(`/repos/${repo}/actions/workflows/${encodeURIComponent(query.workflow)}/runs?${params}`, 'workflow_runs', runsRoute, (items) => items.filter(accepted).length >= query.limit);
  const byId = new Map<number, WorkflowRun>();
  for (const run of listed) if (Number.isInteger(run.id) && accepted(run)) byId.set(run.id, run);
  const time = (run: WorkflowRun): number => Date.parse(run.run_started_at ?? run.created_at ?? '') || 0;
  const runs = [...byId.values()].sort((a, b) => time(b) - time(a) || b.id - a.id).slice(0, query.limit);
  log(`${runs.length} successful ${query.events.join('/')} runs of ${query.workflow} on ${query.branch}`);
  const inputs: DashboardInput[] = [];
  const skipped: SkippedReport[] = [];
  for (const run of runs) {
    const artifacts = (await rest.list<Artifact>(`/repos/${repo}/actions/runs/${run.id}/artifacts?per_page=100`, 'artifacts', `GET /repos/${repo}/actions/runs/{run}/artifacts`, () => false))
      .filter((a) => typeof a.name === 'string' && a.name.startsWith(query.prefix) && Number.isInteger(a.id));
    if (!artifacts.length) skipped.push({ source: `run ${run.id}`, reason: `no artifact named ${query.prefix}*` });
    for (const artifact of artifacts) {
      const source = `run ${run.id} artifact ${artifact.name}`;
      if (artifact.expired) {
        skipped.push({ source, reason: 'expired' });
        continue;
      }
      if ((artifact.size_in_bytes ?? 0) > maxArtifactBytes) {
        skipped.push({ source, reason: `${artifact.size_in_bytes} bytes; larger than ${maxArtifactBytes}` });
        continue;
      }
      try {
        const zip = await rest.download(artifact.id, repo, maxArtifactBytes);
        const entries = readZipEntries(zip, (name) => name === 'report.json' || name.endsWith('/report.json'), MAX_REPORT_BYTES);
        if (!entries.length) skipped.push({ source, reason: 'no report.json inside' });
        for (const entry of entries) inputs.push({ report: withRunInfo(parseReport(entry.data, `${source}/${entry.name}`), run, query, access.serverUrl), source: `${source}/${entry.name}` });
      } catch (error) {
        // Listing failures (token, permissions) already stopped us above; one bad artifact is only left out.
        skipped.push({ source, reason: (error as Error).message });
      }
    }
  }
  return { inputs, skipped, runs: runs.length };
}
