/**
 * One comment per PR and key, updated in place: found by its hidden marker AND by its author, so a
 * comment that anyone else wrote (marker copied or quoted) is never taken over. The marker must open
 * the body: a marker quoted inside a comment (e.g. in a command from a profile) does not count.
 */
import type { GitHubClient } from './client.js';

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
  const comments = await client.comments(repo, target.issueNumber);
  // The marker must be followed by the end of its line: one key's marker never prefixes another's.
  const existing = comments.find((c) => isOurs(c.user?.login, options.author) && firstLine(c.body ?? '') === options.marker);
  if (existing) {
    if (existing.body === body) return { action: 'unchanged', id: existing.id, url: existing.html_url };
    const data = await client.updateComment(repo, existing.id, body);
    return { action: 'updated', id: data.id, url: data.html_url };
  }
  if (!options.create) return { action: 'none' };
  const data = await client.createComment(repo, target.issueNumber, body);
  return { action: 'created', id: data.id, url: data.html_url };
}

function firstLine(text: string): string {
  return text.trimStart().split(/\r?\n/, 1)[0]!.trim();
}
