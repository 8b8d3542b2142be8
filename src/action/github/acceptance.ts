/**
 * The acceptances of a pull request, as GitHub records them: the accept label (on the PR now, and
 * who added it last, from the issue's events) and the accept command in comments. Only a person
 * with write access accepts (the collaborator permission API: admin, maintain and write roles; the
 * PR's author too, when they have it).
 *
 * An acceptance is bound to one commit, the head the report is for:
 * - a comment names it (`/profile-gate accept 3f2a9c1 …`, the short SHA the failing comment shows);
 *   a command for another commit, or for none, is refused;
 * - a label, and a comment too, count only when given after the head was last pushed. A SHA pushed,
 *   replaced and pushed again is a new push: what was given in between, for another commit, does not
 *   carry over.
 * When the head was last pushed is read from GitHub's clock, bound to SHAs: the workflow runs of the
 * PR's head branch, newest first; the newest unbroken stretch of runs of the head SHA began with
 * its push (every push starts runs of its SHA; a re-run keeps its creation time). A run of another
 * SHA after it ends the stretch. For the PR's current head, its last `head_ref_force_pushed` event is
 * a floor as well. Commit dates are not used: whoever made the commit set them.
 *
 * Comments and events are read newest first to the end; a scan its bound stopped is said. What was
 * read but refused comes back as one line per person (with a count), for the verdict and one
 * annotation each; what could not be read as another line, for the log: never silent. The rule that
 * applies the claims is src/compare/acceptance.ts.
 */
import { claimName, parseAcceptCommand, type AcceptanceClaim, type AcceptCommand } from '../../compare/acceptance.js';
import type { GitHubClient, IssueComment, IssueEvent, PullRequest, WorkflowRun } from '../../github/client.js';

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
  /** One line per person whose acceptances were read but refused (no write access, another commit, before the push), with a count. */
  refused: string[];
  /** One line for each source that could not be read, or was read only in part. */
  unread: string[];
  /** The head commit the acceptances were read for, when known. */
  headSha?: string;
}

const WRITE = new Set(['admin', 'write']);
/** Runs of the head branch read at most, newest first, to find when the head was last pushed. */
const PUSH_RUNS = 2000;

/** A commit as GitHub shows it short, and as the failing comment asks the command to name it. */
export function shortSha(sha: string): string {
  return sha.slice(0, 7);
}

function message(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).replace(/[\r\n]+/g, ' ').slice(0, 300);
}

function isBot(user: { login?: string; type?: string } | null | undefined): boolean {
  return user?.type === 'Bot' || Boolean(user?.login?.endsWith('[bot]'));
}

const time = (at: string | undefined): number => (at ? Date.parse(at) : NaN);

/** Refusals, one line per person: their newest refusal, and how many there were. */
class Refusals {
  private readonly byPerson = new Map<string, { line: string; count: number }>();
  add(login: string, line: string): void {
    const seen = this.byPerson.get(login);
    if (seen) seen.count += 1;
    else this.byPerson.set(login, { line, count: 1 });
  }
  lines(): string[] {
    return [...this.byPerson.entries()].map(([login, { line, count }]) => (count > 1 ? `${line} (${count} acceptances by @${login} were refused; the first is shown)` : line));
  }
}

/**
 * Where the newest unbroken stretch of `headSha`'s runs begins, in runs listed newest first:
 * its oldest run's creation, and whether a run of another SHA ended it.
 */
export function lastPush(runs: readonly WorkflowRun[], headSha: string, headRepo?: number): { pushedAt?: string; ended: boolean } {
  let pushedAt: string | undefined;
  for (const run of runs) {
    if (headRepo !== undefined && run.head_repository?.id !== undefined && run.head_repository.id !== headRepo) continue;
    if (run.head_sha === headSha) {
      if (typeof run.created_at === 'string' && !Number.isNaN(Date.parse(run.created_at))) pushedAt = run.created_at;
    } else if (pushedAt !== undefined) return { pushedAt, ended: true };
  }
  return { ...(pushedAt ? { pushedAt } : {}), ended: false };
}

/** When `headSha` was last pushed, by GitHub's clock: see lastPush, over the runs of the PR's head branch. */
async function headPushedAt(client: GitHubClient, repo: string, pull: PullRequest, headSha: string): Promise<string | undefined> {
  const headRepo = pull.head.repo?.id ?? undefined;
  const runs = await client.workflowRuns(repo, {
    ...(pull.head.ref ? { branch: pull.head.ref } : { headSha }),
    limit: PUSH_RUNS,
    until: (listed) => lastPush(listed, headSha, headRepo).ended,
  });
  return lastPush(runs, headSha, headRepo).pushedAt;
}

interface EventsRead {
  /** The newest event that added the label. */
  labeled?: IssueEvent;
  /** The newest force push of the PR's head. */
  forcePushed?: IssueEvent;
  cut?: string;
}

async function readEvents(client: GitHubClient, repo: string, query: AcceptanceQuery, wantLabel: boolean): Promise<EventsRead> {
  const name = query.label.toLowerCase();
  const found: EventsRead = {};
  const scan = await client.scanIssueEvents(repo, query.pullRequest, (e) => {
    if (wantLabel && !found.labeled && e.event === 'labeled' && e.label?.name?.toLowerCase() === name) found.labeled = e;
    if (!found.forcePushed && e.event === 'head_ref_force_pushed') found.forcePushed = e;
    return (!wantLabel || found.labeled !== undefined) && found.forcePushed !== undefined;
  });
  return scan.cut ? { ...found, cut: scan.cut } : found;
}

interface Command {
  comment: IssueComment & { user: { login: string } };
  command: AcceptCommand;
}

async function readCommands(client: GitHubClient, repo: string, query: AcceptanceQuery, unread: string[]): Promise<Command[]> {
  const commands: Command[] = [];
  const scan = await client.scanComments(repo, query.pullRequest, (c) => {
    if (isBot(c.user) || typeof c.user?.login !== 'string') return;
    const command = parseAcceptCommand(c.body ?? '', query.command);
    if (command) commands.push({ comment: c as Command['comment'], command });
  });
  if (scan.cut) unread.push(`the ${query.command} comments were read in part: ${scan.cut}`);
  return commands;
}

/** The label's and the comments' acceptances of the pull request's head, each by someone with write access. */
export async function readAcceptances(client: GitHubClient, query: AcceptanceQuery): Promise<PullRequestAcceptances> {
  const refusals = new Refusals();
  const unread: string[] = [];
  const repo = `${query.owner}/${query.repo}`;
  if (!query.label && !query.command) return { claims: [], refused: [], unread };
  let pull: PullRequest;
  try {
    pull = await client.pull(repo, query.pullRequest);
  } catch (error) {
    return { claims: [], refused: [], unread: [`acceptances not read: pull request #${query.pullRequest}: ${message(error)}`] };
  }
  const headSha = query.headSha ?? pull.head.sha;
  const head = shortSha(headSha);
  const labelOn = Boolean(query.label) && (pull.labels ?? []).some((l) => l.name?.toLowerCase() === query.label.toLowerCase());

  let commands: Command[] = [];
  if (query.command) {
    try {
      commands = await readCommands(client, repo, query, unread);
    } catch (error) {
      unread.push(`the ${query.command} comments were not read: ${message(error)}`);
    }
  }
  if (!labelOn && !commands.length) return { claims: [], refused: [], unread, headSha };

  // The event that added the label, and the last force push: one scan of the events, newest first.
  let events: EventsRead = {};
  try {
    events = await readEvents(client, repo, query, labelOn);
    if (events.cut && labelOn && !events.labeled) unread.push(`the label ${query.label} is on the pull request, but the event that added it was not read: ${events.cut}`);
  } catch (error) {
    if (labelOn) unread.push(`the label ${query.label} was not read: ${message(error)}`);
    else unread.push(`the pull request's force pushes were not read: ${message(error)}`);
  }
  if (!events.labeled && !commands.length) return { claims: [], refused: [], unread, headSha };

  let pushedAt: string | undefined;
  try {
    pushedAt = await headPushedAt(client, repo, pull, headSha);
  } catch (error) {
    unread.push(`acceptances not applied: the workflow runs of the head ${head}, which tell when it was pushed, were not read (${message(error)}; reading runs needs actions: read)`);
    return { claims: [], refused: [], unread, headSha };
  }
  // A force push of the PR's current head is a push too, on GitHub's clock.
  const forced = events.forcePushed?.created_at;
  if (pull.head.sha === headSha && forced && !(time(pushedAt) >= time(forced))) pushedAt = forced;

  const candidates: AcceptanceClaim[] = [];
  const afterPush = (login: string, what: string, at: string | undefined, again: string): boolean => {
    if (!pushedAt) {
      refusals.add(login, `${what} is not applied: no workflow run of the head ${head} was found to tell when it was pushed`);
      return false;
    }
    if (!(time(at) >= time(pushedAt))) {
      refusals.add(login, `${what} of ${at ?? 'an unknown time'} is not applied: it was given before the head ${head} was last pushed (${pushedAt}); an acceptance accepts the head it was given on, so ${again}`);
      return false;
    }
    return true;
  };

  const added = events.labeled;
  if (labelOn && added?.actor?.login) {
    const login = added.actor.login;
    if (afterPush(login, `the label ${query.label} added by @${login}`, added.created_at, 'remove the label and add it again')) {
      candidates.push({ by: login, via: 'label', at: added.created_at ?? '', url: `${query.serverUrl}/${query.owner}/${query.repo}/pull/${query.pullRequest}`, targets: [], headSha });
    }
  }

  const fromComments: AcceptanceClaim[] = [];
  for (const { comment, command } of commands) {
    const login = comment.user.login;
    const who = `the acceptance by @${login} (comment ${comment.html_url})`;
    if (!command.sha) {
      refusals.add(login, `${who} is not applied: it names no commit; to accept the head, comment ${query.command} ${head} (then, optionally, the rows and a reason)`);
      continue;
    }
    if (!headSha.toLowerCase().startsWith(command.sha)) {
      refusals.add(login, `${who} is not applied: it accepts ${command.sha}, not the head ${head} this report is for`);
      continue;
    }
    if (!afterPush(login, who, comment.created_at, 'comment again')) continue;
    fromComments.push({ by: login, via: 'comment', at: comment.created_at ?? '', url: comment.html_url, ...(command.reason ? { reason: command.reason } : {}), targets: command.targets, headSha });
  }
  // The newest comment speaks for its author's latest intent.
  candidates.push(...fromComments.sort((a, b) => time(b.at) - time(a.at)));

  const permissions = new Map<string, Promise<string>>();
  const claims: AcceptanceClaim[] = [];
  for (const claim of candidates) {
    if (!permissions.has(claim.by)) permissions.set(claim.by, client.permission(repo, claim.by).then((p) => p.permission));
    let permission: string;
    try {
      permission = await permissions.get(claim.by)!;
    } catch (error) {
      refusals.add(claim.by, `the acceptance by ${claimName(claim)} is not applied: their permission could not be read (${message(error)})`);
      continue;
    }
    if (WRITE.has(permission)) claims.push(claim);
    else refusals.add(claim.by, `the acceptance by ${claimName(claim)} is not applied: @${claim.by} has ${permission} access to the repository, and only write access accepts a regression`);
  }
  return { claims, refused: refusals.lines(), unread, headSha };
}
