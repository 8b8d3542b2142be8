/**
 * A loopback stand-in for the GitHub REST API and the Actions artifact service (Twirp + blob),
 * in memory, on 127.0.0.1 and a free port. It models what profile-gate uses: issue comments
 * (paginated with Link headers, with their authors' association), issue events (labels added and
 * removed, oldest first, paginated), a user's permission on the repository, pulls.get, repos.get,
 * workflow runs, artifacts (of a run, or of the
 * repository by name) with the 302 zip download, and the Twirp ArtifactService with Azure-style block
 * uploads. Lists filter and page as GitHub's do (workflow_id, event, branch, status, name, expiry,
 * per_page/page with Link headers, newest first), so a query GitHub would answer differently fails
 * here too. Every route can be told to fail (status, count, headers), to hang, to trickle its body
 * or to answer too much, and every request is recorded.
 */
import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { writeZip } from './fake-github-zip.js';

export interface FakeComment {
  id: number;
  issue: number;
  body: string;
  user: { login: string; type: 'Bot' | 'User' };
  html_url: string;
  created_at: string;
  updated_at: string;
  author_association: string;
}

/** An issue event as GET /repos/{owner}/{repo}/issues/{n}/events lists it: labels, renames and force pushes, here. */
export interface FakeIssueEvent {
  id: number;
  issue: number;
  event: 'labeled' | 'unlabeled' | 'renamed' | 'head_ref_force_pushed';
  actor: { login: string; type: 'Bot' | 'User' };
  label?: { name: string; color: string };
  rename?: { from: string; to: string };
  commit_id?: string | null;
  created_at: string;
}

/** A user's role on the repository; the permission API answers admin, write, read or none for it. */
export type FakeRole = 'admin' | 'maintain' | 'write' | 'triage' | 'read' | 'none';

export interface FakeArtifact {
  id: number;
  /** Backend run id, `run-<numeric run id>` by this fake's convention. */
  runBackendId: string;
  jobBackendId: string;
  name: string;
  size: number;
  digest?: string;
  finalized: boolean;
  /** Past its retention: listed with expired: true, and its zip is gone (410). */
  expired?: boolean;
  zip?: Buffer;
  blobKey: string;
  createdAt: string;
}

export interface Fault {
  /** The status answered (with hang, trickle and oversize: the status once the headers go out). */
  status: number;
  /** Never answer at all. */
  hang?: boolean;
  /** Answer the route's real body one byte every this many ms. */
  trickleMs?: number;
  /** Answer 200 with a JSON body of this many bytes. */
  oversizeBytes?: number;
  /** How many requests fail before the route works again (default 1). */
  times?: number;
  headers?: Record<string, string>;
  body?: unknown;
}

export interface RecordedRequest {
  route: string;
  method: string;
  url: string;
  status: number;
  authorization?: string;
}

export interface FakeRun {
  id: number;
  event: string;
  status: string;
  conclusion: string | null;
  head_branch: string;
  head_sha: string;
  repositoryId?: number;
  headRepositoryId?: number;
  /** The workflow file name, e.g. pr-gate.yml. */
  workflow?: string;
  created_at?: string;
  /** When the run (its latest attempt) started; GitHub always answers it, here created_at when unset. */
  run_started_at?: string;
}

/** What GitHub's `status` parameter matches: a status or a conclusion. */
function matchesStatus(run: FakeRun, status: string): boolean {
  return run.status === status || run.conclusion === status;
}

/** The runtime token the artifact client only decodes: scp names the backend run and job. */
export function runtimeToken(runId: number, job = 'job-1'): string {
  const part = (o: object): string => Buffer.from(JSON.stringify(o)).toString('base64url');
  return `${part({ alg: 'none', typ: 'JWT' })}.${part({ scp: `Actions.Actions:x Actions.Results:run-${runId}:${job}` })}.sig`;
}

export class FakeGitHub {
  readonly owner: string;
  readonly repo: string;
  readonly repositoryId = 1001;
  baseUrl = '';
  /** Login of comments created through the API. */
  commentLogin = 'github-actions[bot]';
  readonly comments: FakeComment[] = [];
  readonly events: FakeIssueEvent[] = [];
  /** Roles by login; a login not here has read access (anyone may read a public repository). */
  readonly roles = new Map<string, FakeRole>();
  readonly artifacts: FakeArtifact[] = [];
  readonly pulls = new Map<number, { headSha: string; headRepo: string; headRef?: string }>();
  readonly runs: FakeRun[] = [];
  readonly requests: RecordedRequest[] = [];
  private readonly faults = new Map<string, Fault[]>();
  private readonly blocks = new Map<string, Map<string, Buffer>>();
  private readonly blobs = new Map<string, Buffer>();
  private server: Server | undefined;
  private nextId = 100;

  constructor(repository = 'octo/gpu-app') {
    [this.owner, this.repo] = repository.split('/') as [string, string];
  }

  async start(): Promise<this> {
    this.server = createServer((req, res) => {
      void this.handle(req, res).catch((error: unknown) => {
        res.writeHead(599, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ message: `fake crashed: ${String(error)}` }));
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.baseUrl = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  async stop(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }

  /** Make the next `times` requests of a route fail. Routes are named like `comments.create`, `twirp.CreateArtifact`. */
  fail(route: string, fault: Fault): void {
    const list = this.faults.get(route) ?? [];
    list.push({ times: 1, ...fault });
    this.faults.set(route, list);
  }

  hits(route: string): RecordedRequest[] {
    return this.requests.filter((r) => r.route === route);
  }

  /** A comment as GitHub stores it; `at` backdates it (a comment posted before a push). */
  addComment(issue: number, body: string, login = this.commentLogin, at?: string): FakeComment {
    const id = this.nextId++;
    const now = at ?? new Date().toISOString();
    const role = this.roles.get(login);
    const comment: FakeComment = {
      id,
      issue,
      body,
      user: { login, type: login.endsWith('[bot]') ? 'Bot' : 'User' },
      html_url: `https://github.com/${this.owner}/${this.repo}/pull/${issue}#issuecomment-${id}`,
      created_at: now,
      updated_at: now,
      // The association is how the author relates to the repository, not their permission: a read-only collaborator is a COLLABORATOR too.
      author_association: login === this.owner ? 'OWNER' : role && role !== 'none' ? 'COLLABORATOR' : 'NONE',
    };
    this.comments.push(comment);
    return comment;
  }

  /** `login` adds (or removes) a label on the issue, as its events record it. */
  label(issue: number, name: string, login: string, event: 'labeled' | 'unlabeled' = 'labeled', at?: string): FakeIssueEvent {
    const record: FakeIssueEvent = { id: this.nextId++, issue, event, actor: { login, type: login.endsWith('[bot]') ? 'Bot' : 'User' }, label: { name, color: 'ededed' }, created_at: at ?? this.now() };
    this.events.push(record);
    return record;
  }

  /** Any other event of the issue (a rename, a force push of the head), as its events record it. */
  event(issue: number, event: FakeIssueEvent['event'], login: string, at?: string, extra: Partial<FakeIssueEvent> = {}): FakeIssueEvent {
    const record: FakeIssueEvent = { id: this.nextId++, issue, event, actor: { login, type: login.endsWith('[bot]') ? 'Bot' : 'User' }, created_at: at ?? this.now(), ...extra };
    this.events.push(record);
    return record;
  }

  /** The labels on the issue now: those whose last event added them. */
  labelsOn(issue: number): string[] {
    const on = new Map<string, string>();
    for (const e of this.events.filter((x) => x.issue === issue && x.label).sort((a, b) => a.created_at.localeCompare(b.created_at) || a.id - b.id)) {
      if (e.event === 'labeled') on.set(e.label!.name.toLowerCase(), e.label!.name);
      else if (e.event === 'unlabeled') on.delete(e.label!.name.toLowerCase());
    }
    return [...on.values()];
  }

  commentsOn(issue: number): FakeComment[] {
    return this.comments.filter((c) => c.issue === issue);
  }

  /** An artifact as if a job of run `runId` had uploaded these files. */
  addArtifact(runId: number, name: string, files: Record<string, string | Buffer>): FakeArtifact {
    const zip = writeZip(files);
    const artifact: FakeArtifact = {
      id: this.nextId++,
      runBackendId: `run-${runId}`,
      jobBackendId: 'job-seeded',
      name,
      size: zip.length,
      digest: createHash('sha256').update(zip).digest('hex'),
      finalized: true,
      zip,
      blobKey: `seeded-${name}`,
      createdAt: this.now(),
    };
    this.artifacts.push(artifact);
    return artifact;
  }

  /** A run as GitHub knows it from the moment it starts; registering it again updates it. */
  registerRun(run: FakeRun): FakeRun {
    const existing = this.runs.find((r) => r.id === run.id);
    if (existing) return Object.assign(existing, run);
    const added = { created_at: new Date(Date.now() + this.runs.length).toISOString(), ...run };
    this.runs.push(added);
    return added;
  }

  private runOf(runBackendId: string): FakeRun | undefined {
    const id = Number(runBackendId.replace(/^run-/, ''));
    return this.runs.find((r) => r.id === id);
  }

  /** The artifact as the REST API lists it: with its run's branch and head repository. */
  private restArtifact(a: FakeArtifact): Record<string, unknown> {
    const runId = Number(a.runBackendId.replace(/^run-/, ''));
    const run = this.runOf(a.runBackendId);
    return {
      id: a.id,
      name: a.name,
      size_in_bytes: a.size,
      created_at: a.createdAt,
      expired: Boolean(a.expired),
      digest: a.digest ? `sha256:${a.digest}` : null,
      workflow_run: run
        ? { id: runId, repository_id: run.repositoryId ?? this.repositoryId, head_repository_id: run.headRepositoryId ?? this.repositoryId, head_branch: run.head_branch, head_sha: run.head_sha }
        : { id: runId, repository_id: this.repositoryId, head_repository_id: this.repositoryId, head_branch: null, head_sha: null },
    };
  }

  artifactsOfRun(runId: number): FakeArtifact[] {
    return this.artifacts.filter((a) => a.finalized && a.runBackendId === `run-${runId}`);
  }

  private lastTime = 0;
  /** Strictly increasing timestamps, so "newest first" is well defined even within one millisecond. */
  private now(): string {
    this.lastTime = Math.max(Date.now(), this.lastTime + 1);
    return new Date(this.lastTime).toISOString();
  }

  private takeFault(route: string): Fault | undefined {
    const list = this.faults.get(route);
    const fault = list?.[0];
    if (!fault) return undefined;
    fault.times = (fault.times ?? 1) - 1;
    if (fault.times <= 0) list!.shift();
    return fault;
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', this.baseUrl);
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks);
    const route = this.routeOf(req.method ?? 'GET', url);
    const record = (status: number): void => {
      this.requests.push({ route: route?.name ?? 'unknown', method: req.method ?? '', url: url.pathname + url.search, status, ...(req.headers.authorization ? { authorization: req.headers.authorization } : {}) });
    };
    if (!route) {
      record(404);
      this.json(res, 404, { message: 'Not Found (fake: no such route)' });
      return;
    }
    const fault = this.takeFault(route.name);
    if (fault?.hang) {
      record(0);
      return; // the socket stays open and silent until the client gives up or the fake stops
    }
    if (fault?.oversizeBytes) {
      record(200);
      res.writeHead(200, { 'content-type': 'application/json' });
      const chunk = Buffer.alloc(1 << 20, 0x20);
      res.write('{"padding": "');
      for (let sent = 0; sent < fault.oversizeBytes && !res.destroyed; sent += chunk.length) {
        if (!res.write(chunk)) await new Promise((done) => res.once('drain', done).once('close', done));
      }
      res.end('"}');
      return;
    }
    if (fault?.trickleMs) {
      const answer = await this.captureBody(route, body, url);
      record(answer.status);
      res.writeHead(answer.status, answer.headers);
      for (const byte of answer.data) {
        if (res.destroyed) return;
        res.write(Buffer.from([byte]));
        await new Promise((done) => setTimeout(done, fault.trickleMs));
      }
      res.end();
      return;
    }
    if (fault) {
      record(fault.status);
      const twirp = route.name.startsWith('twirp.');
      this.json(res, fault.status, fault.body ?? (twirp ? { code: 'internal', msg: `injected ${fault.status}` } : { message: `injected ${fault.status}` }), fault.headers);
      return;
    }
    const status = await route.run(body, url, res);
    record(status);
  }

  /** What a route would answer, as data, for a fault that sends it slowly. */
  private async captureBody(route: { run: (body: Buffer, url: URL, res: ServerResponse) => Promise<number> | number }, body: Buffer, url: URL): Promise<{ status: number; headers: Record<string, string>; data: Buffer }> {
    const headers: Record<string, string> = {};
    const chunks: Buffer[] = [];
    const sink = {
      writeHead(_status: number, h: Record<string, string> = {}) {
        Object.assign(headers, h);
        return sink;
      },
      end(data?: Buffer | string) {
        if (data) chunks.push(Buffer.from(data));
      },
    } as unknown as ServerResponse;
    const status = await route.run(body, url, sink);
    delete headers['content-length'];
    return { status, headers, data: Buffer.concat(chunks) };
  }

  private json(res: ServerResponse, status: number, data: unknown, headers: Record<string, string> = {}): number {
    res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', ...headers });
    res.end(JSON.stringify(data));
    return status;
  }

  private routeOf(method: string, url: URL): { name: string; run: (body: Buffer, url: URL, res: ServerResponse) => Promise<number> | number } | undefined {
    const p = url.pathname;
    const repoPrefix = `/repos/${this.owner}/${this.repo}`;
    let m: RegExpExecArray | null;
    if (method === 'POST' && (m = /^\/twirp\/github\.actions\.results\.api\.v1\.ArtifactService\/(\w+)$/.exec(p))) {
      const rpc = m[1]!;
      return { name: `twirp.${rpc}`, run: (body, _u, res) => this.twirp(rpc, JSON.parse(body.toString() || '{}') as Record<string, unknown>, res) };
    }
    if ((m = /^\/blob\/([^/]+)$/.exec(p))) {
      const key = decodeURIComponent(m[1]!);
      if (method === 'PUT') return { name: 'blob.put', run: (body, u, res) => this.blobPut(key, body, u, res) };
      if (method === 'GET') return { name: 'blob.get', run: (_b, _u, res) => this.download(this.blobs.get(key), res) };
    }
    if (method === 'GET' && (m = /^\/download\/(\d+)\.zip$/.exec(p))) {
      const id = Number(m[1]);
      return {
        name: 'artifacts.zip',
        run: (_b, _u, res) => {
          const artifact = this.artifacts.find((a) => a.id === id);
          return artifact?.expired ? this.json(res, 410, { message: 'Artifact has expired' }) : this.download(artifact?.zip, res);
        },
      };
    }
    if (!p.startsWith(repoPrefix)) return undefined;
    const rest = p.slice(repoPrefix.length);
    if (method === 'GET' && rest === '') {
      return { name: 'repos.get', run: (_b, _u, res) => this.json(res, 200, { id: this.repositoryId, full_name: `${this.owner}/${this.repo}`, default_branch: 'main' }) };
    }
    if ((m = /^\/issues\/(\d+)\/comments$/.exec(rest))) {
      const issue = Number(m[1]);
      if (method === 'GET') return { name: 'comments.list', run: (_b, u, res) => this.listComments(issue, u, res) };
      if (method === 'POST') {
        return {
          name: 'comments.create',
          run: (body, _u, res) => this.json(res, 201, this.addComment(issue, (JSON.parse(body.toString()) as { body: string }).body)),
        };
      }
    }
    if (method === 'GET' && (m = /^\/issues\/(\d+)\/events$/.exec(rest))) {
      const issue = Number(m[1]);
      return { name: 'events.list', run: (_b, u, res) => this.listEvents(issue, u, res) };
    }
    if (method === 'GET' && (m = /^\/collaborators\/([^/]+)\/permission$/.exec(rest))) {
      const login = decodeURIComponent(m[1]!);
      return {
        name: 'collaborators.permission',
        run: (_b, _u, res) => {
          const role = this.roles.get(login) ?? 'read';
          // GitHub maps the roles onto the four permissions: maintain is write, triage is read.
          const permission = role === 'maintain' ? 'write' : role === 'triage' ? 'read' : role;
          return this.json(res, 200, { permission, role_name: role, user: { login } });
        },
      };
    }
    if (method === 'PATCH' && (m = /^\/issues\/comments\/(\d+)$/.exec(rest))) {
      const id = Number(m[1]);
      return {
        name: 'comments.update',
        run: (body, _u, res) => {
          const comment = this.comments.find((c) => c.id === id);
          if (!comment) return this.json(res, 404, { message: 'Not Found' });
          comment.body = (JSON.parse(body.toString()) as { body: string }).body;
          comment.updated_at = new Date().toISOString();
          return this.json(res, 200, comment);
        },
      };
    }
    if (method === 'GET' && (m = /^\/pulls\/(\d+)$/.exec(rest))) {
      const n = Number(m[1]);
      return {
        name: 'pulls.get',
        run: (_b, _u, res) => {
          const pr = this.pulls.get(n);
          if (!pr) return this.json(res, 404, { message: 'Not Found' });
          const headRepoId = pr.headRepo === `${this.owner}/${this.repo}` ? this.repositoryId : 999;
          return this.json(res, 200, {
            number: n,
            head: { sha: pr.headSha, ref: pr.headRef ?? 'feature', repo: { id: headRepoId, full_name: pr.headRepo } },
            base: { repo: { id: this.repositoryId, full_name: `${this.owner}/${this.repo}` } },
            labels: this.labelsOn(n).map((name) => ({ name, color: 'ededed' })),
          });
        },
      };
    }
    if (method === 'GET' && (rest === '/actions/runs' || (m = /^\/actions\/workflows\/([^/]+)\/runs$/.exec(rest)))) {
      const workflow = rest === '/actions/runs' ? undefined : decodeURIComponent(m![1]!);
      return { name: 'runs.list', run: (_b, u, res) => this.listRuns(u, res, workflow) };
    }
    if (method === 'GET' && rest === '/actions/artifacts') {
      return { name: 'artifacts.listAll', run: (_b, u, res) => this.listRepoArtifacts(u, res) };
    }
    if (method === 'GET' && (m = /^\/actions\/runs\/(\d+)\/artifacts$/.exec(rest))) {
      const runId = Number(m[1]);
      return { name: 'artifacts.list', run: (_b, u, res) => this.listRunArtifacts(runId, u, res) };
    }
    if (method === 'GET' && (m = /^\/actions\/artifacts\/(\d+)\/zip$/.exec(rest))) {
      const id = Number(m[1]);
      return {
        name: 'artifacts.download',
        run: (_b, _u, res) => {
          const artifact = this.artifacts.find((a) => a.id === id && a.finalized);
          if (!artifact) return this.json(res, 404, { message: 'Not Found' });
          if (artifact.expired) return this.json(res, 410, { message: 'Artifact has expired' });
          res.writeHead(302, { location: `${this.baseUrl}/download/${id}.zip` });
          res.end();
          return 302;
        },
      };
    }
    return undefined;
  }

  private page(u: URL): { perPage: number; page: number } {
    return { perPage: Math.min(100, Number(u.searchParams.get('per_page') ?? 30)), page: Math.max(1, Number(u.searchParams.get('page') ?? 1)) };
  }

  private linkHeader(u: URL, page: number, last: number): Record<string, string> {
    if (last <= 1) return {};
    const at = (n: number): string => {
      const next = new URL(u.toString());
      next.searchParams.set('page', String(n));
      return `<${next.toString()}>`;
    };
    const links = [];
    if (page < last) links.push(`${at(page + 1)}; rel="next"`, `${at(last)}; rel="last"`);
    if (page > 1) links.push(`${at(1)}; rel="first"`, `${at(page - 1)}; rel="prev"`);
    return links.length ? { link: links.join(', ') } : {};
  }

  private listComments(issue: number, u: URL, res: ServerResponse): number {
    const all = this.commentsOn(issue);
    const { perPage, page } = this.page(u);
    const last = Math.max(1, Math.ceil(all.length / perPage));
    return this.json(res, 200, all.slice((page - 1) * perPage, page * perPage), this.linkHeader(u, page, last));
  }

  /** Oldest first, as GitHub lists an issue's events; paged like the comments. */
  private listEvents(issue: number, u: URL, res: ServerResponse): number {
    const all = this.events.filter((e) => e.issue === issue).sort((a, b) => a.created_at.localeCompare(b.created_at) || a.id - b.id);
    const { perPage, page } = this.page(u);
    const last = Math.max(1, Math.ceil(all.length / perPage));
    const shaped = all.slice((page - 1) * perPage, page * perPage).map(({ issue: _issue, ...e }) => ({ ...e, url: `${this.baseUrl}/repos/${this.owner}/${this.repo}/issues/events/${e.id}` }));
    return this.json(res, 200, shaped, this.linkHeader(u, page, last));
  }

  /** A page of `all` as GitHub serves it: per_page (max 100, default 30), page, Link header. */
  private paged(u: URL, res: ServerResponse, key: string, all: readonly unknown[]): number {
    const { perPage, page } = this.page(u);
    const last = Math.max(1, Math.ceil(all.length / perPage));
    return this.json(res, 200, { total_count: all.length, [key]: all.slice((page - 1) * perPage, page * perPage) }, this.linkHeader(u, page, last));
  }

  private listRuns(u: URL, res: ServerResponse, workflow: string | undefined): number {
    const want = (key: string): string | null => u.searchParams.get(key);
    const runs = this.runs
      .filter(
        (r) =>
          (workflow === undefined || r.workflow === workflow) &&
          (!want('branch') || r.head_branch === want('branch')) &&
          (!want('event') || r.event === want('event')) &&
          (!want('status') || matchesStatus(r, want('status')!)) &&
          (!want('head_sha') || r.head_sha === want('head_sha')),
      )
      .sort((a, b) => (b.created_at ?? '').localeCompare(a.created_at ?? '') || b.id - a.id);
    const repository = { id: this.repositoryId, full_name: `${this.owner}/${this.repo}` };
    const shaped = runs.map(({ repositoryId, headRepositoryId, workflow: file, ...r }) => ({
      ...r,
      // GitHub answers both for every run; a run pushed here without them gets a time from its id.
      created_at: r.created_at ?? new Date(Date.UTC(2026, 0, 1) + r.id * 60_000).toISOString(),
      run_started_at: r.run_started_at ?? r.created_at ?? new Date(Date.UTC(2026, 0, 1) + r.id * 60_000).toISOString(),
      path: file ? `.github/workflows/${file}` : undefined,
      html_url: `https://github.com/${this.owner}/${this.repo}/actions/runs/${r.id}`,
      repository: { ...repository, id: repositoryId ?? this.repositoryId },
      head_repository: { ...repository, id: headRepositoryId ?? this.repositoryId },
    }));
    return this.paged(u, res, 'workflow_runs', shaped);
  }

  private listRunArtifacts(runId: number, u: URL, res: ServerResponse): number {
    const name = u.searchParams.get('name');
    const all = this.artifactsOfRun(runId).filter((a) => !name || a.name === name);
    return this.paged(u, res, 'artifacts', all.map((a) => this.restArtifact(a)));
  }

  /** GET /repos/{owner}/{repo}/actions/artifacts[?name=]: every run's artifacts, newest first, expired ones included. */
  private listRepoArtifacts(u: URL, res: ServerResponse): number {
    const name = u.searchParams.get('name');
    const all = this.artifacts
      .filter((a) => a.finalized && (!name || a.name === name))
      .sort((a, b) => b.createdAt.localeCompare(a.createdAt) || b.id - a.id)
      .map((a) => this.restArtifact(a));
    return this.paged(u, res, 'artifacts', all);
  }

  private twirp(rpc: string, req: Record<string, unknown>, res: ServerResponse): number {
    const run = String(req['workflow_run_backend_id'] ?? req['workflowRunBackendId'] ?? '');
    const job = String(req['workflow_job_run_backend_id'] ?? req['workflowJobRunBackendId'] ?? '');
    const name = String(req['name'] ?? '');
    const existing = this.artifacts.find((a) => a.runBackendId === run && a.name === name);
    switch (rpc) {
      case 'CreateArtifact': {
        if (existing?.finalized) return this.json(res, 409, { code: 'already_exists', msg: 'an artifact with this name already exists on the workflow run' });
        const blobKey = `${run}-${name}-${this.nextId}`;
        if (existing) this.artifacts.splice(this.artifacts.indexOf(existing), 1);
        this.artifacts.push({ id: this.nextId++, runBackendId: run, jobBackendId: job, name, size: 0, finalized: false, blobKey, createdAt: this.now() });
        return this.json(res, 200, { ok: true, signed_upload_url: `${this.baseUrl}/blob/${encodeURIComponent(blobKey)}?sig=fake&se=2099-01-01` });
      }
      case 'FinalizeArtifact': {
        if (!existing || existing.finalized) return this.json(res, 404, { code: 'not_found', msg: 'no artifact to finalize' });
        const zip = this.blobs.get(existing.blobKey);
        if (!zip) return this.json(res, 400, { code: 'failed_precondition', msg: 'nothing was uploaded' });
        existing.zip = zip;
        existing.size = Number(req['size'] ?? zip.length);
        existing.digest = createHash('sha256').update(zip).digest('hex');
        existing.finalized = true;
        return this.json(res, 200, { ok: true, artifact_id: String(existing.id) });
      }
      case 'ListArtifacts': {
        const nameFilter = (req['name_filter'] ?? req['nameFilter']) as string | { value?: string } | undefined;
        const idFilter = (req['id_filter'] ?? req['idFilter']) as string | { value?: string } | undefined;
        const nameValue = typeof nameFilter === 'object' ? nameFilter?.value : nameFilter;
        const idValue = typeof idFilter === 'object' ? idFilter?.value : idFilter;
        const list = this.artifacts.filter((a) => a.finalized && a.runBackendId === run && (!nameValue || a.name === nameValue) && (!idValue || String(a.id) === String(idValue)));
        return this.json(res, 200, {
          artifacts: list.map((a) => ({
            workflow_run_backend_id: a.runBackendId,
            workflow_job_run_backend_id: a.jobBackendId,
            database_id: String(a.id),
            name: a.name,
            size: String(a.size),
            created_at: a.createdAt,
            ...(a.digest ? { digest: `sha256:${a.digest}` } : {}),
          })),
        });
      }
      case 'GetSignedArtifactURL': {
        if (!existing?.finalized) return this.json(res, 404, { code: 'not_found', msg: 'artifact not found' });
        return this.json(res, 200, { signed_url: `${this.baseUrl}/download/${existing.id}.zip` });
      }
      case 'DeleteArtifact': {
        if (!existing) return this.json(res, 404, { code: 'not_found', msg: 'artifact not found' });
        this.artifacts.splice(this.artifacts.indexOf(existing), 1);
        return this.json(res, 200, { ok: true, artifact_id: String(existing.id) });
      }
      default:
        return this.json(res, 404, { code: 'bad_route', msg: `no method ${rpc}` });
    }
  }

  private blobPut(key: string, body: Buffer, u: URL, res: ServerResponse): number {
    const comp = u.searchParams.get('comp');
    if (comp === 'block') {
      const blockId = u.searchParams.get('blockid') ?? '';
      const blocks = this.blocks.get(key) ?? new Map<string, Buffer>();
      blocks.set(blockId, body);
      this.blocks.set(key, blocks);
    } else if (comp === 'blocklist') {
      // Assemble in the order the list names, not the order blocks arrived.
      const ids = [...body.toString().matchAll(/<(?:Latest|Uncommitted|Committed)>([^<]*)<\//g)].map((m) => m[1]!);
      const blocks = this.blocks.get(key) ?? new Map<string, Buffer>();
      const missing = ids.filter((id) => !blocks.has(id));
      if (missing.length) {
        res.writeHead(400);
        res.end('InvalidBlockList');
        return 400;
      }
      this.blobs.set(key, Buffer.concat(ids.map((id) => blocks.get(id)!)));
      this.blocks.delete(key);
    } else {
      this.blobs.set(key, body);
    }
    res.writeHead(201, { etag: '"0x1"', 'last-modified': new Date().toUTCString(), 'x-ms-request-id': 'fake', 'x-ms-version': '2024-11-04', 'x-ms-request-server-encrypted': 'true' });
    res.end();
    return 201;
  }

  private download(bytes: Buffer | undefined, res: ServerResponse): number {
    if (!bytes) {
      res.writeHead(404);
      res.end();
      return 404;
    }
    res.writeHead(200, { 'content-type': 'application/zip', 'content-length': String(bytes.length) });
    res.end(bytes);
    return 200;
  }
}
