/**
 * Builds the neighbour fit's `jobs.json` (bench/neighbour-fit.mjs) from real runs beside a noisy
 * neighbour, in three shapes:
 *
 *   --job NAME:KIND:EFFECT:DIR          a `profile-gate run --base-run` output folder (DIR/report.json)
 *   --report NAME:KIND:EFFECT:FILE      a report.json of such a job, on its own
 *   --processes NAME:KIND:EFFECT:BASE,HEAD   two workload processes' stdout (JSON lines, one
 *                                       `{"kind":"run","tok_s":…,"t_start":…}` per timed run)
 *
 *   node bench/neighbour-import.mjs --out bench/data/h200-neighbour/jobs.json \
 *     --family F1 --per-process 3 --report nb_aa_1:aa:0:bench/data/h200-neighbour/jobs/nb_aa_1.report.json ... \
 *     --family F2 --processes s1_aa:aa:0:runs/s1_base.stdout.jsonl,runs/s1_base2.stdout.jsonl ...
 *
 * KIND is `aa` or `ab`, EFFECT the regression made by construction (0.05 = 5% slower). A report
 * holds each side's per-run samples in run order (the head's `metrics[].samples`, the base's
 * `comparison.baselineSamples`), `--per-process` of them from each measured process; the runner ran
 * the processes in ABBA order (base 1, head 1, head 2, base 2, …), which becomes the job's `order`.
 * Two processes' runs are ordered by their start times. `--family` and `--per-process` hold for the
 * jobs after them: a family is one workload under one neighbour (the fit keeps families apart: how
 * long a run lasts decides how many of the neighbour's bursts it meets). --metric picks the metric
 * of a report (default decode_tok_s).
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

function args() {
  const argv = process.argv.slice(2);
  const specs = [];
  let out = 'jobs.json';
  let metric = 'decode_tok_s';
  let perProcess = 1;
  let family = null;
  for (let i = 0; i < argv.length; i += 1) {
    if (argv[i] === '--job' || argv[i] === '--report' || argv[i] === '--processes') specs.push([argv[i].slice(2), argv[++i], family, perProcess]);
    else if (argv[i] === '--family') family = argv[++i];
    else if (argv[i] === '--out') out = argv[++i];
    else if (argv[i] === '--metric') metric = argv[++i];
    else if (argv[i] === '--per-process') {
      perProcess = Number(argv[++i]);
      if (!(Number.isInteger(perProcess) && perProcess >= 1)) throw new Error('--per-process: expected a whole number of runs, 1 or more');
    } else throw new Error(`unknown argument ${argv[i]}`);
  }
  return { specs, out, metric };
}

function readJson(path) {
  return JSON.parse(readFileSync(path, 'utf8'));
}

function parseSpec(flag, spec) {
  const [name, kind, effect, ...rest] = spec.split(':');
  const path = rest.join(':');
  if (!name || !['aa', 'ab'].includes(kind) || !Number.isFinite(Number(effect)) || !path) throw new Error(`--${flag} ${spec}: expected NAME:aa|ab:EFFECT:PATH`);
  return { name, kind, effect: Number(effect), path };
}

/** The runner's ABBA order of measured processes (base 1, head 1, head 2, base 2, …), each `perProcess` runs long. */
function abbaOrder(nBase, nHead, perProcess) {
  const processes = Math.max(Math.ceil(nBase / perProcess), Math.ceil(nHead / perProcess));
  const left = { base: nBase, head: nHead };
  const order = [];
  for (let i = 0; i < processes; i += 1) {
    for (const which of i % 2 ? ['head', 'base'] : ['base', 'head']) {
      const k = Math.min(perProcess, left[which]);
      for (let r = 0; r < k; r += 1) order.push(which);
      left[which] -= k;
    }
  }
  return order;
}

function fromReport({ name, kind, effect }, file, metric, perProcess, baseReport = null) {
  const report = readJson(file);
  const head = report.metrics?.find((m) => m.name === metric)?.samples;
  const base = report.comparison?.baselineSamples?.[metric];
  if (!head?.length || !base?.length) throw new Error(`${file}: no ${metric} samples on both sides (metrics[].samples and comparison.baselineSamples)`);
  const clocks = { head: report.utilization?.meanSmClockMhz ?? null, base: baseReport?.utilization?.meanSmClockMhz ?? null };
  const row = report.comparison?.rows?.find((r) => r.metric === metric);
  return {
    name,
    kind,
    effect,
    source: file,
    base,
    head,
    perProcess,
    order: abbaOrder(base.length, head.length, perProcess),
    clocks,
    verdict: report.verdict,
    row: row ? { status: row.status, delta: row.delta, ci: row.ci, leftOut: row.leftOut ?? null } : null,
  };
}

function fromProcesses({ name, kind, effect, path }) {
  const files = path.split(',');
  if (files.length !== 2) throw new Error(`--processes ${name}: expected BASE,HEAD (two stdout files)`);
  const runsOf = (file) =>
    readFileSync(file, 'utf8')
      .split('\n')
      .map((line, i) => [line.trim(), i + 1])
      .filter(([line]) => line)
      .map(([line, lineNo]) => {
        try {
          return JSON.parse(line);
        } catch {
          throw new Error(`${file}:${lineNo}: expected a JSON line`);
        }
      })
      .filter((r) => r.kind === 'run')
      .map((r) => {
        if (!Number.isFinite(r.tok_s) || !Number.isFinite(r.t_start)) throw new Error(`${file}: run ${r.run}: expected tok_s and t_start`);
        return r;
      });
  const [base, head] = files.map(runsOf);
  const timeline = [...base.map((r) => ['base', r.t_start]), ...head.map((r) => ['head', r.t_start])].sort((a, b) => a[1] - b[1]);
  return { name, kind, effect, source: files.join(','), base: base.map((r) => r.tok_s), head: head.map((r) => r.tok_s), perProcess: Math.max(base.length, head.length), order: timeline.map(([which]) => which) };
}

function main() {
const opts = args();
const jobs = opts.specs.map(([flag, spec, family, perProcess]) => {
  const parsed = parseSpec(flag, spec);
  const withFamily = (job) => (family ? { family, ...job } : job);
  if (flag === 'processes') return withFamily(fromProcesses(parsed));
  if (flag === 'report') return withFamily(fromReport(parsed, parsed.path, opts.metric, perProcess));
  const basePath = join(parsed.path, 'base', 'baseline-report.json');
  return withFamily(fromReport(parsed, join(parsed.path, 'report.json'), opts.metric, perProcess, existsSync(basePath) ? readJson(basePath) : null));
});
mkdirSync(dirname(opts.out), { recursive: true });
writeFileSync(opts.out, `${JSON.stringify({ metric: opts.metric, jobs }, null, 2)}\n`);
console.log(`${jobs.length} jobs → ${opts.out}`);
}

try {
  main();
} catch (error) {
  // Bad input is one line naming what was expected, not a stack trace.
  console.error(`neighbour-import: ${error instanceof SyntaxError ? `not JSON: ${error.message}` : error.message}`);
  process.exit(2);
}
