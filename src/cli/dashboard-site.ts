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
import { boundReport } from '../report/bounded-report.js';
import { redact, redactValue, secretsFromEnv, type SecretSet } from '../io/secrets.js';
import { reportOfSummary, summarizeReport, type HistorySummary } from '../compare/history-summary.js';
import { appendHistoryLines, historyLine, readHistoryStore } from '../io/history-store.js';

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
  await mkdir(directory, { recursive: true });
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
  const store = request.history ? await readHistoryStore(request.history) : { summaries: [], ids: new Set<string>(), artifacts: new Set<number>() };
  const fresh: HistorySummary[] = [];
  const skipped: SkippedReport[] = [];
  // Names repeat from report to report: each is held once.
  const names = new Map<string, string>();
  const intern = (text: string): string => names.get(text) ?? (names.set(text, text), text);
  // Each report is summarised as soon as it is read, and the report dropped: a year of reports is held as a year of summaries.
  const take = (input: DashboardInput): void => {
    const summary = dashboardSummary(input);
    // The same report read twice (a saved copy and its artifact, or one already in the store) is one point.
    if (store.ids.has(summary.id)) return;
    store.ids.add(summary.id);
    for (const k of summary.kernels) {
      k.name = intern(k.name);
      k.family = intern(k.family);
    }
    fresh.push(summary);
  };
  for (const found of request.inputs.length ? await findReportFiles(request.inputs) : []) {
    try {
      take({ report: boundReport(await loadReport(found.path)), source: found.path });
    } catch (error) {
      if (!(error instanceof InputError)) throw error;
      skipped.push({ source: found.path, reason: error.expected });
    }
  }
  if (request.artifacts) {
    const query = request.history ? { ...request.artifacts.query, seenArtifacts: store.artifacts } : request.artifacts.query;
    const downloaded = await downloadReportArtifacts(query, { ...request.artifacts.access, log });
    log(`downloaded ${downloaded.inputs.length} reports from ${downloaded.runs} runs${request.history ? ` (${downloaded.alreadySeen} artifacts already in the history, not downloaded)` : ''}`);
    if (request.artifacts.saveTo) log(`saved ${await saveReports(request.artifacts.saveTo, downloaded.inputs)} reports under ${request.artifacts.saveTo}`);
    downloaded.inputs.forEach(take);
    skipped.push(...downloaded.skipped);
  }
  const summaries = [...store.summaries, ...fresh];
  const added = request.history ? fresh.length : 0;
  if (!summaries.length) {
    const why = skipped.length ? `; ${skipped.length} left out, the first: ${skipped[0]!.source}: ${skipped[0]!.reason}` : '';
    throw new UsageError(`dashboard: no valid report.json found${why}`);
  }
  // Redacted as data, before it is serialised (the store's lines, the page's data.js) and its < > &
  // escaped: an escaped secret no longer looks like one.
  const secrets = secretsFromEnv(process.env);
  if (request.history) {
    // Each line is made as it is written: a first import's lines are never all held at once.
    const lines = (function* () {
      for (const summary of fresh) yield historyLine(redactedData(summary, secrets));
    })();
    await appendHistoryLines(request.history, lines);
    log(`history ${request.history}: ${store.summaries.length} reports held, ${fresh.length} added`);
  }
  // The reports the page reads share the summaries' small parts; the summaries' kernel lists are let go as they are copied.
  const inputs = summaries.map((summary, i) => {
    summaries[i] = undefined as unknown as HistorySummary;
    return { report: redactedData(reportOfSummary(summary), secrets), source: redact(summary.provenance.readFrom, secrets) };
  });
  store.summaries.length = 0;
  fresh.length = 0;
  const cleanSkipped = skipped.map((s) => ({ ...s, source: redact(s.source, secrets), reason: redact(withoutQuotedText(s.reason), secrets) }));
  const { data, files } = buildSite(inputs, cleanSkipped, request.options);
  return { data, written: await writeSite(request.out, files), added };
}
