#!/usr/bin/env node
/**
 * Regression-gate simulator: A/A and A/B comparisons under several noise models, through the real
 * `compare` of src/compare/gate.ts (compiled with tsc into bench/out/gate-sim on first use).
 * Every trial is judged, on the same samples, by the gate (defaults), the gate as it was before the
 * outlier rule (`dropOutliers: false`), and the rules of other systems: a plain median ratio at 3%,
 * a mean ratio at 3%, CodSpeed's 10% and github-action-benchmark's 2x (on the mean of the runs).
 * Reports false alarms (A/A trials that fail), power for 2/5/6/10% decode tok/s regressions at 3, 5
 * and 10 samples per side, and the adaptive A/B (5 planned runs per side, ABBA pairs up to 15 while
 * undecided, alpha spent over the looks) with the runs it spent.
 *
 *   node bench/gate-sim.mjs [--trials-aa 10000] [--trials-ab 2000] [--models h200,stalls] [--workers 2]
 *                           [--gate-options '{"thresholds":{"decode_tok_s":6}}'] [--json bench/out/gate-sim.json]
 *   node bench/gate-sim.mjs --sizes 5 --models stalls-15,h200-stalls   # only the fixed cells at 5 runs per side
 *   node bench/gate-sim.mjs --timing-only
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, statSync, readdirSync, writeFileSync, mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Worker, isMainThread, parentPort, workerData } from 'node:worker_threads';
import { availableParallelism } from 'node:os';
import { checkFit, fittedPair, loadNeighbourFit, loadNeighbourJobs, NEIGHBOUR_DATA, NEIGHBOUR_FIT, processOffsetSd, relativeSide } from './neighbour-fit.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..');
const outDir = join(here, 'out', 'gate-sim');
const gateJs = join(outDir, 'src', 'compare', 'gate.js');
const noiseDir = join(root, '__tests__', 'fixtures', 'h200-noise');

const SIZES = [3, 5, 10];
const EFFECTS = [0.02, 0.05, 0.06, 0.1];
/** Adaptive A/B: planned runs per side and the most it may reach (the run option max-runs). */
const ADAPTIVE = { planned: 5, max: 15 };
const LEVEL_DECODE = 358; // tok/s, the H200 decode of the noise fixtures
const LEVEL_PREFILL = 9000; // tok/s
const LEVEL_TTFT = 40; // ms

function newestMtime(dir) {
  let newest = 0;
  for (const name of readdirSync(dir)) if (name.endsWith('.ts')) newest = Math.max(newest, statSync(join(dir, name)).mtimeMs);
  return newest;
}

function ensureBuilt() {
  const tsc = join(root, 'node_modules', '.bin', 'tsc');
  // A machine without the dev dependencies (a copy of bench/out/gate-sim carried over) runs what is built.
  if (existsSync(gateJs) && !existsSync(tsc)) return;
  const sources = Math.max(newestMtime(join(root, 'src', 'compare')), newestMtime(join(root, 'src', 'model')));
  if (existsSync(gateJs) && statSync(gateJs).mtimeMs >= sources) return;
  execFileSync(tsc, ['-p', join(here, 'gate-sim.tsconfig.json')], { stdio: 'inherit' });
}

// ---------------------------------------------------------------------------------------------
// Noise (seeded through the project's mulberry32, so a run is reproducible)

function gaussian(random) {
  const u = 1 - random();
  const v = random();
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
}

/** Student t with 2 degrees of freedom: Z / sqrt(chi2_2 / 2), chi2_2 = −2 ln U. */
function studentT2(random) {
  return gaussian(random) / Math.sqrt(-Math.log(1 - random()));
}

const pick = (random, list) => list[Math.floor(random() * list.length)];

/** 1, or with probability p a run slowed by loss() (a fraction). */
function stalled(random, p, loss) {
  return random() < p ? 1 - loss() : 1;
}

/**
 * In every block of 5 consecutive runs of a side (the last block may be shorter), exactly
 * round(share × block) runs stalled (12-20% lost) at random positions, the rest 0.2% jitter: the
 * two and three stalled runs of five that a busy machine gives. Per block, so that every look of
 * an adaptive A/B (the first 5, 7, 9 … runs) holds the same share as a fixed 5 do: 3 vs 3 blocks
 * give round(0.6 × 3) = 2 of 3, and 10 runs 6 of 10.
 */
function forcedStalls(share) {
  const side = (random, n) => {
    const out = [];
    for (let start = 0; start < n; start += 5) {
      const size = Math.min(5, n - start);
      const positions = Array.from({ length: size }, (_, i) => i);
      for (let i = size - 1; i > 0; i -= 1) {
        const j = Math.floor(random() * (i + 1));
        [positions[i], positions[j]] = [positions[j], positions[i]];
      }
      const hit = new Set(positions.slice(0, Math.round(share * size)));
      for (let i = 0; i < size; i += 1) out.push((hit.has(i) ? 1 - (0.12 + 0.08 * random()) : 1) * (1 + 0.002 * gaussian(random)));
    }
    return out;
  };
  return (random, n) => ({ base: side(random, n), cur: side(random, n) });
}

// ---------------------------------------------------------------------------------------------
// The measured H200 noise: 9 processes × 15 timed runs (first run right after warm-up).

function loadH200() {
  const processes = [];
  for (const file of ['noise_healthy.jsonl', 'noise_unfused.jsonl']) {
    const lines = readFileSync(join(noiseDir, file), 'utf8').trim().split('\n');
    const runs = lines.map((line) => JSON.parse(line).per_run_tok_s);
    const medians = runs.map((r) => median(r.slice(1)));
    const grand = median(medians);
    runs.forEach((r, i) => processes.push({ variant: file, runs: r, median: medians[i], grand }));
  }
  return {
    processes,
    /** First timed run / median of the rest: the warm-up slowdown (0.867-0.921). */
    firstRatios: processes.map((p) => p.runs[0] / p.median),
    /** Process median / its variant's grand median: the between-process offsets. */
    offsets: processes.map((p) => p.median / p.grand),
    /** Steady runs / their process median − 1: the within-process spread (drift included). */
    residuals: processes.flatMap((p) => p.runs.slice(1).map((v) => v / p.median - 1)),
  };
}

function median(values) {
  const s = [...values].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

/**
 * Each noise model makes the relative samples (around 1, in measurement order) of the two sides of
 * one comparison: `pair(random, n)` → { base: number[], cur: number[] }. Higher is faster.
 */
function makeModels(h200, neighbour = loadNeighbourFit()) {
  const iid = (draw) => (random, n) => ({ base: Array.from({ length: n }, () => draw(random)), cur: Array.from({ length: n }, () => draw(random)) });
  const neighbourModels = neighbour
    ? {
        'neighbour-fit': {
          about: `fitted to the real H200 runs beside a neighbour (bench/data/h200-neighbour/fit.json): ${neighbour.fit.families.map((f) => `${f.name} (weight ${f.weight.toFixed(2)}): ${(100 * f.slowedShare.mean).toFixed(0)}% ± ${(100 * f.slowedShare.sd).toFixed(0)}% of a side's runs slowed, losing lognormal (median ${(100 * Math.exp(f.loss.mu)).toFixed(1)}%, sd of ln ${f.loss.sigma.toFixed(2)}), clean jitter ${(100 * f.sideJitters[0]).toFixed(2)}-${(100 * f.sideJitters[f.sideJitters.length - 1]).toFixed(2)}%, side offset sd ${(100 * f.sideOffsetSd).toFixed(2)}%`).join('; ')}`,
          pair: (random, n) => fittedPair(neighbour.fit, random, n),
        },
      }
    : {};
  const h200Side = (random, n) => {
    const offset = pick(random, h200.offsets);
    const side = [offset * pick(random, h200.firstRatios)];
    for (let i = 1; i < n; i += 1) side.push(offset * (1 + pick(random, h200.residuals)));
    return side;
  };
  return {
    ...neighbourModels,
    h200: {
      about: 'resampled H200: a process offset, the slow first run, then within-process residuals',
      pair: (random, n) => ({ base: h200Side(random, n), cur: h200Side(random, n) }),
    },
    'h200-replay': {
      about: 'the real H200 sequences in order: two different processes of one variant, runs 1..n',
      pair: (random, n) => {
        const variant = pick(random, h200.processes).variant;
        const same = h200.processes.filter((p) => p.variant === variant);
        const a = Math.floor(random() * same.length);
        let b = Math.floor(random() * (same.length - 1));
        if (b >= a) b += 1;
        return { base: same[a].runs.slice(0, n).map((v) => v / same[a].grand), cur: same[b].runs.slice(0, n).map((v) => v / same[b].grand) };
      },
    },
    bimodal: {
      about: '70% of runs at 1, 30% 2% slower (two clock/power states), 0.2% jitter',
      pair: iid((random) => (random() < 0.3 ? 0.98 : 1) * (1 + 0.002 * gaussian(random))),
    },
    'bimodal-wide': {
      about: 'as bimodal but the slow mode is 5% slower (beyond the 3% floor)',
      pair: iid((random) => (random() < 0.3 ? 0.95 : 1) * (1 + 0.002 * gaussian(random))),
    },
    't2': {
      about: 'heavy-tailed: 1 + 0.5%·Student-t(df=2)',
      pair: iid((random) => Math.max(0.2, 1 + 0.005 * studentT2(random))),
    },
    lognormal: {
      about: 'skewed: exp(N(0, 1%))',
      pair: iid((random) => Math.exp(0.01 * gaussian(random))),
    },
    drift: {
      about: 'baseline then current in one job, sliding 0.11%/run (1.5% per 14 runs, as measured), 0.1% jitter',
      pair: (random, n) => {
        const at = (i) => (1 - 0.0011 * i) * (1 + 0.001 * gaussian(random));
        return { base: Array.from({ length: n }, (_, i) => at(i)), cur: Array.from({ length: n }, (_, i) => at(n + i)) };
      },
    },
    stalls: {
      about: 'sporadic stalls: a run loses 10-20% with P=0.1 (a background job, a page-cache miss, a clock dip), the rest 0.2% jitter',
      pair: iid((random) => stalled(random, 0.1, () => 0.1 + 0.1 * random()) * (1 + 0.002 * gaussian(random))),
    },
    'h200-stalls': {
      about: 'the H200 beside a process of random matmul bursts: a run loses 1.5-26% (log-uniform) with P=0.3, the rest 0.05% jitter',
      pair: iid((random) => stalled(random, 0.3, () => 0.015 * Math.exp(Math.log(0.26 / 0.015) * random())) * (1 + 0.0005 * gaussian(random))),
    },
    'stalls-15': {
      about: 'sporadic stalls as reported: a run loses 12-20% with P=0.15, the rest 0.2% jitter',
      pair: iid((random) => stalled(random, 0.15, () => 0.12 + 0.08 * random()) * (1 + 0.002 * gaussian(random))),
    },
    'stalls-2of5': {
      about: 'forced stalls: on each side exactly 2 runs in every 5 lose 12-20%, at random positions, the rest 0.2% jitter',
      pair: forcedStalls(0.4),
    },
    'stalls-3of5': {
      about: 'forced stalls: on each side exactly 3 runs in every 5 lose 12-20%, at random positions, the rest 0.2% jitter',
      pair: forcedStalls(0.6),
    },
    'stalls-3of5-one': {
      about: 'forced stalls on one side: a side picked at random has exactly 3 runs in 5 stalled (12-20%), the other sporadic stalls (P=0.15), 0.2% jitter',
      pair: (random, n) => {
        const forced = forcedStalls(0.6)(random, n);
        const sporadic = iid((r) => stalled(r, 0.15, () => 0.12 + 0.08 * r()) * (1 + 0.002 * gaussian(r)))(random, n);
        return random() < 0.5 ? { base: forced.base, cur: sporadic.cur } : { base: sporadic.base, cur: forced.cur };
      },
    },
    'stalls-clocks': {
      about: 'stalls (P=0.1, 10-20%) on top of two clock states (30% of runs 2% slower), 0.2% jitter',
      pair: iid((random) => stalled(random, 0.1, () => 0.1 + 0.1 * random()) * (random() < 0.3 ? 0.98 : 1) * (1 + 0.002 * gaussian(random))),
    },
    'cold-first': {
      about: "the current side's first timed run is cold (8-13% slow, the measured H200 range), the baseline's is not; 0.2% jitter",
      pair: (random, n) => {
        const side = () => Array.from({ length: n }, () => 1 + 0.002 * gaussian(random));
        const cur = side();
        cur[0] *= 1 - (0.08 + 0.05 * random());
        return { base: side(), cur };
      },
    },
    warmup: {
      about: 'per side: first run 5-15% slow with P=0.5, second 1-4% slow with P=0.25, 0.3% jitter',
      pair: (random, n) => {
        const side = () => {
          const s = Array.from({ length: n }, () => 1 + 0.003 * gaussian(random));
          if (random() < 0.5) s[0] *= 1 - (0.05 + 0.1 * random());
          if (n > 1 && random() < 0.25) s[1] *= 1 - (0.01 + 0.03 * random());
          return s;
        };
        return { base: side(), cur: side() };
      },
    },
  };
}

// ---------------------------------------------------------------------------------------------
// One trial: four metrics as `max benchmark` reports them. decode tok/s and TPOT come from the same
// runs (TPOT = 1000 / tok/s); prefill tok/s and TTFT get their own draws from the same model.
// The regression, when there is one, is in decode only (so TPOT moves with it).

function metric(name, unit, direction, samples) {
  return { name, unit, direction, samples, value: median(samples) };
}

function sideInput(decodeRel, prefillRel, ttftRel) {
  const decode = decodeRel.map((r) => LEVEL_DECODE * r);
  return {
    metrics: [
      metric('decode_tok_s', 'tok/s', 'higher', decode),
      metric('tpot_ms', 'ms', 'lower', decode.map((v) => 1000 / v)),
      metric('prefill_tok_s', 'tok/s', 'higher', prefillRel.map((r) => LEVEL_PREFILL * r)),
      metric('ttft_ms', 'ms', 'lower', ttftRel.map((r) => LEVEL_TTFT / r)),
    ],
    kernels: [],
    families: [],
    findings: [],
    utilization: null,
    environment: { gpuName: 'NVIDIA H200', engine: 'sim' },
  };
}

/** The project's compare() and its seeded generator (mulberry32), from the compiled src/compare. */
async function loadCompiled() {
  const load = (name) => import(pathToFileURL(join(outDir, 'src', 'compare', name)).href);
  const [{ compare }, { mulberry32 }, { lookSchedule }] = await Promise.all([import(pathToFileURL(gateJs).href), load('statistics.js'), load('sequential.js')]);
  return { compare, mulberry32, lookSchedule };
}

/** The rules of other systems, on the four metrics (worse by at least `pct` of the summary → fail). */
const mean = (values) => values.reduce((sum, v) => sum + v, 0) / values.length;
function ratioRule(summary, pct) {
  return (current, baseline) =>
    current.metrics.some((m, i) => {
      const b = baseline.metrics[i];
      const ratio = summary(m.samples) / summary(b.samples);
      return (m.direction === 'higher' ? 1 / ratio - 1 : ratio - 1) >= pct;
    });
}
export const ANCHOR_RULES = {
  'median 3%': ratioRule(median, 0.03),
  'mean 3%': ratioRule(mean, 0.03),
  'CodSpeed 10%': ratioRule(mean, 0.1),
  'gab 2x': ratioRule(mean, 1),
};
const RULES = ['gate', 'today', ...Object.keys(ANCHOR_RULES)];

function trialInputs(model, random, n, effect) {
  const decode = model.pair(random, n);
  const prefill = model.pair(random, n);
  const ttft = model.pair(random, n);
  const slice = (k) => [
    sideInput(decode.cur.slice(0, k).map((r) => r * (1 - effect)), prefill.cur.slice(0, k), ttft.cur.slice(0, k)),
    sideInput(decode.base.slice(0, k), prefill.base.slice(0, k), ttft.base.slice(0, k)),
  ];
  return slice;
}

/** Fixed runs per side: every rule on the same samples. */
function runCell({ compare, mulberry32 }, model, n, effect, trials, seed, gateOptions) {
  const random = mulberry32(seed);
  const fails = Object.fromEntries(RULES.map((r) => [r, 0]));
  const counts = { pass: 0, warn: 0, fail: 0, 'insufficient-data': 0, invalid: 0 };
  let ms = 0;
  for (let t = 0; t < trials; t += 1) {
    const [current, baseline] = trialInputs(model, random, n, effect)(n);
    const start = performance.now();
    const { verdict } = compare(current, baseline, { ...gateOptions, seed: t + 1 });
    ms += performance.now() - start;
    counts[verdict] += 1;
    if (verdict === 'fail') fails.gate += 1;
    if (compare(current, baseline, { ...gateOptions, dropOutliers: false, seed: t + 1 }).verdict === 'fail') fails.today += 1;
    for (const [name, rule] of Object.entries(ANCHOR_RULES)) if (rule(current, baseline)) fails[name] += 1;
  }
  return { kind: 'fixed', counts, fails, trials, msPerCall: ms / trials };
}

/**
 * Adaptive A/B: look at the planned runs; while the verdict is not fail and some gated metric is
 * undecided, add one ABBA pair (2 runs per side) and look again, up to the maximum, with the
 * test's alpha spent over the looks. The samples of one trial are drawn once, up to the maximum.
 */
function runAdaptiveCell({ compare, lookSchedule }, model, effect, trials, seed, gateOptions, mulberry32) {
  const random = mulberry32(seed);
  const looks = lookSchedule(ADAPTIVE.planned, ADAPTIVE.max);
  const counts = { pass: 0, warn: 0, fail: 0, 'insufficient-data': 0, invalid: 0 };
  const spent = [];
  for (let t = 0; t < trials; t += 1) {
    const slice = trialInputs(model, random, ADAPTIVE.max, effect);
    let verdict;
    let runs;
    for (let k = 0; k < looks.length; k += 1) {
      runs = looks[k];
      const [current, baseline] = slice(runs);
      const result = compare(current, baseline, { ...gateOptions, seed: t + 1, look: { index: k + 1, of: looks.length } });
      verdict = result.verdict;
      if (verdict === 'fail' || !result.comparison.undecided.length) break;
    }
    counts[verdict] += 1;
    spent.push(runs);
  }
  spent.sort((x, y) => x - y);
  return { kind: 'adaptive', counts, trials, meanRuns: mean(spent), p95Runs: spent[Math.min(spent.length - 1, Math.ceil(0.95 * spent.length) - 1)], maxRuns: spent[spent.length - 1] };
}

async function workerMain() {
  const compiled = await loadCompiled();
  const models = makeModels(loadH200());
  const results = [];
  for (const job of workerData.jobs) {
    const model = models[job.model];
    const cell = job.adaptive
      ? runAdaptiveCell(compiled, model, job.effect, job.trials, job.seed, workerData.gateOptions, compiled.mulberry32)
      : runCell(compiled, model, job.n, job.effect, job.trials, job.seed, workerData.gateOptions);
    results.push({ ...job, ...cell });
  }
  parentPort.postMessage(results);
}

// ---------------------------------------------------------------------------------------------

function args() {
  const argv = process.argv.slice(2);
  const get = (flag, fallback) => {
    const i = argv.indexOf(flag);
    return i >= 0 ? argv[i + 1] : fallback;
  };
  return {
    trialsAA: Number(get('--trials-aa', 10000)),
    trialsAB: Number(get('--trials-ab', 2000)),
    models: get('--models', ''),
    workers: Number(get('--workers', Math.max(1, availableParallelism()))),
    json: get('--json', join(here, 'out', 'gate-sim.json')),
    /** Gate options for every compare call, as JSON (e.g. '{"thresholds":{"decode_tok_s":6}}'). */
    gateOptions: JSON.parse(get('--gate-options', '{}')),
    timingOnly: argv.includes('--timing-only'),
    /** One fixed cell, MODEL:N:EFFECT (e.g. stalls:5:0.06), run here: the trials the gate did not fail, with what it said. */
    misses: get('--misses', ''),
    seed: Number(get('--seed', 1)),
    noAdaptive: argv.includes('--no-adaptive'),
    /** The noisy-neighbour table: the fitted model, the resampled real runs and the recorded jobs, side by side. */
    neighbour: argv.includes('--neighbour'),
    /** --neighbour: only these sources (names of its table, separated by ;), without the recorded jobs, adaptive cells or the fit check. */
    sources: get('--sources', '') ? get('--sources', '').split(';') : null,
    noRecorded: argv.includes('--no-recorded'),
    noFitCheck: argv.includes('--no-fit-check'),
    /** --neighbour: write the missed trials (A/A fail, −5% pass) with their samples and rows as JSON. */
    dump: get('--dump', ''),
    /** Runs per side of the fixed cells (default 3,5,10). */
    sizes: get('--sizes', '') ? get('--sizes', '').split(',').map(Number) : SIZES,
  };
}

const pct = (k, n) => `${((100 * k) / n).toFixed(k > 0 && (100 * k) / n < 0.1 ? 2 : 1)}`;

/** CPU time of one compare call (this thread only, nothing else of ours running), 4 metrics × n samples per side. */
async function timeCompare(n, calls) {
  const { compare, mulberry32 } = await loadCompiled();
  const model = makeModels(loadH200()).h200;
  const random = mulberry32(99);
  const inputs = Array.from({ length: calls }, () => {
    const [d, p, t] = [model.pair(random, n), model.pair(random, n), model.pair(random, n)];
    return [sideInput(d.cur, p.cur, t.cur), sideInput(d.base, p.base, t.base)];
  });
  for (const [current, baseline] of inputs.slice(0, 20)) compare(current, baseline, {});
  const cpu = process.cpuUsage();
  const wall = performance.now();
  for (const [current, baseline] of inputs) compare(current, baseline, {});
  const used = process.cpuUsage(cpu);
  return { n, calls, cpuMs: (used.user + used.system) / 1000 / calls, wallMs: (performance.now() - wall) / calls };
}

async function main() {
  const opts = args();
  ensureBuilt();
  if (opts.misses) {
    await listMisses(opts);
    return;
  }
  if (opts.neighbour) {
    await neighbourTable(opts);
    return;
  }
  if (opts.timingOnly) {
    for (const n of SIZES) {
      const t = await timeCompare(n, 300);
      console.log(`compare() at ${n} samples per side, 4 metrics: ${t.cpuMs.toFixed(2)} ms CPU, ${t.wallMs.toFixed(2)} ms wall per call (${t.calls} calls)`);
    }
    return;
  }
  const models = makeModels(loadH200());
  const names = opts.models ? opts.models.split(',') : Object.keys(models);
  const jobs = [];
  let seed = 1;
  for (const model of names) {
    if (!models[model]) throw new Error(`unknown model ${model} (known: ${Object.keys(models).join(', ')})`);
    for (const n of opts.sizes) {
      jobs.push({ model, n, effect: 0, trials: opts.trialsAA, seed: seed++ * 7919, cost: opts.trialsAA * n * 2 });
      for (const effect of EFFECTS) jobs.push({ model, n, effect, trials: opts.trialsAB, seed: seed++ * 7919, cost: opts.trialsAB * n * 2 });
    }
    if (!opts.noAdaptive) {
      jobs.push({ model, n: ADAPTIVE.planned, adaptive: true, effect: 0, trials: opts.trialsAA, seed: seed++ * 7919, cost: opts.trialsAA * 8 });
      for (const effect of EFFECTS) jobs.push({ model, n: ADAPTIVE.planned, adaptive: true, effect, trials: opts.trialsAB, seed: seed++ * 7919, cost: opts.trialsAB * 12 });
    }
  }
  const workers = Math.min(opts.workers, jobs.length);
  const started = performance.now();
  const shards = Array.from({ length: workers }, () => ({ jobs: [], cost: 0 }));
  // Largest first onto the least loaded worker.
  for (const job of [...jobs].sort((a, b) => b.cost - a.cost)) {
    const shard = shards.reduce((low, s) => (s.cost < low.cost ? s : low));
    shard.jobs.push(job);
    shard.cost += job.cost;
  }
  const parts = await Promise.all(
    shards.map((shard) => new Promise((resolve, reject) => {
      const worker = new Worker(fileURLToPath(import.meta.url), { workerData: { jobs: shard.jobs, gateOptions: opts.gateOptions } });
      worker.once('message', resolve);
      worker.once('error', reject);
    })),
  );
  const results = parts.flat();
  const wall = (performance.now() - started) / 1000;
  const find = (model, n, effect, adaptive = false) => results.find((r) => r.model === model && r.n === n && r.effect === effect && Boolean(r.adaptive) === adaptive);
  const rate = (k, n) => pct(k, n);

  const lines = [];
  lines.push(`trials: ${opts.trialsAA} A/A and ${opts.trialsAB} per A/B cell; 4 metrics per comparison (decode tok/s, TPOT, prefill tok/s, TTFT); gate options ${JSON.stringify(opts.gateOptions)} over the defaults; ${wall.toFixed(0)} s on ${workers} worker(s)`);
  lines.push(`95% binomial (Wilson) interval: 0 of ${opts.trialsAA} A/A is < ${(100 * wilson(0, opts.trialsAA)[1]).toFixed(2)}%, 1% of them ${ci(Math.round(opts.trialsAA / 100), opts.trialsAA)}; 95% of ${opts.trialsAB} A/B is ${ci(Math.round(0.95 * opts.trialsAB), opts.trialsAB)}`);
  lines.push('');
  lines.push('The gate (defaults):');
  lines.push('');
  lines.push('| model | n/side | A/A fail % | A/A warn % | A/A pass % | fail @ −2% | fail @ −5% | fail @ −6% | fail @ −10% | fail or warn @ −6% | pass @ −5% |');
  lines.push('|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
  for (const model of names) {
    for (const n of opts.sizes) {
      const aa = find(model, n, 0);
      const ab = EFFECTS.map((e) => find(model, n, e));
      const six = find(model, n, 0.06);
      const five = find(model, n, 0.05);
      lines.push(`| ${model} | ${n} | ${rate(aa.counts.fail, aa.trials)} | ${rate(aa.counts.warn, aa.trials)} | ${rate(aa.counts.pass, aa.trials)} | ${ab.map((r) => rate(r.counts.fail, r.trials)).join(' | ')} | ${rate(six.counts.fail + six.counts.warn, six.trials)} | ${rate(five.counts.pass, five.trials)} |`);
    }
  }
  lines.push('');
  lines.push('Every rule on the same samples: fail % as A/A / −2% / −5% / −6% / −10% (`today`: the gate without the outlier rule; anchors on the mean or median of the runs, any of the four metrics):');
  lines.push('');
  lines.push(`| model | n/side | ${RULES.join(' | ')} |`);
  lines.push(`|---|---:|${RULES.map(() => '---|').join('')}`);
  for (const model of names) {
    for (const n of opts.sizes) {
      const cells = [0, ...EFFECTS].map((e) => find(model, n, e));
      lines.push(`| ${model} | ${n} | ${RULES.map((rule) => cells.map((r) => rate(r.fails[rule], r.trials)).join(' / ')).join(' | ')} |`);
    }
  }
  if (!opts.noAdaptive) {
    lines.push('');
    lines.push(`Adaptive A/B: ${ADAPTIVE.planned} planned runs per side, one ABBA pair (2 per side) more while a gated metric is undecided, up to ${ADAPTIVE.max}; alpha spent over the looks. Fixed ${ADAPTIVE.planned} beside it:`);
    lines.push('');
    lines.push('| model | A/A fail % (fixed 5) | A/A warn % (fixed 5) | runs/side A/A: mean, p95 | fail @ −2% | −5% | −6% (fixed 5) | −10% | runs/side @ −6%: mean, p95 | warn @ −6% |');
    lines.push('|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
    for (const model of names) {
      const aa = find(model, ADAPTIVE.planned, 0, true);
      const fixedAa = find(model, ADAPTIVE.planned, 0);
      const ab = EFFECTS.map((e) => find(model, ADAPTIVE.planned, e, true));
      const six = find(model, ADAPTIVE.planned, 0.06, true);
      const fixedSix = find(model, ADAPTIVE.planned, 0.06);
      const cells = ab.map((r, i) => (EFFECTS[i] === 0.06 ? `${rate(r.counts.fail, r.trials)} (${rate(fixedSix.counts.fail, fixedSix.trials)})` : rate(r.counts.fail, r.trials)));
      lines.push(`| ${model} | ${rate(aa.counts.fail, aa.trials)} (${rate(fixedAa.counts.fail, fixedAa.trials)}) | ${rate(aa.counts.warn, aa.trials)} (${rate(fixedAa.counts.warn, fixedAa.trials)}) | ${aa.meanRuns.toFixed(1)}, ${aa.p95Runs} | ${cells.join(' | ')} | ${six.meanRuns.toFixed(1)}, ${six.p95Runs} | ${rate(six.counts.warn, six.trials)} |`);
    }
  }
  const fixed = results.filter((r) => r.kind === 'fixed');
  const allCalls = fixed.reduce((s, r) => s + r.trials, 0);
  const meanMs = fixed.reduce((s, r) => s + r.msPerCall * r.trials, 0) / allCalls;
  const timing = await timeCompare(10, 200);
  lines.push('');
  lines.push(`compare() wall time inside the workers: ${meanMs.toFixed(2)} ms per call on average over ${allCalls} calls`);
  lines.push(`compare() alone afterwards, 10 samples per side, 4 metrics: ${timing.cpuMs.toFixed(2)} ms CPU, ${timing.wallMs.toFixed(2)} ms wall per call`);
  lines.push('');
  lines.push('models:');
  for (const model of names) lines.push(`- ${model}: ${models[model].about}`);
  console.log(lines.join('\n'));
  mkdirSync(dirname(opts.json), { recursive: true });
  writeFileSync(opts.json, JSON.stringify({ options: opts, wallSeconds: wall, results }, null, 2));
}

/**
 * The trials of one fixed cell whose verdict is not `fail` (A/B) or is `fail` (A/A), grouped by
 * what the decode row said and by how many runs of each side were slow by more than 3% (stalls),
 * with the first few samples of each group: why the gate missed them.
 */
async function listMisses(opts) {
  const [model, nText, effectText] = opts.misses.split(':');
  const n = Number(nText);
  const effect = Number(effectText ?? 0);
  const { compare, mulberry32 } = await loadCompiled();
  const models = makeModels(loadH200());
  if (!models[model]) throw new Error(`unknown model ${model}`);
  const trials = effect ? opts.trialsAB : opts.trialsAA;
  const random = mulberry32(opts.seed * 7919);
  const groups = new Map();
  const causes = new Map();
  let misses = 0;
  const rel = (samples, level) => samples.map((v) => Number((v / level).toFixed(4)));
  for (let t = 0; t < trials; t += 1) {
    const [current, baseline] = trialInputs(models[model], random, n, effect)(n);
    const { verdict, comparison } = compare(current, baseline, { ...opts.gateOptions, seed: t + 1 });
    if ((effect > 0) === (verdict === 'fail')) continue;
    misses += 1;
    const base = baseline.metrics[0].samples;
    const cur = current.metrics[0].samples;
    const stalls = (samples, level) => samples.filter((v) => v < 0.97 * level).length;
    const decode = comparison.rows.find((r) => r.metric === 'decode_tok_s');
    const tpot = comparison.rows.find((r) => r.metric === 'tpot_ms');
    const [nBase, nCur] = decode.samples ?? [0, 0];
    const [sBase, sCur] = [stalls(base, LEVEL_DECODE), stalls(cur, LEVEL_DECODE * (1 - effect))];
    // Stalled runs still in the test: a side's runs minus those it kept that were not stalled.
    const keptStalls = (kept, stalled) => Math.max(0, kept - (n - stalled));
    const [kBase, kCur] = [keptStalls(nBase, sBase), keptStalls(nCur, sCur)];
    let cause;
    const failing = comparison.rows.filter((r) => r.status === 'fail' && r.metric !== 'decode_tok_s' && r.metric !== 'tpot_ms');
    if (!effect && failing.length) cause = `${failing.map((r) => r.metric).join(', ')} failed${failing.some((r) => /censored/.test(r.note ?? '')) ? ', with censored runs' : ''}`;
    else if (decode.status === 'fail') cause = `decode fails, verdict ${verdict} (tpot ${tpot.status})`;
    else if (kBase > 0 && sBase * 2 > n) cause = `most baseline runs stalled (${sBase} of ${n})`;
    else if (kBase > 0) cause = `${kBase} stalled baseline run(s) kept (a "mode"), ${decode.status}`;
    else if (kCur > 0 && sCur * 2 > n) cause = `most current runs stalled (${sCur} of ${n})`;
    else if (Math.min(nBase, nCur) <= 3) cause = `every stalled run left out (outlier or warm-up), ${nBase} vs ${nCur} runs kept: the rank test's floor (${decode.status})`;
    else cause = `other: ${decode.status}`;
    const key = `${cause} [stalls ${sBase}/${sCur}, kept ${nBase} vs ${nCur}]`;
    const group = groups.get(key) ?? { count: 0, examples: [] };
    group.count += 1;
    // The row that failed an A/A trial (prefill or TTFT have their own draws), else decode.
    const shown = !effect && failing.length ? failing[0] : decode;
    const metricOf = (m) => (shown.metric === 'decode_tok_s' ? m.metrics[0] : m.metrics.find((x) => x.name === shown.metric));
    const level = metricOf(baseline).value;
    if (group.examples.length < 3) group.examples.push({ base: rel(metricOf(baseline).samples, level), cur: rel(metricOf(current).samples, level), p: shown.pValue, note: `${shown.metric}: ${shown.note}`, reasons: comparison.reasons.slice(0, 2) });
    groups.set(key, group);
    const general = cause.replace(/\d+ vs \d+/, 'k vs m');
    causes.set(general, (causes.get(general) ?? 0) + 1);
  }
  console.log(`${model}, ${n} per side, effect ${effect}: ${misses} of ${trials} trials ${effect ? 'not failed' : 'failed'}`);
  for (const [cause, count] of [...causes].sort((a, b) => b[1] - a[1])) console.log(`  ${count} × ${cause}`);
  for (const [key, group] of [...groups].sort((a, b) => b[1].count - a[1].count)) {
    console.log(`\n${group.count} × ${key}`);
    for (const e of group.examples) console.log(`  base ${e.base.join(' ')} | cur ${e.cur.join(' ')} | p ${e.p}\n    ${e.note}`);
  }
}

/**
 * The goal under a real neighbour, side by side: a 5% regression at up to 10 runs per side fails or
 * is insufficient-data, never passes; an A/A never fails. Each source through the real compare(),
 * decode tok/s and TPOT of the same runs (what the recording has):
 * - `fitted model`: both sides drawn from bench/data/h200-neighbour/fit.json; −5%: the current ×0.95.
 * - `real A/A, resampled`: a recorded A/A job drawn at random, its sides in a random orientation,
 *   n runs of each side drawn without replacement and kept in the order they ran (the job's level
 *   offset, its neighbour and each side's spread as recorded); −5%: the same with the current ×0.95.
 * - `real A/B heads, resampled`: a recorded A/B job (base: the build; head: the build with a spin
 *   kernel, its own noise under the neighbour), n runs of each side as above, the head rescaled so
 *   that its level (median of its faster half) is 95% of the base's.
 * - `recorded jobs`: each job's first n runs per side as they ran (A/A; A/A with the head ×0.95; A/B
 *   with the head rescaled to −5% as above).
 * Then the fit check (the model's runs beside the recorded ones) and the adaptive A/B.
 */
async function neighbourTable(opts) {
  const jobs = loadNeighbourJobs();
  const model = loadNeighbourFit();
  if (!jobs || !model) {
    console.log(`no neighbour data: ${jobs ? NEIGHBOUR_FIT : NEIGHBOUR_DATA} is missing (bash bench/data/h200-neighbour/rebuild.sh makes both)`);
    return;
  }
  if (model.stale) console.log(`warning: ${NEIGHBOUR_FIT} was fitted to another ${NEIGHBOUR_DATA} (its sha256 differs): run bash bench/data/h200-neighbour/rebuild.sh`);
  const started = performance.now();
  const { compare, mulberry32, lookSchedule } = await loadCompiled();
  const sizes = opts.sizes === SIZES ? [5, 7, 10] : opts.sizes;
  const verdictCounts = () => ({ fail: 0, 'insufficient-data': 0, warn: 0, pass: 0, invalid: 0 });
  const cell = (counts) => `${counts.fail} / ${counts['insufficient-data']} / ${counts.warn} / ${counts.pass}`;
  // `seen`: the runs the GPU sampler saw the neighbour in (one flag per run), as the report's gpuSharing carries them.
  const sharingOf = (seen) => ({
    runs: seen.map((shared, i) => ({
      run: i + 1,
      listed: true,
      shared,
      neighbours: shared ? [{ pid: 4242, evidence: 'process', device: 0, samples: 4, maxSmPercent: 30, maxMemoryBytes: null }] : [],
      unknownPids: [],
      samples: { decode_tok_s: 1, tpot_ms: 1 },
    })),
  });
  const side = (runs, seen) => ({
    metrics: [metric('decode_tok_s', 'tok/s', 'higher', runs), metric('tpot_ms', 'ms', 'lower', runs.map((v) => 1000 / v))],
    kernels: [],
    families: [],
    findings: [],
    utilization: null,
    environment: { gpuName: 'NVIDIA H200', engine: 'neighbour' },
    ...(seen ? { gpuSharing: sharingOf(seen) } : {}),
  });
  const aaJobs = jobs.filter((j) => j.kind === 'aa');
  const abJobs = jobs.filter((j) => j.kind === 'ab');
  /** n of the runs, drawn without replacement, in the order they ran (else in the order drawn: the adaptive A/B's looks take prefixes). */
  const subset = (random, runs, n, ordered = true) => {
    const idx = runs.map((_, i) => i);
    for (let i = idx.length - 1; i > 0; i -= 1) {
      const j = Math.floor(random() * (i + 1));
      [idx[i], idx[j]] = [idx[j], idx[i]];
    }
    const picked = idx.slice(0, n);
    return (ordered ? picked.sort((a, b) => a - b) : picked).map((i) => runs[i]);
  };
  /** The head of an A/B job rescaled so that its level is `1 − effect` of the base's. */
  const rescaled = (job, effect) => {
    const k = ((1 - effect) * relativeSide(job.base).level) / relativeSide(job.head).level;
    return job.head.map((v) => v * k);
  };
  // `profile-gate run` starts each measured run as its own process. A recording of one process per
  // side (the 16-layer one: 12 runs each) holds one process offset per side, which then acts as a
  // change between the sides; run by run it is noise within each side. The `one process per run`
  // sources treat it as a random effect: each such side's runs relative to its own level, each run
  // then offset by a process offset drawn from the family's measured ones (± half the log ratio of
  // each A/A job's two levels). Recordings of several processes a side (the 4-layer jobs, 3 runs a
  // process) are kept as they ran. The fitted model draws the offset per run (processOffsetSd).
  const onePerSide = (job) => (job.perProcess ?? 1) >= Math.max(job.base.length, job.head.length);
  const familyOffsets = new Map();
  for (const job of aaJobs.filter(onePerSide)) {
    const half = Math.log(relativeSide(job.head).level / relativeSide(job.base).level) / 2;
    familyOffsets.set(job.family, [...(familyOffsets.get(job.family) ?? []), half, -half]);
  }
  const perRunSd = Object.fromEntries(model.fit.families.map((f) => [f.name, processOffsetSd(f, jobs)]));
  /** A side's runs with its process offset redrawn run by run (one process per run), at `level`. */
  const perRunProcesses = (random, job, runs, level) => {
    if (!onePerSide(job)) return runs;
    const offsets = familyOffsets.get(job.family) ?? [0];
    const own = relativeSide(runs).level;
    return runs.map((v) => (v / own) * level * Math.exp(offsets[Math.floor(random() * offsets.length)]));
  };
  // Each source: (random, n) → { base, cur } at the regression asked for (0 or 0.05), or null where it has none.
  const sources = {
    'fitted model': (random, n, effect) => {
      const { base, cur, slowed } = fittedPair(model.fit, random, n);
      return { base, cur: cur.map((v) => v * (1 - effect)), slowed };
    },
    'real A/A, resampled': (random, n, effect, ordered) => {
      const job = aaJobs[Math.floor(random() * aaJobs.length)];
      const [a, b] = random() < 0.5 ? [job.base, job.head] : [job.head, job.base];
      const m = Math.min(n, a.length, b.length);
      return { job: job.name, base: subset(random, a, m, ordered), cur: subset(random, b, m, ordered).map((v) => v * (1 - effect)) };
    },
    'real A/B heads, resampled': (random, n, effect, ordered) => {
      if (!effect) return null;
      const job = abJobs[Math.floor(random() * abJobs.length)];
      const m = Math.min(n, job.base.length, job.head.length);
      return { job: job.name, base: subset(random, job.base, m, ordered), cur: subset(random, rescaled(job, effect), m, ordered) };
    },
    'fitted model, one process per run': (random, n, effect) => {
      const { base, cur } = fittedPair(model.fit, random, n, perRunSd);
      return { base, cur: cur.map((v) => v * (1 - effect)) };
    },
    'real A/A, one process per run': (random, n, effect, ordered) => {
      const job = aaJobs[Math.floor(random() * aaJobs.length)];
      const [a, b] = random() < 0.5 ? [job.base, job.head] : [job.head, job.base];
      const m = Math.min(n, a.length, b.length);
      const level = relativeSide(a).level;
      const base = perRunProcesses(random, job, subset(random, a, m, ordered), level);
      const cur = perRunProcesses(random, job, subset(random, b, m, ordered), level);
      return { job: job.name, base, cur: cur.map((v) => v * (1 - effect)) };
    },
    'real A/B heads, one process per run': (random, n, effect, ordered) => {
      if (!effect) return null;
      const job = abJobs[Math.floor(random() * abJobs.length)];
      const m = Math.min(n, job.base.length, job.head.length);
      const level = relativeSide(job.base).level;
      const base = perRunProcesses(random, job, subset(random, job.base, m, ordered), level);
      const cur = perRunProcesses(random, job, subset(random, rescaled(job, effect), m, ordered), (1 - effect) * level);
      return { job: job.name, base, cur };
    },
  };
  const lines = [];
  const trials = { 0: opts.trialsAA, 0.05: opts.trialsAB };
  lines.push(`Under the real neighbour: verdicts as fail / insufficient-data / warn / pass; ${opts.trialsAA} A/A and ${opts.trialsAB} −5% trials per drawn cell; decode tok/s and TPOT of the same runs; gate options ${JSON.stringify(opts.gateOptions)} over the defaults. Recording: ${jobs.length} jobs (${aaJobs.length} A/A, ${abJobs.length} A/B), ${model.fit.families.map((f) => f.name).join(', ')}.`);
  lines.push('');
  lines.push('| source | runs/side | A/A | −5% | A/A fail | −5% pass |');
  lines.push('|---|---:|---|---|---:|---:|');
  let seed = 1;
  // The fitted model once more with the neighbour seen: the same draws (same seeds), each side's
  // runs the model slowed flagged as shared, as if the sampler saw the neighbour exactly there.
  const SEEN = 'fitted model, neighbour seen (assumed detection)';
  // The other bracket: the neighbour busy, and so seen, during every run of both sides.
  const SEEN_ALL = 'fitted model, neighbour seen in every run';
  // Every source once more with every run of both sides flagged as shared (as on the H200).
  const seenAllOf = (name) => (name === 'fitted model' ? SEEN_ALL : `${name}, neighbour seen in every run`);
  const seenRows = [];
  const seenAllRows = [];
  // --seed 1 gives the seeds of the tables above; another --seed draws other trials (held out).
  // The sources added with `one process per run` draw from their own range, so the first three keep their seeds.
  let laterSeed = 1000;
  const seedOf = (name) => 7919 * (/one process per run/.test(name ?? '') ? laterSeed++ : seed++) + 104729 * (opts.seed - 1);
  const bootSeed = (t) => t + 1 + 1000003 * (opts.seed - 1);
  const misses = [];
  const coverage = [];
  const missed = (where, effect, t, base, cur, result, job) => {
    if ((effect > 0 ? result.verdict !== 'pass' : result.verdict !== 'fail') || !opts.dump) return;
    const level = median(base);
    const rowOf = (name) => {
      const r = result.comparison.rows.find((x) => x.metric === name);
      return r && { status: r.status, delta: r.delta, ci: r.ci, p: r.pValue, samples: r.samples, leftOut: r.leftOut, outcome: r.reading?.outcome, stalls: r.reading?.stalls?.map((s) => ({ side: s.side, runs: s.runs.map((x) => x.run), found: s.found })), warmup: r.reading?.warmupDropped?.map((w) => w.side), insufficient: r.insufficient?.why, noisy: r.reading?.noisy, overlap: r.reading?.overlap, drift: r.reading?.drift };
    };
    misses.push({ ...where, effect, trial: t, job, verdict: result.verdict, base: base.map((v) => Number((v / level).toFixed(4))), cur: cur.map((v) => Number((v / level).toFixed(4))), decode: rowOf('decode_tok_s'), tpot: rowOf('tpot_ms') });
  };
  for (const [name, draw] of Object.entries(sources)) {
    if (opts.sources && !opts.sources.includes(name)) {
      for (let k = 0; k < 2 * sizes.length; k += 1) seedOf(name);
      continue;
    }
    for (const n of sizes) {
      const counts = {};
      const seenCounts = {};
      const seenAllCounts = {};
      for (const effect of [0, 0.05]) {
        const cellSeed = seedOf(name);
        const random = mulberry32(cellSeed);
        if (!draw(random, n, effect)) continue;
        const c = verdictCounts();
        const cov = { below: 0, above: 0, of: 0 };
        for (let t = 0; t < trials[effect]; t += 1) {
          const { base, cur, job } = draw(random, n, effect);
          const result = compare(side(cur), side(base), { ...opts.gateOptions, seed: bootSeed(t) });
          c[result.verdict] += 1;
          missed({ source: name, n }, effect, t, base, cur, result, job);
          // The decode row's interval against the change made (0, or −5%): wholly below it (worse) or above.
          const ci = result.comparison.rows.find((r) => r.metric === 'decode_tok_s')?.ci;
          if (ci) {
            cov.of += 1;
            if (ci[1] < -effect) cov.below += 1;
            if (ci[0] > -effect) cov.above += 1;
          }
        }
        coverage.push(`| ${name} | ${n} | ${effect ? '−5%' : 'A/A'} | ${cov.of} | ${pct(cov.below, cov.of)}% | ${pct(cov.above, cov.of)}% |`);
        counts[effect] = c;
        if (name === 'fitted model') {
          const again = mulberry32(cellSeed);
          draw(again, n, effect);
          const seen = verdictCounts();
          for (let t = 0; t < trials[effect]; t += 1) {
            const { base, cur, slowed } = draw(again, n, effect);
            seen[compare(side(cur, slowed.cur), side(base, slowed.base), { ...opts.gateOptions, seed: bootSeed(t) }).verdict] += 1;
          }
          seenCounts[effect] = seen;
        }
        const third = mulberry32(cellSeed);
        draw(third, n, effect);
        const all = verdictCounts();
        for (let t = 0; t < trials[effect]; t += 1) {
          const { base, cur, job } = draw(third, n, effect);
          const result = compare(side(cur, cur.map(() => true)), side(base, base.map(() => true)), { ...opts.gateOptions, seed: bootSeed(t) });
          all[result.verdict] += 1;
          missed({ source: seenAllOf(name), n }, effect, t, base, cur, result, job);
        }
        seenAllCounts[effect] = all;
      }
      const aa = counts[0];
      const ab = counts[0.05];
      if (!ab) continue;
      lines.push(`| ${name} | ${n} | ${aa ? cell(aa) : '–'} | ${cell(ab)} | ${aa ? `${pct(aa.fail, opts.trialsAA)}%` : '–'} | ${pct(ab.pass, opts.trialsAB)}% |`);
      if (seenCounts[0]) seenRows.push(`| ${SEEN} | ${n} | ${cell(seenCounts[0])} | ${cell(seenCounts[0.05])} | ${pct(seenCounts[0].fail, opts.trialsAA)}% | ${pct(seenCounts[0.05].pass, opts.trialsAB)}% |`);
      const seenAllRow = (counts) => `| ${seenAllOf(name)} | ${n} | ${counts[0] ? cell(counts[0]) : '–'} | ${cell(counts[0.05])} | ${counts[0] ? `${pct(counts[0].fail, opts.trialsAA)}%` : '–'} | ${pct(counts[0.05].pass, opts.trialsAB)}% |`;
      if (name !== 'fitted model') lines.push(seenAllRow(seenAllCounts));
      else if (seenAllCounts[0]) seenAllRows.push(`| ${SEEN_ALL} | ${n} | ${cell(seenAllCounts[0])} | ${cell(seenAllCounts[0.05])} | ${pct(seenAllCounts[0].fail, opts.trialsAA)}% | ${pct(seenAllCounts[0.05].pass, opts.trialsAB)}% |`);
    }
    if (name === 'fitted model') lines.push(...seenRows, ...seenAllRows);
  }
  lines.push('', "The decode row's 90% interval against the change made (each side 5% at most when it covers):", '', '| source | runs/side | change | intervals | wholly below it | wholly above it |', '|---|---:|---|---:|---:|---:|', ...coverage, '');
  // The recorded jobs as they ran: each side's first n runs.
  const recordedRows = [
    ['recorded A/A jobs', aaJobs, (job) => job.head, 0],
    ['recorded A/A jobs, head ×0.95', aaJobs, (job) => job.head.map((v) => v * 0.95), 0.05],
    ['recorded A/B jobs, head at −5%', abJobs, (job) => rescaled(job, 0.05), 0.05],
    ['recorded A/B jobs as they ran (−4.45%, −6.3% by construction)', abJobs, (job) => job.head, 0.05],
  ];
  for (const [name, list, headOf, effect] of opts.noRecorded ? [] : recordedRows) {
    for (const n of sizes) {
      const c = verdictCounts();
      let count = 0;
      for (const job of list) {
        if (Math.min(job.base.length, job.head.length) < n) continue;
        c[compare(side(headOf(job).slice(0, n)), side(job.base.slice(0, n)), opts.gateOptions).verdict] += 1;
        count += 1;
      }
      lines.push(effect ? `| ${name} | ${n} | | ${cell(c)} of ${count} | | ${c.pass} of ${count} |` : `| ${name} | ${n} | ${cell(c)} of ${count} | | ${c.fail} of ${count} | |`);
    }
  }
  // The adaptive A/B: 5 planned, ABBA pairs while undecided, up to 15 (the model) or what was recorded.
  lines.push('');
  lines.push('Adaptive A/B (5 planned runs per side, 2 more per look while undecided, alpha spent over the looks; the final look as the runner makes it):');
  lines.push('');
  lines.push('| source | max runs/side | A/A | −5% | mean runs/side at −5% |');
  lines.push('|---|---:|---|---|---:|');
  const adaptive = (draw, effect, count, seedValue, where, withSeen = false) => {
    const random = mulberry32(seedValue);
    const c = verdictCounts();
    let runsSum = 0;
    for (let t = 0; t < count; t += 1) {
      const { base, cur, job, slowed } = draw(random, 15, effect, false, t);
      const max = Math.min(15, base.length, cur.length);
      const looks = lookSchedule(5, max);
      // withSeen: the runs the model slowed flagged as shared ('slowed'), or every run ('all').
      const flags = (runs, hit) => (withSeen === 'all' ? runs.map(() => true) : withSeen ? hit : undefined);
      const at = (k) => [side(cur.slice(0, k), flags(cur.slice(0, k), slowed?.cur.slice(0, k))), side(base.slice(0, k), flags(base.slice(0, k), slowed?.base.slice(0, k)))];
      let k = 0;
      for (; k < looks.length; k += 1) {
        const result = compare(...at(looks[k]), { ...opts.gateOptions, seed: bootSeed(t), look: { index: k + 1, of: looks.length } });
        if (result.verdict === 'fail' || !result.comparison.undecided.length) break;
      }
      const last = Math.min(k, looks.length - 1);
      const n = looks[last];
      const result = compare(...at(n), { ...opts.gateOptions, seed: bootSeed(t), look: { index: last + 1, of: looks.length, final: true } });
      c[result.verdict] += 1;
      if (where) missed({ ...where, n, looks: last + 1 }, effect, t, base.slice(0, n), cur.slice(0, n), result, job);
      runsSum += n;
    }
    return { c, meanRuns: runsSum / count };
  };
  for (const [name, draw] of opts.noAdaptive ? [] : Object.entries(sources)) {
    const hasAA = draw(mulberry32(1), 15, 0);
    if (opts.sources && !opts.sources.includes(name)) {
      for (let k = 0; k < (hasAA ? 2 : 1); k += 1) seedOf(name);
      continue;
    }
    const aaSeed = hasAA ? seedOf(name) : null;
    const abSeed = seedOf(name);
    const aa = hasAA ? adaptive(draw, 0, opts.trialsAA, aaSeed, { source: name, adaptive: true }) : null;
    const ab = adaptive(draw, 0.05, opts.trialsAB, abSeed, { source: name, adaptive: true });
    lines.push(`| ${name} | 15, or as recorded | ${aa ? cell(aa.c) : '–'} | ${cell(ab.c)} | ${ab.meanRuns.toFixed(1)} |`);
    if (name === 'fitted model') {
      const seenAa = adaptive(draw, 0, opts.trialsAA, aaSeed, null, true);
      const seenAb = adaptive(draw, 0.05, opts.trialsAB, abSeed, null, true);
      lines.push(`| ${SEEN} | 15 | ${cell(seenAa.c)} | ${cell(seenAb.c)} | ${seenAb.meanRuns.toFixed(1)} |`);
    }
    const allAa = hasAA ? adaptive(draw, 0, opts.trialsAA, aaSeed, { source: seenAllOf(name), adaptive: true }, 'all') : null;
    const allAb = adaptive(draw, 0.05, opts.trialsAB, abSeed, { source: seenAllOf(name), adaptive: true }, 'all');
    lines.push(`| ${seenAllOf(name)} | 15, or as recorded | ${allAa ? cell(allAa.c) : '–'} | ${cell(allAb.c)} | ${allAb.meanRuns.toFixed(1)} |`);
  }
  const inOrder = (list, headOf) => (_random, _n, _effect, _ordered, t) => ({ base: list[t].base, cur: headOf(list[t]) });
  const rec = [
    ['recorded A/A jobs', aaJobs, (job) => job.head, 0],
    ['recorded A/A jobs, head ×0.95', aaJobs, (job) => job.head.map((v) => v * 0.95), 0.05],
    ['recorded A/B jobs, head at −5%', abJobs, (job) => rescaled(job, 0.05), 0.05],
  ];
  for (const [name, list, headOf, effect] of opts.noRecorded || opts.noAdaptive ? [] : rec) {
    const r = adaptive(inOrder(list, headOf), 0, list.length, seedOf());
    lines.push(effect ? `| ${name} | as recorded | | ${cell(r.c)} of ${list.length} | ${r.meanRuns.toFixed(1)} |` : `| ${name} | as recorded | ${cell(r.c)} of ${list.length} | | |`);
  }
  if (!opts.noFitCheck) {
    lines.push('');
    lines.push(`The fit against the recorded runs (${NEIGHBOUR_FIT.replace(`${root}/`, '')}; 200 simulated sides per recorded one, seeded):`);
    lines.push('');
    lines.push(...checkFit(jobs, model.fit, mulberry32(4242)));
  }
  if (opts.dump) {
    mkdirSync(dirname(opts.dump), { recursive: true });
    writeFileSync(opts.dump, JSON.stringify({ seed: opts.seed, gateOptions: opts.gateOptions, misses }, null, 1));
    lines.push('', `${misses.length} missed trials (A/A fail, −5% pass) → ${opts.dump}`);
  }
  lines.push('');
  lines.push(`${((performance.now() - started) / 1000).toFixed(0)} s`);
  console.log(lines.join('\n'));
}

/** Wilson score interval of k successes in n trials, 95%. */
function wilson(k, n, z = 1.96) {
  const p = k / n;
  const denom = 1 + (z * z) / n;
  const center = (p + (z * z) / (2 * n)) / denom;
  const half = (z * Math.sqrt((p * (1 - p)) / n + (z * z) / (4 * n * n))) / denom;
  return [Math.max(0, center - half), Math.min(1, center + half)];
}
const ci = (k, n) => {
  const [lo, hi] = wilson(k, n);
  return `${(100 * lo).toFixed(2)}–${(100 * hi).toFixed(2)}%`;
};

if (isMainThread) {
  main().catch((error) => {
    console.error(error);
    process.exit(1);
  });
} else {
  workerMain();
}
