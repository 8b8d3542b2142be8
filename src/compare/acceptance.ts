/**
 * Accepting an intended regression: a change that trades speed for correctness lands when a person
 * with write access accepts its failing rows on the pull request (a label, or the comment command).
 * This module is the rule, as data in and data out; who may accept, and which label and comments
 * count, is read at the action's GitHub edge (src/action/github/acceptance.ts).
 *
 * - Only `fail` can become `accepted`. `invalid` never is (nothing was compared, so there is nothing
 *   to accept); pass, warn and insufficient-data have nothing failing.
 * - One acceptance must cover every failing row: the causes the report recorded for its fail
 *   (`decision.causes`, judged under the policy the report records): comparison rows with status
 *   fail, or without a baseline the failing findings (`finding:<id>`). Nothing is judged again here. A bare command (or the label) covers them all; a
 *   command that names rows covers those it names, and one that leaves a failing row out accepts
 *   nothing, with a line that says which rows are left.
 * - The rows stay as they are (status fail): the report keeps the regression visible and says who
 *   accepted it in `acceptance`.
 */
import type { Acceptance, AcceptanceNote, ComparisonRow, Report } from '../model/report.js';

/** The PR label that accepts, unless the workflow names another (input accept-label). */
export const DEFAULT_ACCEPT_LABEL = 'perf-regression-accepted';
/** The comment command that accepts, unless the workflow names another (input accept-command). */
export const DEFAULT_ACCEPT_COMMAND = '/profile-gate accept';

/** What a command names beside rows: every failing row. */
const ALL = 'all';
const ROW_KINDS: readonly string[] = ['metric', 'family-share', 'kernel-share', 'kernel-time', 'finding'] satisfies readonly ComparisonRow['kind'][];

/** An acceptance as read from the pull request, before it is checked against the report's failing rows. */
export interface AcceptanceClaim {
  by: string;
  via: Acceptance['via'];
  at: string;
  url?: string;
  reason?: string;
  /** What it names: empty for every failing row. */
  targets: readonly string[];
  headSha?: string;
}

export interface AcceptCommand {
  /** The commit it accepts: the hex word right after the command (the head's short SHA, 7 to 40 digits). */
  sha?: string;
  targets: string[];
  reason?: string;
}

/** A commit as the command names it: GitHub's short SHA (7 hex digits) up to the full 40. */
const SHA_WORD = /^[0-9a-f]{7,40}$/i;

/**
 * The lines of a comment a reader sees as text: fenced code blocks (``` and ~~~), indented code
 * (4 spaces or a tab) and HTML comments become empty lines, so a command shown as an example
 * is never read as one.
 */
export function proseLines(body: string): string[] {
  const lines = body.replace(/<!--[\s\S]*?(?:-->|$)/g, (comment) => comment.replace(/[^\r\n]/g, '')).split(/\r\n?|\n/);
  let fence: { char: string; length: number } | undefined;
  return lines.map((line) => {
    const open = /^ {0,3}(`{3,}|~{3,})/.exec(line);
    if (fence) {
      if (open && open[1]![0] === fence.char && open[1]!.length >= fence.length && line.trim() === open[1]) fence = undefined;
      return '';
    }
    if (open && !(open[1]![0] === '`' && line.slice(open[0].length).includes('`'))) {
      fence = { char: open[1]![0]!, length: open[1]!.length };
      return '';
    }
    return /^(?: {4}|\t)/.test(line) ? '' : line;
  });
}

/**
 * A word that names rows rather than starting the reason: `all`, a row kind (`kernel-share`), or a
 * word shaped like a row's metric or unit (`decode_tok_s`, `family:copy`, `tok/s`).
 */
function namesRows(word: string): boolean {
  return word === ALL || ROW_KINDS.includes(word) || /[:_/]/.test(word);
}

/**
 * The command in a comment: a line that starts with it, then the commit it accepts (the head's
 * short SHA), the rows it names, then the reason (everything from the first word that names no
 * row, or after `--`). The first such line counts; a quoted line (`> /profile-gate accept`), one in
 * a code span, a code block or an HTML comment does not start with it.
 */
export function parseAcceptCommand(body: string, command = DEFAULT_ACCEPT_COMMAND): AcceptCommand | undefined {
  if (!command) return undefined;
  for (const raw of proseLines(body)) {
    const line = raw.trim();
    if (!line.startsWith(command)) continue;
    const rest = line.slice(command.length);
    if (rest && !/^\s/.test(rest)) continue;
    const words = rest.trim().split(/\s+/).filter(Boolean);
    const sha = words[0] !== undefined && SHA_WORD.test(words[0]) ? words.shift()!.toLowerCase() : undefined;
    const targets: string[] = [];
    let i = 0;
    for (; i < words.length && words[i] !== '--' && namesRows(words[i]!); i++) targets.push(words[i]!);
    if (words[i] === '--') i++;
    const reason = words.slice(i).join(' ').slice(0, 300);
    return { ...(sha ? { sha } : {}), targets: targets.filter((t) => t !== ALL), ...(reason ? { reason } : {}) };
  }
  return undefined;
}

/** A failing row as acceptance matches it. */
export interface FailingRow {
  metric: string;
  kind: ComparisonRow['kind'];
  unit: string;
}

/**
 * What fails the report, as it recorded its decision: the causes with status fail, each as the row
 * it names (a finding without a baseline as `finding:<id>`).
 */
export function failingRows(report: Pick<Report, 'comparison' | 'decision'>): FailingRow[] {
  const units = new Map((report.comparison?.rows ?? []).map((r) => [r.metric, r.unit]));
  const rows: FailingRow[] = [];
  for (const cause of report.decision.causes) {
    if (cause.kind === 'row' && cause.status === 'fail') rows.push({ metric: cause.row, kind: cause.rowKind, unit: units.get(cause.row) ?? '' });
    else if (cause.kind === 'finding' && cause.status === 'fail') rows.push({ metric: `finding:${cause.id}`, kind: 'finding', unit: 'hits' });
  }
  return rows;
}

function matches(target: string, row: FailingRow): boolean {
  // `family:copy` names the family's time-per-step row (`kernel-time:family:copy`) as well as its share row.
  const timeOf = row.kind === 'kernel-time' && row.metric === `kernel-time:${target}`;
  return target === row.metric || target === row.kind || target === row.unit || target === `${row.kind}:${row.metric}` || timeOf;
}

/** Which failing rows a claim covers, which it leaves out, and which of its names match no failing row. */
export function coverage(claim: Pick<AcceptanceClaim, 'targets'>, failing: readonly FailingRow[]): { covers: string[]; left: string[]; unknown: string[] } {
  if (claim.targets.length === 0) return { covers: failing.map((r) => r.metric), left: [], unknown: [] };
  const covers = failing.filter((row) => claim.targets.some((t) => matches(t, row))).map((r) => r.metric);
  const left = failing.map((r) => r.metric).filter((m) => !covers.includes(m));
  const unknown = claim.targets.filter((t) => !failing.some((row) => matches(t, row)));
  return { covers, left, unknown };
}

/** How a claim is named in a line: `@login (label)`, `@login (comment)`. */
export function claimName(claim: Pick<AcceptanceClaim, 'by' | 'via'>): string {
  return `@${claim.by} (${claim.via})`;
}

export interface AcceptanceInput {
  /** Valid claims, in the order they are tried (the label first, then comments newest first). */
  claims: readonly AcceptanceClaim[];
  /** Lines on acceptances that were read but refused (no write access, a comment before the head), as the reader wrote them. */
  refused?: readonly string[];
}

/** The report with notes on acceptances that did not apply (renderers write their lines after the acceptance's). */
function withNotes(report: Report, notes: readonly AcceptanceNote[]): Report {
  if (!notes.length) return report;
  return { ...report, acceptanceNotes: [...notes, ...(report.acceptanceNotes ?? [])] };
}

/**
 * The report with the acceptance applied: `accepted` with who accepted what when one claim covers
 * every failing row; otherwise the verdict as it was, with a line for each claim that did not apply
 * and each refused one (a refusal is never silent).
 */
export function applyAcceptance(report: Report, input: AcceptanceInput): Report {
  const refused = (input.refused ?? []).map((text): AcceptanceNote => ({ kind: 'refused', text }));
  if (!input.claims.length && !refused.length) return report;
  if (report.verdict === 'invalid') {
    return withNotes(report, [...input.claims.map((c): AcceptanceNote => ({ kind: 'invalid', by: c.by, via: c.via })), ...refused]);
  }
  if (report.verdict !== 'fail') return report;
  const failing = failingRows(report);
  if (!failing.length) {
    // A fail whose record names no failing row (edited apart from its rows): nothing to name, so nothing is accepted.
    return withNotes(report, [...input.claims.map((c): AcceptanceNote => ({ kind: 'no-failing-row', by: c.by, via: c.via })), ...refused]);
  }
  const notes: AcceptanceNote[] = [];
  for (const claim of input.claims) {
    const { covers, left, unknown } = coverage(claim, failing);
    if (left.length === 0) {
      const acceptance: Acceptance = {
        by: claim.by,
        via: claim.via,
        at: claim.at,
        ...(claim.url ? { url: claim.url } : {}),
        ...(claim.reason ? { reason: claim.reason } : {}),
        covers,
        ...(claim.headSha ? { headSha: claim.headSha } : {}),
      };
      return { ...withNotes(report, [...notes, ...refused]), verdict: 'accepted', acceptance };
    }
    notes.push({ kind: 'partial', by: claim.by, via: claim.via, covers, left, unknown });
  }
  return withNotes(report, [...notes, ...refused]);
}
