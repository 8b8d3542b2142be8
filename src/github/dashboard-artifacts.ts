/**
 * `dashboard --from-artifacts`: the report artifacts of a workflow's last N completed runs on a
 * branch, whatever their conclusion, through the GitHub REST API with plain fetch (no @actions dependency):
 * list the workflow's runs, each run's artifacts named PREFIX*, download each zip (a 302 to
 * storage, followed without the token), and take the report.json files out of it.
 * Everything downloaded is untrusted: sizes are capped (limits.ts), reports are schema-validated and
 * cut down one at a time, and a bad artifact is left out with a note rather than failing the dashboard.
 */
import { InputError } from '../errors.js';
import type { Report } from '../model/report.js';
import { boundReport } from '../report/bounded-report.js';
import type { DashboardInput } from '../report/dashboard/build-data.js';
import type { SkippedReport } from '../report/dashboard/data.js';
import { GitHubClient, type GitHubAccess, type WorkflowRun } from './client.js';
import type { HttpLimits } from './http.js';
import { DEFAULT_ARTIFACT_LIMITS, type ArtifactLimits } from './limits.js';
import { isCapturesArtifact } from './artifact-names.js';
import { reportsInZip, unreadableReason } from './report-artifacts.js';

export interface ArtifactQuery {
  /** OWNER/NAME. */
  repository: string;
  /** The workflow file name (nightly.yml) or its numeric id. */
  workflow: string;
  branch: string;
  /** Completed runs to read, newest first: failed ones too (a night the gate failed uploaded its report first). */
  limit: number;
  prefix: string;
  /** Run events accepted (push and schedule: what builds main). */
  events: readonly string[];
  /** Artifacts already read (their reports are in the history store): not downloaded again. */
  seenArtifacts?: ReadonlySet<number>;
}

export interface DashboardAccess extends GitHubAccess {
  /** https://github.com, for run links. */
  serverUrl: string;
  limits?: Partial<HttpLimits>;
  artifactLimits?: Partial<ArtifactLimits>;
  log?: (line: string) => void;
}

export interface DownloadedReports {
  inputs: DashboardInput[];
  skipped: SkippedReport[];
  /** Runs looked at. */
  runs: number;
  /** Artifacts not downloaded: their reports are in the history already. */
  alreadySeen: number;
}

function validRepository(repository: string): boolean {
  return /^[A-Za-z0-9_.-]+\/[A-Za-z0-9_.-]+$/.test(repository) && !repository.includes('..');
}

/**
 * When the run happened: the API's record of it (when it started, else when it was created), which
 * the uploader cannot choose; the report's own claim only when the API gives none. Never later than
 * `now`: a report dated 2099 would otherwise stay the newest point of every history.
 */
export function runTimestamp(report: Report, run: WorkflowRun, now: number = Date.now()): string {
  for (const text of [run.run_started_at, run.created_at, report.run.timestamp, report.generatedAt]) {
    const time = text ? Date.parse(text) : NaN;
    if (Number.isFinite(time)) return new Date(Math.min(time, now)).toISOString();
  }
  return new Date(now).toISOString();
}

/** What the run says about itself wins over what the report claims: the API knows which commit it built, and when. */
function withRunInfo(report: Report, run: WorkflowRun, query: ArtifactQuery, serverUrl: string): Report {
  const runUrl = run.html_url?.startsWith('https://') ? run.html_url : `${serverUrl}/${query.repository}/actions/runs/${run.id}`;
  return {
    ...report,
    run: {
      ...report.run,
      repository: query.repository,
      runId: String(run.id),
      runUrl,
      ...(run.head_sha ? { commit: run.head_sha } : {}),
      timestamp: runTimestamp(report, run),
    },
  };
}

export async function downloadReportArtifacts(query: ArtifactQuery, access: DashboardAccess): Promise<DownloadedReports> {
  if (!validRepository(query.repository)) throw new InputError('--repo', `${JSON.stringify(query.repository)}; expected OWNER/NAME`);
  if (!access.token) throw new InputError('GITHUB_TOKEN', "not set; --from-artifacts reads the GitHub API with it (a token with 'actions: read')");
  const client = new GitHubClient(access);
  const limits: ArtifactLimits = { ...DEFAULT_ARTIFACT_LIMITS, ...access.artifactLimits };
  const log = access.log ?? (() => undefined);
  const repo = query.repository;
  // Every completed run, failed ones included: the nights the gate fails are the nights the page
  // must show, and the action uploads the report before it fails the job. A run with no report
  // artifact (it broke before the gate) is listed as left out.
  const accepted = (run: WorkflowRun): boolean =>
    (run.status === undefined || run.status === 'completed') && (run.head_branch === undefined || run.head_branch === query.branch) && query.events.includes(run.event ?? '');
  const listed = await client.workflowRuns(repo, { workflow: query.workflow, branch: query.branch, status: 'completed', limit: query.limit, accept: accepted });
  const byId = new Map<number, WorkflowRun>();
  for (const run of listed) byId.set(run.id, run);
  const time = (run: WorkflowRun): number => Date.parse(run.run_started_at ?? run.created_at ?? '') || 0;
  const runs = [...byId.values()].sort((a, b) => time(b) - time(a) || b.id - a.id).slice(0, query.limit);
  const failed = runs.filter((run) => run.conclusion !== 'success').length;
  log(`${runs.length} completed ${query.events.join('/')} runs of ${query.workflow} on ${query.branch} (${failed} not successful: their reports are read too)`);
  const inputs: DashboardInput[] = [];
  const skipped: SkippedReport[] = [];
  let read = 0;
  let alreadySeen = 0;
  for (const run of runs) {
    const artifacts = (await client.runArtifacts(repo, run.id)).filter((a) => a.name.startsWith(query.prefix) && !isCapturesArtifact(a.name));
    if (!artifacts.length) skipped.push({ source: `run ${run.id}`, reason: `no artifact named ${query.prefix}*` });
    for (const artifact of artifacts) {
      const source = `run ${run.id} artifact ${artifact.name}`;
      if (query.seenArtifacts?.has(artifact.id)) {
        alreadySeen += 1;
        continue;
      }
      if (artifact.expired) {
        skipped.push({ source, reason: 'expired' });
        continue;
      }
      if ((artifact.size_in_bytes ?? 0) > limits.maxZipBytes) {
        skipped.push({ source, reason: `${artifact.size_in_bytes} bytes; larger than ${limits.maxZipBytes}` });
        continue;
      }
      if (read >= limits.maxArtifacts) {
        skipped.push({ source, reason: `more than ${limits.maxArtifacts} artifacts; the rest are not read` });
        continue;
      }
      read += 1;
      try {
        const zip = await client.artifactZip(repo, artifact.id, limits.maxZipBytes);
        let found = 0;
        // One report at a time, cut down at once: a long history needs one report's memory, not all of them.
        for (const entry of reportsInZip(zip, source, limits)) {
          found += 1;
          if ('error' in entry) skipped.push({ source: entry.path, reason: entry.error });
          else inputs.push({ report: boundReport(withRunInfo(entry.report, run, query, access.serverUrl)), source: entry.path, artifact: { id: artifact.id, name: artifact.name, run: run.id } });
        }
        if (!found) skipped.push({ source, reason: 'no report.json inside' });
      } catch (error) {
        // Listing failures (token, permissions) already stopped us above; one bad artifact is only left out.
        skipped.push({ source, reason: unreadableReason(error) });
      }
    }
  }
  return { inputs, skipped, runs: runs.length, alreadySeen };
}
