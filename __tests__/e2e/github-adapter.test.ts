/**
 * The GitHub adapter (REST client with retries, sticky comment) in process against the loopback fake:
 * real @actions/github and real HTTP; only the sleep between retries is injected.
 */
import { createGitHubClient, explain, GitHubApiError, serverWaitMs } from '../../src/action/github/client.js';
import { upsertStickyComment } from '../../src/action/github/sticky-comment.js';
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

function client(attempts = 4) {
  return createGitHubClient('test-token', {
    baseUrl: fake.baseUrl,
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
    expect(fake.hits('comments.list')[0]!.authorization).toBe('token test-token');
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
    expect((error as Error).message).toMatch(/^GitHub kept failing \(500: .*\) on GET \/repos\/octo\/gpu-app\/issues\/7\/comments after 3 attempts$/);
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
    expect(serverWaitMs({ response: { headers: { 'retry-after': 'Mon, 30 Nov 2026 00:00:05 GMT' } } }, now)).toBe(5000);
    expect(serverWaitMs({ response: { headers: { 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': String(now / 1000 + 9) } } }, now)).toBe(9000);
    expect(serverWaitMs({ response: { headers: {} } }, now)).toBeUndefined();
    expect(explain(418, 'GET /x', 'teapot', 1)).toBe('GitHub answered 418 (teapot) on GET /x');
  });
});

describe('sticky comment', () => {
  it('finds its own comment across pages and updates it in place', async () => {
    for (let i = 0; i < 230; i++) fake.addComment(7, `chatter ${i}`, 'someone');
    // Someone else planted our marker: never ours to edit.
    const planted = fake.addComment(7, `${marker}\nplanted`, 'mallory');
    const ours = fake.addComment(7, `${marker}\nold body`, 'github-actions[bot]');
    const other = fake.addComment(7, `<!-- profile-gate:other-leg -->\nquoting ${marker} in a code block`, 'github-actions[bot]');
    const result = await upsertStickyComment(client(), target, `${marker}\nnew body`, { marker, author: 'github-actions[bot]', create: true });
    expect(result).toEqual({ action: 'updated', id: ours.id, url: ours.html_url });
    expect(ours.body).toBe(`${marker}\nnew body`);
    expect(planted.body).toBe(`${marker}\nplanted`);
    expect(other.body).toBe(`<!-- profile-gate:other-leg -->\nquoting ${marker} in a code block`);
    // 233 comments at 100 a page: three list requests, following the Link header.
    expect(fake.hits('comments.list').map((r) => new URL(r.url, fake.baseUrl).searchParams.get('page') ?? '1')).toEqual(['1', '2', '3']);
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

  it('refuses a body without its marker', async () => {
    await expect(upsertStickyComment(client(), target, 'no marker', { marker, author: 'a', create: true })).rejects.toThrow(/does not open with its marker/);
  });
});
