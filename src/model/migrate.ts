/**
 * Reading a report.json of any schema version as the current Report. Reports outlive the tool that
 * wrote them (a baseline artifact from last month, a dashboard's history), so older versions are
 * migrated forward one step at a time, and a newer version is refused with what to do about it,
 * never misread. A bump of REPORT_SCHEMA_VERSION comes with an entry in MIGRATIONS.
 *
 * Version 0 (the pre-release shape, documented here as the migration pattern; no release wrote it):
 *   { schemaVersion: 0, tool: "profile-gate 0.0.9", generatedAt, environment, sources,
 *     totalKernelTimeNs, kernels: [{ name, family, totalTimeNs, instances, share }], families,
 *     metrics, utilization?, timeline?, findings, verdict, comparison? }
 * Differences from version 1: the tool is one string; kernel and total times are `…TimeNs`; there
 * are no run info, memops, API calls, CPU functions, notices or Nsight Compute results; optional
 * sections are absent instead of null. Migrating adds the empty sections and renames the fields.
 */
import { InputError } from '../errors.js';
import { REPORT_SCHEMA_VERSION, ReportSchema, type Report } from './report.js';
import { decisionFromRows } from './decision.js';
import { knownNoticeCode } from './notice-codes.js';

type Data = Record<string, unknown>;

function isRecord(value: unknown): value is Data {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function v0ToV1(data: Data): Data {
  const { tool, totalKernelTimeNs, kernels, ...rest } = data;
  const toolText = typeof tool === 'string' ? tool : '';
  const version = /(\d+\.\d+\.\d+\S*)/.exec(toolText)?.[1] ?? '0.0.0';
  return {
    run: {},
    memops: [],
    apiCalls: [],
    cpuFunctions: [],
    notices: [],
    deepDive: [],
    ...rest,
    schemaVersion: 1,
    tool: { name: 'profile-gate', version },
    totalKernelNs: totalKernelTimeNs,
    kernels: Array.isArray(kernels)
      ? kernels.map((kernel) => {
          if (!isRecord(kernel)) return kernel;
          const { totalTimeNs, ...others } = kernel;
          return { ...others, totalNs: totalTimeNs };
        })
      : kernels,
    utilization: rest['utilization'] ?? null,
    timeline: rest['timeline'] ?? null,
    gpuTimeUtilPercent: rest['gpuTimeUtilPercent'] ?? null,
    comparison: rest['comparison'] ?? null,
  };
}

/**
 * Version 2 added what an old reader would misread or refuse: comparison rows of kind `kernel-time`
 * and `comparison.perStep`. A version-1 report has neither, so it reads unchanged.
 */
function v1ToV2(data: Data): Data {
  return { ...data, schemaVersion: 2 };
}

/**
 * Version 3 records the decision (`decision`: its causes and the policy). A version-2 report gets
 * one after it is validated, from its rows' statuses and findings (model/decision.ts
 * decisionFromRows), with the policy unknown (its sentences are dropped in the next step).
 */
function v2ToV3(data: Data): Data {
  return { ...data, schemaVersion: 3 };
}

/**
 * Notice codes were free strings before they were a closed set (model/notice-codes.ts), though every
 * version wrote one, and a later version may add one: a code this version knows is kept, any other
 * (or none) becomes `other`, its message kept as written. A report of any version goes through it;
 * the message is never read to choose.
 */
function withKnownNoticeCodes(data: Data): Data {
  const notices = data['notices'];
  if (!Array.isArray(notices)) return data;
  return { ...data, notices: notices.map((notice) => (isRecord(notice) ? { ...notice, code: knownNoticeCode(notice['code']) } : notice)) };
}

/**
 * Version 4 writes no English: the verdict's lines and the comparison's account are rendered from
 * the decision's causes, the rows and typed notes. A version-3 report's sentences
 * (`verdictReasons`, `comparison.reasons` and their row links `reasonRows`) are dropped, never
 * read: its decision and rows say what decided, and renderers write the lines from them.
 */
function v3ToV4(data: Data): Data {
  const { verdictReasons: _verdictReasons, ...rest } = data;
  const comparison = rest['comparison'];
  if (isRecord(comparison)) {
    const { reasons: _reasons, reasonRows: _reasonRows, ...kept } = comparison;
    return { ...rest, comparison: kept, schemaVersion: 4 };
  }
  return { ...rest, schemaVersion: 4 };
}

/**
 * Version 5 records whether another process shared the GPU during each measured run (`gpuSharing`),
 * and rows the gate could not decide because of it (`insufficient.why: 'shared-gpu'`, the metric
 * reading's `sharedGpu`), which a version-4 reader would refuse. A version-4 report has none of
 * them: it reads unchanged, its runs' sharing unknown.
 */
function v4ToV5(data: Data): Data {
  return { ...data, schemaVersion: 5 };
}

/**
 * Version 6 judges a failure under a GPU shared on both sides again at the pass level, and records
 * it (`sharedGpu.failCheck`, `refusedFor: 'fail-not-shown'`), which a version-5 reader would refuse.
 * A version-5 report has neither: it reads unchanged.
 */
function v5ToV6(data: Data): Data {
  return { ...data, schemaVersion: 6 };
}

/**
 * Version 7 records, for a kernel or family share judged as the fallback, the change its own GPU
 * time alone made (`ownDelta`) and a growth the rest's shrinking made (`context: 'rest-shrank'`),
 * which a version-6 reader would refuse. A version-6 report has neither: it reads unchanged.
 */
function v6ToV7(data: Data): Data {
  return { ...data, schemaVersion: 7 };
}

/**
 * Version 8 may measure the step from the profiled window's own steps (`perStep.measured.basis:
 * 'profiler_step_ms'`, and a gated `profiler_step_ms` metric row), which a version-7 reader would
 * refuse. A version-7 report has neither: it reads unchanged.
 */
function v7ToV8(data: Data): Data {
  return { ...data, schemaVersion: 8 };
}

/** MIGRATIONS[n] turns a version-n report into a version-(n+1) one. */
export const MIGRATIONS: Readonly<Record<number, (data: Data) => Data>> = {
  0: v0ToV1,
  1: v1ToV2,
  2: v2ToV3,
  3: v3ToV4,
  4: v4ToV5,
  5: v5ToV6,
  6: v6ToV7,
  7: v7ToV8,
};

/** A report of a version before the decision was recorded: validated without it, then given one from its rows. */
const UNDECIDED_REPORT = ReportSchema.omit({ decision: true });
const FIRST_DECIDED_VERSION = 3;

/** The writer's version for a message: the tool version it recorded, else its schema version. */
function writer(data: Data, version: number): string {
  const tool = data['tool'];
  const named = isRecord(tool) ? tool['version'] : typeof tool === 'string' ? tool : undefined;
  return typeof named === 'string' && named.length <= 40 ? named : `schemaVersion ${version}`;
}

/**
 * A parsed report.json (of any version) as the current Report; `path` names it in errors. Throws an
 * InputError for something that is not a report, a report from a newer profile-gate, or one that
 * does not hold up against the schema after migration.
 */
export function migrateReport(data: unknown, path: string): Report {
  if (!isRecord(data)) {
    throw new InputError(path, `expected a profile-gate report.json (a JSON object), got ${Array.isArray(data) ? 'an array' : data === null ? 'null' : typeof data}`);
  }
  const version = data['schemaVersion'];
  if (typeof version !== 'number' || !Number.isInteger(version) || version < 0) {
    throw new InputError(path, `expected a profile-gate report.json with a whole-number schemaVersion, got ${version === undefined ? 'none' : JSON.stringify(version)?.slice(0, 40)}`);
  }
  if (version > REPORT_SCHEMA_VERSION) {
    throw new InputError(path, `expected schemaVersion ≤ ${REPORT_SCHEMA_VERSION}; this report was written by a newer profile-gate (${writer(data, version)}); upgrade`);
  }
  let current: Data = data;
  for (let from = version; from < REPORT_SCHEMA_VERSION; from++) {
    const step = MIGRATIONS[from];
    if (!step) throw new InputError(path, `expected schemaVersion ${REPORT_SCHEMA_VERSION} or a version that can be migrated, got ${version}`);
    current = step(current);
  }
  current = withKnownNoticeCodes(current);
  const parsed = (version < FIRST_DECIDED_VERSION ? UNDECIDED_REPORT : ReportSchema).safeParse(current);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const where = issue.path.length ? issue.path.join('.') : 'the top level';
    const migrated = version < REPORT_SCHEMA_VERSION ? ` (migrated from schemaVersion ${version})` : '';
    throw new InputError(path, `expected a profile-gate report.json (schemaVersion ${REPORT_SCHEMA_VERSION})${migrated}; at ${where}: ${issue.message}`);
  }
  if (version >= FIRST_DECIDED_VERSION) return parsed.data as Report;
  const report = parsed.data;
  return { ...report, decision: decisionFromRows(report) };
}
