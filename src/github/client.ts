/**
 * The GitHub REST client of profile-gate, for the action and the CLI alike: the repository, workflow
 * runs, artifacts (by name across the repository, or of one run), the artifact zip download (a 302
 * to storage, fetched without the token, within a size cap), pull requests, issue comments and
 * events, and a user's permission on the repository.
 * Every call goes through `Http` (retries, timeouts, body limits); list calls follow Link rel="next"
 * within a page bound, and never leave the API host. An issue's comments and events are scanned
 * newest first (from Link rel="last" back along rel="prev") to the end, within a much larger bound
 * that, when hit, is said (`Scan.cut`), never silent.
 */
import { InputError } from '../errors.js';
import { Http, type HttpOptions } from './http.js';

export interface GitHubAccess extends HttpOptions {
  token: string;
  /** https://api.github.com, or GITHUB_API_URL on GitHub Enterprise. */
  apiUrl: string;
  /** Pages read at most by a scan of an issue's comments or events (default MAX_SCAN_PAGES). */
  maxScanPages?: number;
}

/** How a newest-first scan of a list ended. */
export interface Scan {
  /** Items handed to the visitor. */
  read: number;
  /** Set when the page bound stopped the scan before the oldest item: what was read, in words. */
  cut?: string;
}

export interface Repository {
  id: number;
  full_name: string;
  default_branch: string;
}

export interface WorkflowRun {
  id: number;
  event?: string;
  status?: string;
  conclusion?: string | null;
  head_branch?: string | null;
  head_sha?: string;
  html_url?: string;
  path?: string;
  created_at?: string;
  run_started_at?: string;
  repository?: { id?: number };
  head_repository?: { id?: number } | null;
}

export interface Artifact {
  id: number;
  name: string;
  size_in_bytes?: number;
  expired?: boolean;
  created_at?: string | null;
  workflow_run?: {
    id?: number;
    repository_id?: number;
    head_repository_id?: number;
    head_branch?: string | null;
    head_sha?: string;
  } | null;
}

export interface IssueComment {
  id: number;
  body?: string | null;
  html_url: string;
  user?: { login?: string; type?: string } | null;
  created_at?: string;
  /** OWNER, MEMBER, COLLABORATOR, CONTRIBUTOR, NONE …: how the author relates to the repository (not their permission). */
  author_association?: string;
}

/** One event of an issue or pull request (GET …/issues/{n}/events), oldest first as GitHub lists them. */
export interface IssueEvent {
  id: number;
  /** `labeled`, `unlabeled`, `closed`, `head_ref_force_pushed` … */
  event: string;
  actor?: { login?: string; type?: string } | null;
  created_at?: string;
  /** For labeled and unlabeled. */
  label?: { name?: string } | null;
  /** For head_ref_force_pushed and referenced: the commit. */
  commit_id?: string | null;
}

/** A user's permission on a repository: admin, maintain and write roles answer admin or write. */
export interface RepositoryPermission {
  permission: 'admin' | 'write' | 'read' | 'none' | string;
  role_name?: string;
}

export interface PullRequest {
  number: number;
  head: { sha: string; ref?: string; repo?: { id?: number } | null };
  /** The labels on the pull request now. */
  labels?: Array<{ name?: string }>;
}

export interface RunQuery {
  /** The workflow file name (nightly.yml) or its numeric id; absent: every workflow. */
  workflow?: string;
  branch?: string;
  event?: string;
  /** Only the runs of this commit. */
  headSha?: string;
  status?: string;
  /** Runs wanted: paging stops once this many were accepted. */
  limit: number;
  /** Which listed runs count (default: all). */
  accept?: (run: WorkflowRun) => boolean;
  /** Paging stops once this is true of the runs listed so far, newest first. */
  until?: (listed: readonly WorkflowRun[]) => boolean;
}

/**
 * True when `url` is on the API itself: the same origin (scheme, host and port, compared parsed, so
 * `:39734` is not `:3973` and `api.github.com.example` is not `api.github.com`), no credentials, and
 * under the API's base path (`/api/v3` on GitHub Enterprise). The token goes only there.
 */
export function onApi(url: string, apiUrl: string): boolean {
  let next: URL;
  let api: URL;
  try {
    next = new URL(url);
    api = new URL(apiUrl);
  } catch {
    return false;
  }
  if (next.origin !== api.origin || next.username || next.password) return false;
  const base = api.pathname.replace(/\/+$/, '');
  return next.pathname === base || next.pathname.startsWith(`${base}/`);
}

/** Pages read at most from one list endpoint. */
const MAX_PAGES = 20;
/** Pages read at most by a newest-first scan of an issue's comments or events: 100,000 items. */
export const MAX_SCAN_PAGES = 1000;

function linkOf(headers: Headers, rel: string): string | undefined {
  for (const part of (headers.get('link') ?? '').split(',')) {
    const m = /<([^>]+)>\s*;\s*rel="([^"]+)"/.exec(part);
    if (m && m[2] === rel) return m[1];
  }
  return undefined;
}

export class GitHubClient {
  readonly http: Http;
  constructor(private readonly access: GitHubAccess) {
    this.http = new Http(access);
  }

  private headers(json = false): Record<string, string> {
    return {
      accept: 'application/vnd.github+json',
      authorization: `Bearer ${this.access.token}`,
      'x-github-api-version': '2022-11-28',
      'user-agent': 'profile-gate',
      ...(json ? { 'content-type': 'application/json' } : {}),
    };
  }

  private async call<T>(method: string, path: string, route: string, body?: unknown): Promise<T> {
    const response = await this.http.request(
      `${this.access.apiUrl}${path}`,
      { method, headers: this.headers(body !== undefined), ...(body !== undefined ? { body: JSON.stringify(body) } : {}) },
      route,
    );
    return response.json<T>(this.http.limits.maxJsonBytes);
  }

  /** A list endpoint, following Link rel="next" (on the API host only) until `enough` or the page bound. */
  async list<T>(path: string, route: string, key: string | null, enough: (items: T[]) => boolean = () => false): Promise<T[]> {
    const items: T[] = [];
    let url: string | undefined = `${this.access.apiUrl}${path}`;
    const seen = new Set<string>();
    for (let page = 0; url && page < MAX_PAGES && !enough(items); page += 1) {
      if (seen.has(url)) break;
      seen.add(url);
      const response = await this.http.request(url, { headers: this.headers() }, route);
      const body = await response.json<unknown>(this.http.limits.maxJsonBytes);
      const list = key === null ? body : (body as Record<string, unknown> | null)?.[key];
      if (!Array.isArray(list)) throw new InputError(route, key ? `expected a '${key}' list in the answer` : 'expected a list in the answer');
      items.push(...(list as T[]));
      url = /<([^>]+)>;\s*rel="next"/.exec(response.headers.get('link') ?? '')?.[1];
      if (url && !onApi(url, this.access.apiUrl)) url = undefined;
    }
    return items;
  }

  /** One page of a list that answers a bare JSON array, with its Link header. */
  private async page<T>(url: string, route: string): Promise<{ items: T[]; headers: Headers }> {
    const response = await this.http.request(url, { headers: this.headers() }, route);
    const body = await response.json<unknown>(this.http.limits.maxJsonBytes);
    if (!Array.isArray(body)) throw new InputError(route, 'expected a list in the answer');
    return { items: body as T[], headers: response.headers };
  }

  /**
   * A list that answers a bare array, newest item first: its last page (Link rel="last"), then back
   * along rel="prev" to the first, each page read backwards. `visit` returning true stops the scan.
   * Where GitHub gives no rel="last", the pages are read forward, then visited backwards.
   * Within `maxScanPages` pages; a scan the bound stopped says so in `cut`.
   */
  async scanNewestFirst<T>(path: string, route: string, visit: (item: T) => boolean | void): Promise<Scan> {
    const bound = this.access.maxScanPages ?? MAX_SCAN_PAGES;
    const first = `${this.access.apiUrl}${path}`;
    let read = 0;
    const visitPage = (items: readonly T[]): boolean => {
      for (let i = items.length - 1; i >= 0; i--) {
        read += 1;
        if (visit(items[i]!)) return true;
      }
      return false;
    };
    const cut = (pages: number): Scan => ({ read, cut: `${read} read, newest first, in ${pages} pages: the scan stops at ${bound} pages of ${route}, and older ones were not read` });
    const head = await this.page<T>(first, route);
    const onApiOnly = (url: string | undefined): string | undefined => (url && onApi(url, this.access.apiUrl) ? url : undefined);
    const last = onApiOnly(linkOf(head.headers, 'last'));
    if (!last) {
      // No rel="last": forward to the end, then backwards.
      const pages = [head.items];
      const seen = new Set([first]);
      let cutAt: number | undefined;
      for (let url = onApiOnly(linkOf(head.headers, 'next')); url && !seen.has(url); ) {
        if (pages.length >= bound) {
          cutAt = pages.length;
          break;
        }
        seen.add(url);
        const next = await this.page<T>(url, route);
        pages.push(next.items);
        url = onApiOnly(linkOf(next.headers, 'next'));
      }
      // Cut here, the newest pages were not read: what was read is still visited, and the cut said.
      for (let p = pages.length - 1; p >= 0; p--) if (visitPage(pages[p]!)) return { read };
      return cutAt === undefined ? { read } : { read, cut: `${read} read, oldest first, in ${cutAt} pages: the scan stops at ${bound} pages of ${route}, and newer ones were not read` };
    }
    const seen = new Set([first]);
    let pages = 1;
    for (let url: string | undefined = last; url && !seen.has(url); ) {
      if (pages >= bound) return cut(pages);
      seen.add(url);
      const page = await this.page<T>(url, route);
      pages += 1;
      if (visitPage(page.items)) return { read };
      const prev = onApiOnly(linkOf(page.headers, 'prev'));
      // No rel="prev": this was the first page. A prev that is the first page: it was read first.
      if (!prev) return { read };
      if (prev === linkOf(page.headers, 'first')) break;
      url = prev;
    }
    visitPage(head.items);
    return { read };
  }

  repository(repo: string): Promise<Repository> {
    return this.call<Repository>('GET', `/repos/${repo}`, 'GET /repos/{owner}/{repo}');
  }

  /** Workflow runs, newest first as GitHub lists them. */
  async workflowRuns(repo: string, query: RunQuery): Promise<WorkflowRun[]> {
    const params = new URLSearchParams({ per_page: '100', exclude_pull_requests: 'true' });
    if (query.branch) params.set('branch', query.branch);
    if (query.event) params.set('event', query.event);
    if (query.status) params.set('status', query.status);
    if (query.headSha) params.set('head_sha', query.headSha);
    const path = query.workflow ? `/repos/${repo}/actions/workflows/${encodeURIComponent(query.workflow)}/runs` : `/repos/${repo}/actions/runs`;
    const route = query.workflow ? 'GET /repos/{owner}/{repo}/actions/workflows/{workflow}/runs' : 'GET /repos/{owner}/{repo}/actions/runs';
    const accept = (run: WorkflowRun): boolean => Number.isInteger(run.id) && (query.accept?.(run) ?? true);
    const runs = await this.list<WorkflowRun>(`${path}?${params}`, route, 'workflow_runs', (items) => items.filter(accept).length >= query.limit || (query.until?.(items) ?? false));
    return runs.filter(accept).slice(0, query.limit);
  }

  /** Artifacts of the whole repository with exactly this name, newest first. */
  async artifactsNamed(repo: string, name: string, limit = 100): Promise<Artifact[]> {
    const params = new URLSearchParams({ name, per_page: String(Math.min(100, limit)) });
    const found = await this.list<Artifact>(`/repos/${repo}/actions/artifacts?${params}`, 'GET /repos/{owner}/{repo}/actions/artifacts', 'artifacts', (items) => items.length >= limit);
    return found.filter((a) => Number.isInteger(a.id) && a.name === name).slice(0, limit);
  }

  /** The artifacts of one run (only those named `name`, when given). */
  async runArtifacts(repo: string, runId: number, name?: string): Promise<Artifact[]> {
    const params = new URLSearchParams({ per_page: '100', ...(name !== undefined ? { name } : {}) });
    const found = await this.list<Artifact>(`/repos/${repo}/actions/runs/${runId}/artifacts?${params}`, 'GET /repos/{owner}/{repo}/actions/runs/{run}/artifacts', 'artifacts');
    return found.filter((a) => Number.isInteger(a.id) && typeof a.name === 'string');
  }

  /** The artifact's zip, at most `maxBytes`: the API answers 302 to storage, fetched without the token. */
  async artifactZip(repo: string, artifactId: number, maxBytes: number): Promise<Buffer> {
    const route = 'GET /repos/{owner}/{repo}/actions/artifacts/{id}/zip';
    const url = `${this.access.apiUrl}/repos/${repo}/actions/artifacts/${artifactId}/zip`;
    let response = await this.http.request(url, { headers: this.headers(), redirect: 'manual' }, route);
    if (response.status >= 300 && response.status < 400) {
      const location = response.headers.get('location');
      response.cancel();
      if (!location) throw new InputError(route, `a ${response.status} without a Location header`);
      response = await this.http.request(new URL(location, url).toString(), { redirect: 'follow' }, `${route} (storage)`);
    }
    return response.bytes(maxBytes, 'artifact zip');
  }

  pull(repo: string, number: number): Promise<PullRequest> {
    return this.call<PullRequest>('GET', `/repos/${repo}/pulls/${number}`, 'GET /repos/{owner}/{repo}/pulls/{pull_number}');
  }

  /** The issue's comments, newest first, to the end (or the scan bound, said in `cut`); `visit` returning true stops. */
  scanComments(repo: string, issue: number, visit: (comment: IssueComment) => boolean | void): Promise<Scan> {
    return this.scanNewestFirst<IssueComment>(`/repos/${repo}/issues/${issue}/comments?per_page=100`, 'GET /repos/{owner}/{repo}/issues/{issue_number}/comments', visit);
  }

  /** The issue's events (labels added and removed, force pushes, with who did it), newest first, as scanComments. */
  scanIssueEvents(repo: string, issue: number, visit: (event: IssueEvent) => boolean | void): Promise<Scan> {
    return this.scanNewestFirst<IssueEvent>(`/repos/${repo}/issues/${issue}/events?per_page=100`, 'GET /repos/{owner}/{repo}/issues/{issue_number}/events', visit);
  }

  /** The issue's comments, oldest first, to the end of the scan. */
  async comments(repo: string, issue: number): Promise<IssueComment[]> {
    const all: IssueComment[] = [];
    await this.scanComments(repo, issue, (c) => void all.push(c));
    return all.reverse();
  }

  /** The issue's events, oldest first, to the end of the scan. */
  async issueEvents(repo: string, issue: number): Promise<IssueEvent[]> {
    const all: IssueEvent[] = [];
    await this.scanIssueEvents(repo, issue, (e) => void all.push(e));
    return all.reverse();
  }

  /** What `login` may do in the repository (the token needs metadata: read, which every GITHUB_TOKEN has). */
  permission(repo: string, login: string): Promise<RepositoryPermission> {
    return this.call<RepositoryPermission>('GET', `/repos/${repo}/collaborators/${encodeURIComponent(login)}/permission`, 'GET /repos/{owner}/{repo}/collaborators/{username}/permission');
  }

  createComment(repo: string, issue: number, body: string): Promise<IssueComment> {
    return this.call<IssueComment>('POST', `/repos/${repo}/issues/${issue}/comments`, 'POST /repos/{owner}/{repo}/issues/{issue_number}/comments', { body });
  }

  updateComment(repo: string, id: number, body: string): Promise<IssueComment> {
    return this.call<IssueComment>('PATCH', `/repos/${repo}/issues/comments/${id}`, 'PATCH /repos/{owner}/{repo}/issues/comments/{comment_id}', { body });
  }
}
