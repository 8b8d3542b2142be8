/**
 * One comment per PR and key, updated in place: found by its hidden marker AND by its author, so a
 * comment that anyone else wrote (marker copied or quoted) is never taken over. The marker must open
 * the body: a marker quoted inside a comment (e.g. in a command from a profile) does not count.
 * The comments are scanned newest first to the end, so ours is found however long the thread; a
 * scan cut by its bound is said in the result.
 */
import type { GitHubClient, IssueComment } from './client.js';

export interface CommentTarget {
  owner: string;
  repo: string;
  issueNumber: number;
}

export interface StickyOptions {
  marker: string;
  /** Login of the account we post as, e.g. github-actions[bot]; `name` also matches `name[bot]`. */
  author: string;
  /** False: update an existing comment, never create one. */
  create: boolean;
}

export interface StickyResult {
  action: 'created' | 'updated' | 'unchanged' | 'none';
  id?: number;
  url?: string;
  /** Set when the scan for our comment stopped at its bound before the oldest comment. */
  cut?: string;
}

function isOurs(login: string | undefined, author: string): boolean {
  if (!login) return false;
  const a = author.toLowerCase();
  const l = login.toLowerCase();
  return l === a || l === `${a}[bot]`;
}

export async function upsertStickyComment(client: GitHubClient, target: CommentTarget, body: string, options: StickyOptions): Promise<StickyResult> {
  if (!body.startsWith(options.marker)) throw new Error('internal error: the comment body does not open with its marker');
  const repo = `${target.owner}/${target.repo}`;
  let existing: IssueComment | undefined;
  // The marker must be followed by the end of its line: one key's marker never prefixes another's.
  const scan = await client.scanComments(repo, target.issueNumber, (c) => {
    if (isOurs(c.user?.login, options.author) && firstLine(c.body ?? '') === options.marker) existing = c;
    return existing !== undefined;
  });
  const cut = !existing && scan.cut ? { cut: `our comment was not among the comments read (${scan.cut})` } : {};
  if (existing) {
    if (existing.body === body) return { action: 'unchanged', id: existing.id, url: existing.html_url };
    const data = await client.updateComment(repo, existing.id, body);
    return { action: 'updated', id: data.id, url: data.html_url };
  }
  if (!options.create) return { action: 'none', ...cut };
  const data = await client.createComment(repo, target.issueNumber, body);
  return { action: 'created', id: data.id, url: data.html_url, ...cut };
}

function firstLine(text: string): string {
  return text.trimStart().split(/\r?\n/, 1)[0]!.trim();
}
