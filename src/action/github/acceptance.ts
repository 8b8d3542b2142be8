/**
 * The acceptances of a pull request, as GitHub records them: the accept label (who added it last,
 * from the issue's events) and the accept command in comments. Only a person with write access
 * accepts (the collaborator permission API: admin, maintain and write roles; the PR's author too,
 * when they have it). A comment accepts the head commit it was posted on: it counts only when
 * posted after that commit's first workflow run was created (the push), so a push after it needs a
 * new comment. A label accepts until it is removed. What was read but refused comes back as one
 * line each, for the verdict; what could not be read (a token without the permission) as another,
 * for the log: never silent. The rule that applies them is src/compare/acceptance.ts.
 */
import { claimName, parseAcceptCommand, type AcceptanceClaim } from '../../compare/acceptance.js';
import type { GitHubClient, IssueComment } from '../../github/client.js';

export interface AcceptanceQuery {
  owner: string;
  repo: string;
  serverUrl: string;
  pullRequest: number;
  /** The head commit the report is for; read from the pull request when the event does not say. */
  headSha?: string;
  /** The label that accepts ('' for none) and the comment command ('' for none). */
  label: string;
  command: string;
}

export interface PullRequestAcceptances {
  /** Claims by people with write access, in the order they are tried: the label, then comments newest first. */
  claims: AcceptanceClaim[];
  /** One line for each acceptance read but refused (no write access, a comment older than the head). */
  refused: string[];
  /** One line for each source that could not be read (the label's events, the comments, the head's runs). */
  unread: string[];
}

const WRITE = new Set(['admin', 'write']);

function short(sha: string): string {
  return sha.slice(0, 12);
}

function message(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).replace(/[\r\n]+/g, ' ').slice(0, 300);
}

function isBot(user: { login?: string; type?: string } | null | undefined): boolean {
  return user?.type === 'Bot' || Boolean(user?.login?.endsWith('[bot]'));
}

/** When the head commit was pushed, as near as GitHub tells: its first workflow run's creation. */
async function headPushedAt(client: GitHubClient, repo: string, headSha: string): Promise<string | undefined> {
  const runs = await client.workflowRuns(repo, { headSha, limit: 500 });
  const times = runs.map((r) => r.created_at).filter((t): t is string => typeof t === 'string' && !Number.isNaN(Date.parse(t)));
  return times.sort((a, b) => Date.parse(a) - Date.parse(b))[0];
}

async function labelClaim(client: GitHubClient, repo: string, query: AcceptanceQuery, headSha: string): Promise<AcceptanceClaim | undefined> {
  const name = query.label.toLowerCase();
  // Label names are unique regardless of case; the last event on it says whether it is on now, and who put it there.
  const last = (await client.issueEvents(repo, query.pullRequest)).filter((e) => (e.event === 'labeled' || e.event === 'unlabeled') && e.label?.name?.toLowerCase() === name).at(-1);
  if (last?.event !== 'labeled' || !last.actor?.login) return undefined;
  return {
    by: last.actor.login,
    via: 'label',
    at: last.created_at ?? '',
    url: `${query.serverUrl}/${query.owner}/${query.repo}/pull/${query.pullRequest}`,
    targets: [],
    headSha,
  };
}

async function commentClaims(client: GitHubClient, repo: string, query: AcceptanceQuery, headSha: string, refused: string[], unread: string[]): Promise<AcceptanceClaim[]> {
  const commands = (await client.comments(repo, query.pullRequest))
    .filter((c): c is IssueComment & { user: { login: string } } => !isBot(c.user) && typeof c.user?.login === 'string')
    .map((c) => ({ comment: c, command: parseAcceptCommand(c.body ?? '', query.command) }))
    .filter((c) => c.command !== undefined);
  if (!commands.length) return [];
  let pushedAt: string | undefined;
  try {
    pushedAt = await headPushedAt(client, repo, headSha);
  } catch (error) {
    unread.push(`the ${query.command} comments were not applied: the workflow runs of the head ${short(headSha)}, which tell when it was pushed, were not read (${message(error)}; reading runs needs actions: read)`);
    return [];
  }
  const claims: AcceptanceClaim[] = [];
  for (const { comment, command } of commands) {
    const at = comment.created_at ?? '';
    const who = `@${comment.user.login} (comment ${comment.html_url})`;
    if (!pushedAt) {
      refused.push(`the acceptance by ${who} is not applied: no workflow run of the head ${short(headSha)} was found to tell when it was pushed`);
      continue;
    }
    if (!(Date.parse(at) >= Date.parse(pushedAt))) {
      refused.push(`the acceptance by ${who} of ${at} is not applied: it was posted before the head ${short(headSha)} was pushed (${pushedAt}); a comment accepts the head it was posted on, so comment again`);
      continue;
    }
    claims.push({ by: comment.user.login, via: 'comment', at, url: comment.html_url, ...(command!.reason ? { reason: command!.reason } : {}), targets: command!.targets, headSha });
  }
  // The newest comment speaks for its author's latest intent.
  return claims.sort((a, b) => Date.parse(b.at) - Date.parse(a.at));
}

/** The label's and the comments' acceptances of the pull request, each by someone with write access. */
export async function readAcceptances(client: GitHubClient, query: AcceptanceQuery): Promise<PullRequestAcceptances> {
  const refused: string[] = [];
  const unread: string[] = [];
  const repo = `${query.owner}/${query.repo}`;
  if (!query.label && !query.command) return { claims: [], refused, unread };
  let headSha = query.headSha;
  try {
    headSha ??= (await client.pull(repo, query.pullRequest)).head.sha;
  } catch (error) {
    return { claims: [], refused, unread: [`acceptances not read: pull request #${query.pullRequest}: ${message(error)}`] };
  }
  const candidates: AcceptanceClaim[] = [];
  if (query.label) {
    try {
      const claim = await labelClaim(client, repo, query, headSha);
      if (claim) candidates.push(claim);
    } catch (error) {
      unread.push(`the label ${query.label} was not read: ${message(error)}`);
    }
  }
  if (query.command) {
    try {
      candidates.push(...(await commentClaims(client, repo, query, headSha, refused, unread)));
    } catch (error) {
      unread.push(`the ${query.command} comments were not read: ${message(error)}`);
    }
  }
  const permissions = new Map<string, Promise<string>>();
  const claims: AcceptanceClaim[] = [];
  for (const claim of candidates) {
    if (!permissions.has(claim.by)) permissions.set(claim.by, client.permission(repo, claim.by).then((p) => p.permission));
    let permission: string;
    try {
      permission = await permissions.get(claim.by)!;
    } catch (error) {
      refused.push(`the acceptance by ${claimName(claim)} is not applied: their permission could not be read (${message(error)})`);
      continue;
    }
    if (WRITE.has(permission)) claims.push(claim);
    else refused.push(`the acceptance by ${claimName(claim)} is not applied: @${claim.by} has ${permission} access to the repository, and only write access accepts a regression`);
  }
  return { claims, refused, unread };
}
