/**
 * The `run` block of a report made by the CLI: what was run, from which commit and branch, and when.
 * The flags (rows of options/table.ts, which read GITHUB_SHA and GITHUB_REF_NAME when absent) come
 * first, then git in the working directory; GitHub Actions' environment gives the repository and
 * the run (GITHUB_REPOSITORY, GITHUB_RUN_ID); the time defaults to now. The dashboard groups by
 * workload and labels its points with the commit and the time.
 */
import { execFileSync } from 'node:child_process';
import type { Report } from '../model/report.js';
import type { OptionValues } from '../options/table.js';

/** The run metadata flags as read (their environment variables applied). */
export type RunMetadataFlags = Partial<Pick<OptionValues, 'workload' | 'commit' | 'branch' | 'runAt'>>;

export type Git = (args: readonly string[]) => string | undefined;

/** git in the current directory; undefined when git or the repository is missing. */
export const systemGit: Git = (args) => {
  try {
    return execFileSync('git', [...args], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'], timeout: 5000 }).trim() || undefined;
  } catch {
    return undefined;
  }
};

export function resolveRunMetadata(flags: RunMetadataFlags, env: NodeJS.ProcessEnv, git: Git, now: () => Date = () => new Date()): Report['run'] {
  const commit = flags.commit || git(['rev-parse', 'HEAD']);
  const head = flags.branch ? undefined : git(['rev-parse', '--abbrev-ref', 'HEAD']);
  // A detached HEAD has no branch to name.
  const branch = flags.branch || (head && head !== 'HEAD' ? head : undefined);
  const repository = env['GITHUB_REPOSITORY'];
  const runId = env['GITHUB_RUN_ID'];
  const server = (env['GITHUB_SERVER_URL'] || 'https://github.com').replace(/\/+$/, '');
  return {
    ...(flags.workload ? { workload: flags.workload } : {}),
    ...(commit ? { commit } : {}),
    ...(branch ? { ref: branch } : {}),
    ...(repository ? { repository } : {}),
    ...(runId ? { runId } : {}),
    ...(repository && runId ? { runUrl: `${server}/${repository}/actions/runs/${runId}` } : {}),
    timestamp: flags.runAt ?? now().toISOString(),
  };
}
