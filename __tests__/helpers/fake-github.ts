/**
 * A loopback stand-in for the GitHub REST API and the Actions artifact service (Twirp + blob),
 * in memory, on 127.0.0.1 and a free port. It models what profile-gate uses: issue comments
 * (paginated with Link headers), pulls.get, repos.get, workflow runs, run artifacts with the 302 zip
 * download, and the Twirp ArtifactService with Azure-style block uploads. Every route can be told to
 * fail (status, count, headers), and every request is recorded.
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
}

export interface FakeArtifact {
  id: number;
  /** Backend run id, `run-<numeric run id>` by this fake's convention. */
  runBackendId: string;
  jobBackendId: string;
  name: string;
  size: number;
  digest?: string;
  finalized: boolean;
  zip?: Buffer;
  blobKey: string;
  createdAt: string;
}

export interface Fault {
  status: number;
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
  workflow?: string;
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
  readonly artifacts: FakeArtifact[] = [];
  readonly pulls = new Map<number, { headSha: string; headRepo: string }>();
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

  addComment(issue: number, body: string, login = this.commentLogin): FakeComment {
    const id = this.nextId++;
    const now = new Date().toISOString();
    const comment: FakeComment = {
      id,
      issue,
      body,
      user: { login, type: login.endsWith('[bot]') ? 'Bot' : 'User' },
      html_url: `https://github.com/${this.owner}/${this.repo}/pull/${issue}#issuecomment-${id}`,
      created_at: now,
      updated_at: now,
    };
    this.comments.push(comment);
    return comment;
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
      createdAt: new Date().toISOString(),
    };
    this.artifacts.push(artifact);
    return artifact;
  }

  artifactsOfRun(runId: number): FakeArtifact[] {
    return this.artifacts.filter((a) => a.finalized && a.runBackendId === `run-${runId}`);
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
    if (fault) {
      record(fault.status);
      const twirp = route.name.startsWith('twirp.');
      this.json(res, fault.status, fault.body ?? (twirp ? { code: 'internal', msg: `injected ${fault.status}` } : { message: `injected ${fault.status}` }), fault.headers);
      return;
    }
    const status = await route.run(body, url, res);
    record(status);
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
      return { name: 'artifacts.zip', run: (_b, _u, res) => this.download(this.artifacts.find((a) => a.id === id)?.zip, res) };
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
          return this.json(res, 200, { number: n, head: { sha: pr.headSha, repo: { full_name: pr.headRepo } }, base: { repo: { full_name: `${this.owner}/${this.repo}` } } });
        },
      };
    }
    if (method === 'GET' && (/^\/actions\/runs$/.test(rest) || /^\/actions\/workflows\/[^/]+\/runs$/.test(rest))) {
      return { name: 'runs.list', run: (_b, u, res) => this.listRuns(u, res) };
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
          if (!this.artifacts.some((a) => a.id === id && a.finalized)) return this.json(res, 404, { message: 'Not Found' });
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

  private listRuns(u: URL, res: ServerResponse): number {
    const want = (key: string): string | null => u.searchParams.get(key);
    const runs = this.runs.filter(
      (r) =>
        (!want('branch') || r.head_branch === want('branch')) &&
        (!want('event') || r.event === want('event')) &&
        (!want('status') || r.status === want('status') || r.conclusion === want('status')),
    );
    const repository = { id: this.repositoryId, full_name: `${this.owner}/${this.repo}` };
    return this.json(res, 200, {
      total_count: runs.length,
      workflow_runs: runs.map((r) => ({
        ...r,
        repository: { ...repository, id: r.repositoryId ?? this.repositoryId },
        head_repository: { ...repository, id: r.headRepositoryId ?? this.repositoryId },
      })),
    });
  }

  private listRunArtifacts(runId: number, u: URL, res: ServerResponse): number {
    const name = u.searchParams.get('name');
    const all = this.artifactsOfRun(runId).filter((a) => !name || a.name === name);
    const { perPage, page } = this.page(u);
    const last = Math.max(1, Math.ceil(all.length / perPage));
    return this.json(
      res,
      200,
      {
        total_count: all.length,
        artifacts: all.slice((page - 1) * perPage, page * perPage).map((a) => ({
          id: a.id,
          name: a.name,
          size_in_bytes: a.size,
          created_at: a.createdAt,
          expired: false,
          digest: a.digest ? `sha256:${a.digest}` : null,
          workflow_run: { id: runId, repository_id: this.repositoryId, head_repository_id: this.repositoryId, head_branch: 'main' },
        })),
      },
      this.linkHeader(u, page, last),
    );
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
        this.artifacts.push({ id: this.nextId++, runBackendId: run, jobBackendId: job, name, size: 0, finalized: false, blobKey, createdAt: new Date().toISOString() });
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
