/**
 * The one GitHub client (retries, timeouts, body limits, sticky comment) in process against the
 * loopback fake: real HTTP; only the sleep between retries is injected.
 */
import { createServer, type Server } from 'node:http';
import { GitHubClient, onApi } from '../../src/github/client.js';
import { explain, GitHubApiError, serverWaitMs, type HttpLimits } from '../../src/github/http.js';
import { upsertStickyComment } from '../../src/github/sticky-comment.js';
import { commentMarker } from '../../src/report/markdown/comment.js';
import { FakeGitHub } from '../helpers/fake-github.js';

let fake: FakeGitHub;
let waits: number[];

beforeEach(async () => {
  fake = await new FakeGitHub('octo/gpu-app').start();
  waits = [];
});
afterEach(async () => {
  await fake.stop();
});

function client(attempts = 4, limits: Partial<HttpLimits> = {}) {
  return new GitHubClient({
    token: 'test-token',
    apiUrl: fake.baseUrl,
    limits,
    retry: {
      attempts,
      baseMs: 1000,
      sleep: async (ms) => {
        waits.push(ms);
      },
    },
  });
}

const target = { owner: 'octo', repo: 'gpu-app', issueNumber: 7 };
const marker = '<!-- profile-gate:llama -->';

describe('retries', () => {
  it('retries 5xx with growing backoff, then succeeds', async () => {
    fake.fail('comments.list', { status: 502, times: 2 });
    const result = await upsertStickyComment(client(), target, `${marker}\nhello`, { marker, author: 'github-actions[bot]', create: true });
    expect(result.action).toBe('created');
    expect(fake.hits('comments.list').map((r) => r.status)).toEqual([502, 502, 200]);
    expect(waits).toHaveLength(2);
    // 1000 ms then 2000 ms, each with ±20% jitter.
    expect(waits[0]).toBeGreaterThanOrEqual(800);
    expect(waits[0]).toBeLessThanOrEqual(1200);
    expect(waits[1]).toBeGreaterThanOrEqual(1600);
    expect(waits[1]).toBeLessThanOrEqual(2400);
    expect(fake.hits('comments.list')[0]!.authorization).toBe('Bearer test-token');
  });

  it('honours Retry-After on 429 and on a rate-limit 403', async () => {
    fake.fail('comments.create', { status: 429, headers: { 'retry-after': '7' } });
    fake.fail('comments.create', { status: 403, headers: { 'retry-after': '3' }, body: { message: 'You have exceeded a secondary rate limit' } });
    const result = await upsertStickyComment(client(), target, `${marker}\nx`, { marker, author: 'github-actions[bot]', create: true });
    expect(result.action).toBe('created');
    expect(waits).toEqual([7000, 3000]);
    expect(fake.commentsOn(7)).toHaveLength(1);
  });

  it('gives up after the bounded number of attempts with a clear message', async () => {
    fake.fail('comments.list', { status: 500, times: 10 });
    const error = await upsertStickyComment(client(3), target, `${marker}\nx`, { marker, author: 'a', create: true }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(GitHubApiError);
    expect((error as GitHubApiError).status).toBe(500);
    expect((error as Error).message).toMatch(/^GitHub kept failing \(500: .*\) on GET \/repos\/\{owner\}\/\{repo\}\/issues\/\{issue_number\}\/comments after 3 attempts$/);
    expect(fake.hits('comments.list')).toHaveLength(3);
  });

  it('does not wait for a Retry-After longer than the limit', async () => {
    fake.fail('comments.list', { status: 429, headers: { 'retry-after': '3600' } });
    await expect(upsertStickyComment(client(), target, `${marker}\nx`, { marker, author: 'a', create: true })).rejects.toThrow(/429/);
    expect(waits).toEqual([]);
  });

  it('explains 401, 403 and 404 without retrying them', async () => {
    for (const [status, pattern] of [
      [401, /GitHub rejected the token \(401: .*\) on POST .*; check the github-token input/],
      [403, /the token may not do this \(403: Resource not accessible by integration\) on POST .*forks.*fork-safe-comment\.yml/],
      [404, /not found \(404: .*\) on POST .*check the repository/],
    ] as const) {
      waits = [];
      fake.fail('comments.create', { status, body: { message: status === 403 ? 'Resource not accessible by integration' : 'nope' } });
      await expect(upsertStickyComment(client(), target, `${marker}\nx`, { marker, author: 'a', create: true })).rejects.toThrow(pattern);
      expect(waits).toEqual([]);
    }
  });

  it('reads Retry-After dates and rate-limit resets', () => {
    const now = Date.parse('2026-11-30T00:00:00Z');
    expect(serverWaitMs(new Headers({ 'retry-after': 'Mon, 30 Nov 2026 00:00:05 GMT' }), now)).toBe(5000);
    expect(serverWaitMs(new Headers({ 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': String(now / 1000 + 9) }), now)).toBe(9000);
    expect(serverWaitMs(new Headers(), now)).toBeUndefined();
    expect(explain(418, 'GET /x', 'teapot', 1)).toBe('GitHub answered 418 (teapot) on GET /x');
  });
});

describe('timeouts and body limits', () => {
  it('stops waiting for an API that never answers, within the connect timeout, after the bounded retries', async () => {
    fake.fail('comments.list', { status: 200, hang: true, times: 2 });
    const started = Date.now();
    const error = await client(2, { connectTimeoutMs: 300 }).comments('octo/gpu-app', 7).catch((e: unknown) => e);
    expect((error as Error).message).toMatch(/^GitHub could not be reached \(no answer within 300 ms\) on GET .*comments after 2 attempts$/);
    expect(error).toBeInstanceOf(GitHubApiError);
    expect(Date.now() - started).toBeLessThan(5000);
    expect(waits).toHaveLength(1);
  });

  it('cuts a storage server that sends one byte at a time slower than the idle timeout', async () => {
    const artifact = fake.addArtifact(300, 'profile-gate-x', { 'report.json': 'x'.repeat(200) });
    fake.fail('artifacts.zip', { status: 200, trickleMs: 600 });
    const started = Date.now();
    const error = await client(1, { idleTimeoutMs: 250 }).artifactZip('octo/gpu-app', artifact.id, 1 << 20).catch((e: unknown) => e);
    expect((error as Error).message).toMatch(/the server sent nothing for 250 ms while sending the artifact zip \(1 bytes so far\); stopped waiting/);
    expect(Date.now() - started).toBeLessThan(3000);
  });

  it('stops a body trickled just inside the idle timeout at the body deadline', async () => {
    const artifact = fake.addArtifact(302, 'profile-gate-z', { 'report.json': 'z'.repeat(200) });
    // One byte every 100 ms never trips a 1 s idle timeout; the whole zip would take half a minute.
    fake.fail('artifacts.zip', { status: 200, trickleMs: 100 });
    const started = Date.now();
    const error = await client(1, { idleTimeoutMs: 1000, bodyTimeoutMs: 700 }).artifactZip('octo/gpu-app', artifact.id, 1 << 20).catch((e: unknown) => e);
    expect((error as Error).message).toMatch(/the artifact zip was still coming in after 700 ms \(\d+ bytes so far\); stopped waiting/);
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it('reads an oversized JSON answer no further than its limit', async () => {
    fake.fail('comments.list', { status: 200, oversizeBytes: 8 * 1024 * 1024 });
    const before = process.memoryUsage().rss;
    const error = await client(1, { maxJsonBytes: 1024 * 1024 }).comments('octo/gpu-app', 7).catch((e: unknown) => e);
    expect((error as Error).message).toMatch(/the JSON answer is more than 1048576 bytes; stopped reading/);
    expect(process.memoryUsage().rss - before).toBeLessThan(64 * 1024 * 1024);
  });

  it('refuses a zip larger than the cap as it streams in', async () => {
    const artifact = fake.addArtifact(301, 'profile-gate-y', { 'report.json': 'y'.repeat(5000) });
    await expect(client(1).artifactZip('octo/gpu-app', artifact.id, 1000)).rejects.toThrow(/the artifact zip is \d+ bytes; expected at most 1000/);
  });
});

describe('sticky comment', () => {
  it('finds its own comment across pages, newest first, and updates it in place', async () => {
    const ours = fake.addComment(7, `${marker}\nold body`, 'github-actions[bot]');
    for (let i = 0; i < 230; i++) fake.addComment(7, `chatter ${i}`, 'someone');
    // Someone else planted our marker: never ours to edit.
    const planted = fake.addComment(7, `${marker}\nplanted`, 'mallory');
    const other = fake.addComment(7, `<!-- profile-gate:other-leg -->\nquoting ${marker} in a code block`, 'github-actions[bot]');
    const result = await upsertStickyComment(client(), target, `${marker}\nnew body`, { marker, author: 'github-actions[bot]', create: true });
    expect(result).toEqual({ action: 'updated', id: ours.id, url: ours.html_url });
    expect(ours.body).toBe(`${marker}\nnew body`);
    expect(planted.body).toBe(`${marker}\nplanted`);
    expect(other.body).toBe(`<!-- profile-gate:other-leg -->\nquoting ${marker} in a code block`);
    // 233 comments at 100 a page: the first page (for its Link header), then the last and back; the first is not asked twice.
    expect(fake.hits('comments.list').map((r) => new URL(r.url, fake.baseUrl).searchParams.get('page') ?? '1')).toEqual(['1', '3', '2']);
    expect(fake.hits('comments.create')).toHaveLength(0);
  });

  it('leaves an identical comment alone, and creates only when allowed', async () => {
    const body = `${marker}\nsame`;
    fake.addComment(7, body);
    expect((await upsertStickyComment(client(), target, body, { marker, author: 'github-actions', create: true })).action).toBe('unchanged');
    expect(fake.hits('comments.update')).toHaveLength(0);
    const elsewhere = { ...target, issueNumber: 8 };
    expect((await upsertStickyComment(client(), elsewhere, body, { marker, author: 'github-actions[bot]', create: false })).action).toBe('none');
    expect(fake.commentsOn(8)).toHaveLength(0);
  });

  it('keeps keys that sanitize alike apart: llama fp8 never updates the llama+fp8 comment', async () => {
    const plus = commentMarker('llama+fp8');
    const space = commentMarker('llama fp8');
    expect(plus).not.toBe(space);
    const failing = fake.addComment(7, `${plus}\n## profile-gate: ❌ Fail`, 'github-actions[bot]');
    const result = await upsertStickyComment(client(), target, `${space}\n## profile-gate: ✅ Pass`, { marker: space, author: 'github-actions[bot]', create: true });
    expect(result.action).toBe('created');
    expect(failing.body).toBe(`${plus}\n## profile-gate: ❌ Fail`);
    expect(fake.commentsOn(7)).toHaveLength(2);
  });

  it('refuses a body without its marker', async () => {
    await expect(upsertStickyComment(client(), target, 'no marker', { marker, author: 'a', create: true })).rejects.toThrow(/does not open with its marker/);
  });
});

describe('the loopback GitHub lists as GitHub does', () => {
  const repo = 'octo/gpu-app';
  beforeEach(() => {
    const run = (id: number, over: Partial<Parameters<FakeGitHub['registerRun']>[0]>) =>
      fake.registerRun({ id, event: 'push', status: 'completed', conclusion: 'success', head_branch: 'main', head_sha: String(id).repeat(8).slice(0, 40), workflow: 'baseline-main.yml', ...over });
    run(1, {});
    run(2, { event: 'pull_request', head_branch: 'feature', workflow: 'pr-gate.yml' });
    run(3, { conclusion: 'failure' });
    run(4, { event: 'schedule', workflow: 'nightly.yml' });
    run(5, { status: 'in_progress', conclusion: null });
    for (const id of [1, 2, 3, 4]) fake.addArtifact(id, id === 4 ? 'other' : 'profile-gate-k', { 'report.json': '{}' });
    fake.artifacts.find((a) => a.runBackendId === 'run-3')!.expired = true;
  });

  it('filters runs by workflow, event, branch and status (a status or a conclusion), newest first', async () => {
    const ids = async (query: Parameters<GitHubClient['workflowRuns']>[1]) => (await client().workflowRuns(repo, query)).map((r) => r.id);
    expect(await ids({ limit: 50 })).toEqual([5, 4, 3, 2, 1]);
    expect(await ids({ workflow: 'baseline-main.yml', limit: 50 })).toEqual([5, 3, 1]);
    expect(await ids({ workflow: 'pr-gate.yml', event: 'push', limit: 50 })).toEqual([]);
    expect(await ids({ branch: 'main', status: 'success', limit: 50 })).toEqual([4, 1]);
    expect(await ids({ status: 'completed', event: 'push', limit: 50 })).toEqual([3, 1]);
    expect(await ids({ status: 'in_progress', limit: 50 })).toEqual([5]);
  });

  it('lists artifacts by exact name across runs, newest first, expired ones flagged, with their run', async () => {
    const listed = await client().artifactsNamed(repo, 'profile-gate-k');
    expect(listed.map((a) => [a.workflow_run!.id, a.expired, a.workflow_run!.head_branch])).toEqual([
      [3, true, 'main'],
      [2, false, 'feature'],
      [1, false, 'main'],
    ]);
    expect(await client().artifactsNamed(repo, 'profile-gate')).toEqual([]);
  });

  it('pages with per_page and Link headers', async () => {
    for (let i = 0; i < 130; i++) fake.addArtifact(1, `bulk-${i}`, { 'a.txt': 'x' });
    const all = await client().runArtifacts(repo, 1);
    expect(all).toHaveLength(131);
    expect(fake.hits('artifacts.list').map((h) => new URL(h.url, fake.baseUrl).searchParams.get('page') ?? '1')).toEqual(['1', '2']);
  });
});

describe('what an acceptance reads', () => {
  const repo = 'octo/gpu-app';

  it('lists an issue\'s label events oldest first, across pages, with who did each', async () => {
    for (let i = 0; i < 105; i++) fake.label(7, i % 2 ? 'perf-regression-accepted' : 'other', i % 2 ? 'maint' : 'bot[bot]', i % 4 === 3 ? 'unlabeled' : 'labeled');
    fake.label(8, 'perf-regression-accepted', 'someone');
    const events = await client().issueEvents(repo, 7);
    expect(events).toHaveLength(105);
    // Events 101 to 104, in the order they happened: the accept label added, another, the accept label removed, another.
    expect(events.slice(-4).map((e) => `${e.event} ${e.label?.name} by ${e.actor?.login}`)).toEqual([
      'labeled perf-regression-accepted by maint',
      'labeled other by bot[bot]',
      'unlabeled perf-regression-accepted by maint',
      'labeled other by bot[bot]',
    ]);
    expect(fake.hits('events.list').map((h) => new URL(h.url, fake.baseUrl).searchParams.get('page') ?? '1')).toEqual(['1', '2']);
  });

  it('scans an issue\'s comments newest first to the end, and stops early when asked', async () => {
    for (let i = 0; i < 250; i++) fake.addComment(7, `c${i}`, 'someone');
    const bodies: string[] = [];
    const scan = await client().scanComments(repo, 7, (c) => void bodies.push(c.body ?? ''));
    expect(scan).toEqual({ read: 250 });
    expect(bodies).toEqual(Array.from({ length: 250 }, (_, i) => `c${249 - i}`));
    // Stopping at the tenth newest asks the first page (for the Link header) and the last only.
    const before = fake.hits('comments.list').length;
    const stopped = await client().scanComments(repo, 7, (c) => c.body === 'c240');
    expect(stopped).toEqual({ read: 10 });
    expect(fake.hits('comments.list').slice(before).map((h) => new URL(h.url, fake.baseUrl).searchParams.get('page') ?? '1')).toEqual(['1', '3']);
  });

  it('says when its page bound cut a scan, and what was read', async () => {
    for (let i = 0; i < 350; i++) fake.addComment(7, `c${i}`, 'someone');
    const bounded = new GitHubClient({ token: 't', apiUrl: fake.baseUrl, maxScanPages: 3 });
    const bodies: string[] = [];
    const scan = await bounded.scanComments(repo, 7, (c) => void bodies.push(c.body ?? ''));
    // Page 1 (for the Link header), then the last two: 4 and 3; page 2 is not read.
    expect(scan).toEqual({ read: 150, cut: '150 read, newest first, in 3 pages: the scan stops at 3 pages of GET /repos/{owner}/{repo}/issues/{issue_number}/comments, and older ones were not read' });
    expect(bodies[0]).toBe('c349');
    expect(bodies.at(-1)).toBe('c200');
    // The sticky comment, not among them, says so too.
    fake.addComment(7, `${marker}\nold`, 'github-actions[bot]', '2020-01-01T00:00:00.000Z');
    fake.comments.unshift(fake.comments.pop()!);
    const result = await upsertStickyComment(bounded, target, `${marker}\nnew`, { marker, author: 'github-actions[bot]', create: false });
    expect(result.action).toBe('none');
    expect(result.cut).toMatch(/^our comment was not among the comments read \(151 read, newest first/);
  });

  it('asks a user\'s permission by login, encoded, and reads maintain as write and triage as read', async () => {
    fake.roles.set('maint', 'maintain').set('helper', 'triage').set('app[bot]', 'write');
    expect((await client().permission(repo, 'maint')).permission).toBe('write');
    expect((await client().permission(repo, 'helper')).permission).toBe('read');
    expect((await client().permission(repo, 'app[bot]')).permission).toBe('write');
    expect(fake.hits('collaborators.permission').map((h) => h.url)).toEqual([
      '/repos/octo/gpu-app/collaborators/maint/permission',
      '/repos/octo/gpu-app/collaborators/helper/permission',
      '/repos/octo/gpu-app/collaborators/app%5Bbot%5D/permission',
    ]);
  });

  it('filters runs by head commit', async () => {
    fake.registerRun({ id: 11, event: 'pull_request', status: 'completed', conclusion: 'failure', head_branch: 'feature', head_sha: 'a'.repeat(40) });
    fake.registerRun({ id: 12, event: 'pull_request', status: 'completed', conclusion: 'success', head_branch: 'feature', head_sha: 'b'.repeat(40) });
    expect((await client().workflowRuns(repo, { headSha: 'a'.repeat(40), limit: 10 })).map((r) => r.id)).toEqual([11]);
  });
});

describe('the next page stays on the API', () => {
  function listen(server: Server, port: number): Promise<boolean> {
    return new Promise((resolve) => {
      server.once('error', () => resolve(false));
      server.listen(port, '127.0.0.1', () => resolve(true));
    });
  }

  it('a Link to another port whose digits start with the API\'s gets no request and no token', async () => {
    // Two servers on ports like 3973 and 39734: the URL text of the second starts with the first's.
    const seen: Array<string | undefined> = [];
    let base = 0;
    const api = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', link: `<http://127.0.0.1:${base}${base === 0 ? '' : '0'}/repos/octo/gpu-app/issues/7/comments?page=2>; rel="next"` });
      res.end(JSON.stringify([{ id: 1, body: 'first page', html_url: 'x' }]));
    });
    const other = createServer((req, res) => {
      seen.push(req.headers.authorization);
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('[]');
    });
    try {
      for (let tries = 0; tries < 50 && !base; tries += 1) {
        const port = 2000 + Math.floor(Math.random() * 4500);
        if (!(await listen(api, port))) continue;
        if (await listen(other, port * 10)) base = port;
        else await new Promise<void>((resolve) => api.close(() => resolve()));
      }
      expect(base).toBeGreaterThan(0);
      const comments = await new GitHubClient({ token: 'secret-token', apiUrl: `http://127.0.0.1:${base}`, retry: { attempts: 1, baseMs: 1, sleep: async () => undefined } }).comments('octo/gpu-app', 7);
      expect(comments.map((c) => c.id)).toEqual([1]);
      expect(seen).toEqual([]);
    } finally {
      await Promise.all([api, other].map((server) => new Promise<void>((resolve) => (server.listening ? server.close(() => resolve()) : resolve()))));
    }
  });

  it('compares origins, credentials and the base path, not text', () => {
    expect(onApi('https://api.github.com/repos/o/r/issues?page=2', 'https://api.github.com')).toBe(true);
    expect(onApi('https://api.github.com.evil.example/repos', 'https://api.github.com')).toBe(false);
    expect(onApi('https://api.github.com@evil.example/repos', 'https://api.github.com')).toBe(false);
    expect(onApi('http://api.github.com/repos', 'https://api.github.com')).toBe(false);
    expect(onApi('https://ghe.example/api/v3/repos/o/r?page=2', 'https://ghe.example/api/v3')).toBe(true);
    expect(onApi('https://ghe.example/api/v3x/repos', 'https://ghe.example/api/v3')).toBe(false);
    expect(onApi('https://ghe.example/other', 'https://ghe.example/api/v3/')).toBe(false);
    expect(onApi('not a url', 'https://api.github.com')).toBe(false);
  });
});
