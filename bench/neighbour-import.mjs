/**
 * Builds the neighbour fit's `jobs.json` (bench/neighbour-fit.mjs) from `profile-gate run --base-run`
 * jobs as they were written: each job's head report.json holds the head's per-run samples
 * (`metrics[].samples`, in run order) and the base's (`comparison.baselineSamples`), and the mean SM
 * clock of each side where it was sampled (the head's `utilization`, the base's
 * base/baseline-report.json beside it).
 *
 *   node bench/neighbour-import.mjs --out __tests__/fixtures/h200-neighbour/jobs.json \
 *     --job aa-1:aa:0:path/to/aa-1/out --job ab-1:ab:0.05:path/to/ab-1/out ...
 *
 * Each --job is NAME:KIND:EFFECT:DIR, KIND `aa` or `ab`, EFFECT the regression made by construction
 * (0.05 = 5% slower), DIR the run's output folder (holding report.json). --metric picks the metric
 * (default decode_tok_s).
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

function args() {
  const argv = process.argv.slice(2);
  const jobs = [];
  let out = 'jobs.json';
  let metric = 'decode_tok_s';
  for (let i = 0; i < argv.length; i += 1) {
    if (argv[i] === '--job') jobs.push(argv[++i]);
    else if (argv[i] === '--out') out = argv[++i];
    else if (argv[i] === '--metric') metric = argv[++i];
    else throw new Error(`unknown argument ${argv[i]}`);
  }
  return { jobs, out, metric };
}

function readJson(path) {
  return JSON.parse(readFileSync(path, 'utf8'));
}

function importJob(spec, metric) {
  const [name, kind, effect, ...rest] = spec.split(':');
  const dir = rest.join(':');
  if (!name || !['aa', 'ab'].includes(kind) || !Number.isFinite(Number(effect)) || !dir) throw new Error(`--job ${spec}: expected NAME:aa|ab:EFFECT:DIR`);
  const report = readJson(join(dir, 'report.json'));
  const head = report.metrics?.find((m) => m.name === metric)?.samples;
  const base = report.comparison?.baselineSamples?.[metric];
  if (!head?.length || !base?.length) throw new Error(`${join(dir, 'report.json')}: no ${metric} samples on both sides (metrics[].samples and comparison.baselineSamples)`);
  const basePath = join(dir, 'base', 'baseline-report.json');
  const baseReport = existsSync(basePath) ? readJson(basePath) : null;
  const clocks = {
    head: report.utilization?.meanSmClockMhz ?? null,
    base: baseReport?.utilization?.meanSmClockMhz ?? null,
  };
  const decode = report.comparison?.rows?.find((r) => r.metric === metric);
  return { name, kind, effect: Number(effect), base, head, clocks, verdict: report.verdict, row: decode ? { status: decode.status, delta: decode.delta, ci: decode.ci, leftOut: decode.leftOut ?? null } : null };
}

const opts = args();
const jobs = opts.jobs.map((spec) => importJob(spec, opts.metric));
mkdirSync(dirname(opts.out), { recursive: true });
writeFileSync(opts.out, `${JSON.stringify({ metric: opts.metric, jobs }, null, 2)}\n`);
console.log(`${jobs.length} jobs → ${opts.out}`);
