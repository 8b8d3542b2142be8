/**
 * The I/O half of `profile-gate dashboard`: read report.json files (and, with --from-artifacts,
 * download them), build the site with the pure renderer, and write it to a directory.
 * A report that does not validate is left out and listed on the page, not fatal: one broken
 * nightly artifact must not take the whole history down.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { InputError, UsageError, withoutQuotedText } from '../errors.js';
import { buildSite, reportIdentity, type DashboardInput, type DashboardOptions, type SiteFile, type SkippedReport } from '../report/dashboard/index.js';
import type { DashboardData } from '../report/dashboard/data.js';
import { REPORT_FILE } from '../model/report.js';
import { serializeReport } from '../report/json.js';
import { downloadReportArtifacts, type ArtifactQuery, type DashboardAccess } from '../github/dashboard-artifacts.js';
import { findReportFiles, loadReport } from '../io/reports.js';
import { makeOutputFolder } from '../io/input-paths.js';
import { boundReport } from '../report/bounded-report.js';
import { redact, redactValue, secretsFromEnv, type SecretSet } from '../io/secrets.js';
import { reportOfSummary, summarizeReport, type HistorySummary } from '../compare/history-summary.js';
import { appendHistoryLines, emptyHistoryStore, historyLine, readHistoryStore } from '../io/history-store.js';

/**
 * The site is public and its reports come from other runs' artifacts: what it writes is redacted
 * (credential-shaped tokens, credential assignments, this process's secret variables), whatever
 * the runs that made the reports did.
 */
function published(text: string | Uint8Array): string | Uint8Array {
  return typeof text === 'string' ? redact(text, secretsFromEnv(process.env)) : text;
}

/**
 * A report redacted as data: its JSON text in one pass (JSON.stringify escapes only quotes,
 * backslashes and controls, whose escaped forms the redaction also knows), field by field when a
 * replacement would break the text's structure.
 */
function redactedData<T>(value: T, secrets: SecretSet): T {
  const text = JSON.stringify(value);
  const clean = redact(text, secrets);
  if (clean === text) return value;
  try {
    return JSON.parse(clean) as T;
  } catch {
    return redactValue(value, secrets).value;
  }
}

export interface LoadedReports {
  inputs: DashboardInput[];
  skipped: SkippedReport[];
}

/**
 * Every report.json under the paths, read one at a time and cut down at once to what the page shows
 * (as the downloaded artifacts are): a year of reports of thousands of kernels each is held as a
 * year of bounded summaries, never whole. Invalid ones become notes. A path that does not exist is
 * an error.
 */
export async function loadDashboardReports(paths: readonly string[]): Promise<LoadedReports> {
  const inputs: DashboardInput[] = [];
  const skipped: SkippedReport[] = [];
  for (const found of await findReportFiles(paths)) {
    try {
      inputs.push({ report: boundReport(await loadReport(found.path)), source: found.path });
    } catch (error) {
      if (!(error instanceof InputError)) throw error;
      skipped.push({ source: found.path, reason: error.expected });
    }
  }
  return { inputs, skipped };
}

export async function writeSite(directory: string, files: readonly SiteFile[]): Promise<string[]> {
  await makeOutputFolder(directory, 'the site');
  const written: string[] = [];
  for (const file of files) {
    const path = join(directory, file.path);
    // The page's code and style are ours; the data is the reports'.
    await writeFile(path, file.path === 'data.js' ? published(file.content) : file.content);
    written.push(path);
  }
  return written;
}

/**
 * Downloaded reports kept as files (e.g. on a branch), so the history outlives artifact retention.
 * A report's folder is named by what the dashboard counts as the same report (workload, run,
 * commit, time), so saving the same runs again night after night rewrites the same files.
 */
export async function saveReports(directory: string, inputs: readonly DashboardInput[]): Promise<number> {
  const names = new Set<string>();
  for (const { report } of inputs) {
    const identity = createHash('sha256').update(reportIdentity(report)).digest('hex').slice(0, 12);
    const name = `${report.run.runId ?? 'run'}-${(report.run.workload ?? 'report').replace(/[^A-Za-z0-9_.-]+/g, '_').slice(0, 80)}-${identity}`;
    if (names.has(name)) continue;
    names.add(name);
    await mkdir(join(directory, name), { recursive: true });
    await writeFile(join(directory, name, REPORT_FILE), published(serializeReport(report)));
  }
  return names.size;
}

export interface DashboardRequest {
  out: string;
  inputs: readonly string[];
  artifacts?: { query: ArtifactQuery; access: DashboardAccess; saveTo?: string };
  /** The history store (io/history-store.ts): read, and appended with the reports it did not hold. */
  history?: string;
  options: Partial<DashboardOptions>;
  log?: (line: string) => void;
}

export interface DashboardResult {
  data: DashboardData;
  written: string[];
  /** Reports added to the history store. */
  added: number;
}

/** A report as the dashboard reads it: its history summary, the same record the store keeps. */
export function dashboardSummary(input: DashboardInput): HistorySummary {
  return summarizeReport(input.report, reportIdentity(input.report), { readFrom: input.source, ...(input.artifact ? { artifact: input.artifact } : {}) });
}

export async function buildDashboard(request: DashboardRequest): Promise<DashboardResult> {
  const log = request.log ?? (() => undefined);
  // Redacted as data, before it is serialised (the store's lines, the page's data.js) and its < > &
  // escaped: an escaped secret no longer looks like one.
  const secrets = secretsFromEnv(process.env);
  // The report the page reads of a summary: it shares the summary's small parts, and the summary
  // itself is let go (a store's summaries are never all held beside the page's reports).
  const pageInput = (summary: HistorySummary): DashboardInput => ({ report: redactedData(reportOfSummary(summary), secrets), source: redact(summary.provenance.readFrom, secrets) });
  const store = request.history ? await readHistoryStore(request.history, undefined, pageInput) : emptyHistoryStore<DashboardInput>();
  const skipped: SkippedReport[] = [];
  // Downloaded first (the artifacts' reports are held as they come), so that a failed download
  // leaves the store as it was; read after the folders' reports, as given.
  let downloaded: DashboardInput[] = [];
  if (request.artifacts) {
    const query = request.history ? { ...request.artifacts.query, seenArtifacts: store.artifacts } : request.artifacts.query;
    const got = await downloadReportArtifacts(query, { ...request.artifacts.access, log });
    log(`downloaded ${got.inputs.length} reports from ${got.runs} runs${request.history ? ` (${got.alreadySeen} artifacts already in the history, not downloaded)` : ''}`);
    if (request.artifacts.saveTo) log(`saved ${await saveReports(request.artifacts.saveTo, got.inputs)} reports under ${request.artifacts.saveTo}`);
    downloaded = got.inputs;
    skipped.push(...got.skipped);
  }
  // Each report is summarised as soon as it is read, and the report dropped.
  const found = request.inputs.length ? await findReportFiles(request.inputs) : [];
  // The same report read twice (a saved copy and its artifact, or one already in the store) is one point.
  const firstSeen = (input: DashboardInput): HistorySummary | undefined => {
    const summary = dashboardSummary(input);
    if (store.ids.has(summary.id)) return undefined;
    store.ids.add(summary.id);
    return summary;
  };
  async function* newSummaries(): AsyncGenerator<HistorySummary> {
    for (const file of found) {
      let input: DashboardInput;
      try {
        input = { report: boundReport(await loadReport(file.path)), source: file.path };
      } catch (error) {
        if (!(error instanceof InputError)) throw error;
        skipped.push({ source: file.path, reason: error.expected });
        continue;
      }
      const summary = firstSeen(input);
      if (summary) yield summary;
    }
    for (const [i, input] of downloaded.entries()) {
      downloaded[i] = undefined as unknown as DashboardInput;
      const summary = firstSeen(input);
      if (summary) yield summary;
    }
  }
  let fresh: DashboardInput[];
  if (request.history) {
    // Each new summary is written to the store as it is made, and the page drawn from the store's
    // lines: a first import of a year of reports never holds the reports' summaries while it reads
    // them (so what the reading leaves behind is collected at a small heap), and what the page
    // draws of a report is its line in the store.
    const path = request.history;
    const lines = (async function* () {
      for await (const summary of newSummaries()) yield historyLine(redactedData(summary, secrets));
    })();
    const offset = await appendHistoryLines(path, lines);
    fresh = (await readHistoryStore(path, { offset, after: store }, pageInput)).summaries;
    log(`history ${path}: ${store.summaries.length} reports held, ${fresh.length} added`);
  } else {
    // Names repeat from report to report: each is held once.
    const names = store.names;
    const intern = (text: string): string => names.get(text) ?? (names.set(text, text), text);
    fresh = [];
    for await (const summary of newSummaries()) {
      for (const k of summary.kernels) {
        k.name = intern(k.name);
        k.family = intern(k.family);
      }
      fresh.push(pageInput(summary));
    }
  }
  const inputs = [...store.summaries, ...fresh];
  const added = request.history ? fresh.length : 0;
  if (!inputs.length) {
    const why = skipped.length ? `; ${skipped.length} left out, the first: ${skipped[0]!.source}: ${skipped[0]!.reason}` : '';
    throw new UsageError(`dashboard: no valid report.json found${why}`);
  }
  const cleanSkipped = skipped.map((s) => ({ ...s, source: redact(s.source, secrets), reason: redact(withoutQuotedText(s.reason), secrets) }));
  const { data, files } = buildSite(inputs, cleanSkipped, request.options);
  return { data, written: await writeSite(request.out, files), added };
}
