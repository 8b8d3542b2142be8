/**
 * The `run` block of a report made by the CLI: what was run, from which commit and branch, and when.
 * Flags win; otherwise GitHub Actions' environment (GITHUB_SHA, GITHUB_REF_NAME, GITHUB_REPOSITORY,
 * GITHUB_RUN_ID), then git in the working directory; the time defaults to now. The dashboard groups
 * by workload and labels its points with the commit and the time.
 */
import { execFileSync } from 'node:child_process';
import { UsageError } from '../errors.js';
import type { Report } from '../model/report.js';

export interface RunMetadataFlags {
  workload?: string | undefined;
  commit?: string | undefined;
  branch?: string | undefined;
  'run-at'?: string | undefined;
}

/** The flags as parseArgs declares them. */
export const RUN_METADATA_OPTIONS = {
  workload: { type: 'string' },
  commit: { type: 'string' },
  branch: { type: 'string' },
  'run-at': { type: 'string' },
} as const;

export const RUN_METADATA_HELP = `run metadata (analyze; the dashboard groups and labels reports by them):
  --workload NAME      a stable name of the workload, e.g. 'llama-3.1-8b · H200 · bs1'
  --commit SHA         default $GITHUB_SHA, else git rev-parse HEAD
  --branch NAME        default $GITHUB_REF_NAME, else the checked-out git branch
  --run-at TIME        when the captures were made (ISO 8601; default now)`;

export type Git = (args: readonly string[]) => string | undefined;

/** git in the current directory; undefined when git or the repository is missing. */
export const systemGit: Git = (args) => {
  try {
    return execFileSync('git', [...args], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'], timeout: 5000 }).trim() || undefined;
  } catch {
    return undefined;
  }
};

function parseRunAt(value: string): string {
  const time = new Date(value);
  if (!/^\d{4}-\d{2}-\d{2}/.test(value) || Number.isNaN(time.getTime())) throw new UsageError(`--run-at ${value}: expected an ISO 8601 time such as 2026-12-01T03:00:00Z`);
  return time.toISOString();
}

export function resolveRunMetadata(flags: RunMetadataFlags, env: NodeJS.ProcessEnv, git: Git, now: () => Date = () => new Date()): Report['run'] {
  const commit = flags.commit || env['GITHUB_SHA'] || git(['rev-parse', 'HEAD']);
  const head = flags.branch || env['GITHUB_REF_NAME'] ? undefined : git(['rev-parse', '--abbrev-ref', 'HEAD']);
  // A detached HEAD has no branch to name.
  const branch = flags.branch || env['GITHUB_REF_NAME'] || (head && head !== 'HEAD' ? head : undefined);
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
    timestamp: flags['run-at'] ? parseRunAt(flags['run-at']) : now().toISOString(),
  };
}
