/**
 * Every bound profile-gate puts on what it reads from GitHub, in one place (documented in
 * references/steps/limits.md). Report artifacts may come from a fork's workflow, read by the job
 * that holds the write token, so each bound is checked before the work it bounds, not after.
 * The environment may override them (tests shorten the timeouts; a site with huge reports raises a cap).
 */
import { UsageError } from '../errors.js';
import { DEFAULT_HTTP_LIMITS, type HttpLimits, type RetryPolicy } from './http.js';

const MiB = 1024 * 1024;

export interface ArtifactLimits {
  /** Compressed bytes of one artifact zip, as listed and as downloaded. */
  maxZipBytes: number;
  /** Entries in one zip's central directory. */
  maxEntries: number;
  /** Uncompressed bytes of one report.json. */
  maxReportBytes: number;
  /** Uncompressed bytes read out of one zip, all reports together. */
  maxUnzippedBytes: number;
  /** Report artifacts read for one merged report or dashboard. */
  maxArtifacts: number;
  /** Baseline candidates tried before giving up. */
  maxBaselineCandidates: number;
  /** Completed runs of the default branch searched for the baseline artifact, newest first. */
  baselineRunsSearched: number;
  /** Default-branch reports read beside the baseline to estimate the noise between jobs (the baseline counts). */
  historyReports: number;
}

export const DEFAULT_ARTIFACT_LIMITS: ArtifactLimits = {
  maxZipBytes: 256 * MiB,
  maxEntries: 10_000,
  maxReportBytes: 64 * MiB,
  maxUnzippedBytes: 1024 * MiB,
  maxArtifacts: 256,
  maxBaselineCandidates: 5,
  baselineRunsSearched: 100,
  historyReports: 10,
};

export interface Limits {
  http: HttpLimits;
  artifacts: ArtifactLimits;
  retry: Partial<RetryPolicy>;
}

/** Environment variable → the limit it sets. */
export const LIMIT_VARIABLES = {
  PROFILE_GATE_CONNECT_TIMEOUT_MS: ['http', 'connectTimeoutMs'],
  PROFILE_GATE_IDLE_TIMEOUT_MS: ['http', 'idleTimeoutMs'],
  PROFILE_GATE_BODY_TIMEOUT_MS: ['http', 'bodyTimeoutMs'],
  PROFILE_GATE_MAX_JSON_BYTES: ['http', 'maxJsonBytes'],
  PROFILE_GATE_RETRY_BASE_MS: ['retry', 'baseMs'],
  PROFILE_GATE_RETRY_ATTEMPTS: ['retry', 'attempts'],
  PROFILE_GATE_MAX_ARTIFACT_BYTES: ['artifacts', 'maxZipBytes'],
  PROFILE_GATE_MAX_ZIP_ENTRIES: ['artifacts', 'maxEntries'],
  PROFILE_GATE_MAX_REPORT_BYTES: ['artifacts', 'maxReportBytes'],
  PROFILE_GATE_MAX_UNZIPPED_BYTES: ['artifacts', 'maxUnzippedBytes'],
  PROFILE_GATE_MAX_ARTIFACTS: ['artifacts', 'maxArtifacts'],
  PROFILE_GATE_BASELINE_RUNS: ['artifacts', 'baselineRunsSearched'],
} as const;

export function limitsFromEnv(env: NodeJS.ProcessEnv): Limits {
  const limits: Limits = { http: { ...DEFAULT_HTTP_LIMITS }, artifacts: { ...DEFAULT_ARTIFACT_LIMITS }, retry: {} };
  for (const [variable, [group, key]] of Object.entries(LIMIT_VARIABLES)) {
    const text = env[variable];
    if (text === undefined || text === '') continue;
    const value = Number(text);
    if (!Number.isInteger(value) || value < 1) throw new UsageError(`${variable}=${text.slice(0, 40)}: expected a positive whole number`);
    (limits[group] as unknown as Record<string, number>)[key] = value;
  }
  return limits;
}
