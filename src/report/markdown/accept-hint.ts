/** How a reviewer accepts an intended regression of this head: the line the comment and the summary print. */
import type { MergedReports } from '../merge-reports.js';
import { safeCode } from './text.js';

/** The workflow's ways to accept ('' for one turned off) and the head commit the report is for. */
export interface AcceptWays {
  label: string;
  command: string;
  headSha?: string;
}

/**
 * Under a failing comment and summary: how someone with write access accepts the regression of this head, when
 * the workflow lets them. The command names the head's short SHA, as a line to copy.
 */
export function acceptHint(merged: MergedReports, accept: AcceptWays | undefined): string {
  if (merged.verdict !== 'fail' || !accept || (!accept.label && !accept.command)) return '';
  const sha = accept.headSha && /^[0-9a-f]{7,40}$/i.test(accept.headSha) ? accept.headSha.slice(0, 7).toLowerCase() : undefined;
  const line = accept.command ? (sha ? `${accept.command} ${sha}` : accept.command) : '';
  const comment = sha
    ? `comments ${safeCode(line, 80)} (then, optionally, the rows it accepts and a reason)`
    : `comments ${safeCode(accept.command, 60)} with the head commit's short SHA (then, optionally, the rows it accepts and a reason)`;
  const ways = [accept.label ? `adds the label ${safeCode(accept.label, 60)}` : '', accept.command ? comment : ''].filter(Boolean).join(' or ');
  // A block GitHub gives a copy button; only for a command that cannot close it.
  const copy = sha && /^[^`~\r\n<>&]+$/.test(line) ? `\n\n\`\`\`\n${line} reason…\n\`\`\`` : '';
  return `<sub>Slower on purpose? Someone with write access ${ways}, then re-runs the job: the verdict becomes accepted for this commit only (a new push needs it again) and the rows stay visible.</sub>${copy}`;
}

