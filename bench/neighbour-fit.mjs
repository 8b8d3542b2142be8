/**
 * The noisy-neighbour noise model, fitted to real runs: A/A and known-regression A/B jobs recorded on
 * an H200 while another process ran matmul bursts on the same GPU (the recordings and where they
 * come from: __tests__/fixtures/h200-neighbour/PROVENANCE.md). Used by bench/gate-sim.mjs for the
 * `neighbour-fit` model (drawn from the fitted parameters), `neighbour-resample` (the real runs'
 * relative speeds resampled) and `neighbour-jobs` (the recorded jobs themselves, through the gate).
 *
 * The data, one JSON document (`jobs.json`): { jobs: [{ name, kind: 'aa' | 'ab', effect, seed,
 * base: [tok/s per run, in run order], head: [...], order?: ['base' | 'head', ...] (the job's run
 * order over both sides), clocks?: {...} }] }.
 *
 * The fit, per side of a job: its level is the median of its faster half of runs (a neighbour only
 * slows a run down); each run's speed relative to that level; the clean jitter is the robust sd of
 * the faster half; a run is slowed when it lies below the level by more than 5 clean sd and 1%. Over
 * all sides: the share of slowed runs, their losses (log-normal: the mean and sd of ln loss), the
 * chance a run is slowed after a slowed run of the job (bursts that span runs, in the job's run
 * order where it is recorded), and the spread of the two sides' levels in A/A jobs (an offset
 * between sides no change made). The first run of a side is fitted apart (warm-up).
 *
 *   node bench/neighbour-fit.mjs [path/to/jobs.json]    # prints the fitted parameters
 */
import { readFileSync, existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
/** The recorded jobs; GATE_SIM_NEIGHBOUR names another file of the same shape. */
export const NEIGHBOUR_DATA = process.env.GATE_SIM_NEIGHBOUR || join(here, '..', '__tests__', 'fixtures', 'h200-neighbour', 'jobs.json');

const median = (values) => {
  const s = [...values].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};
const mad = (values) => {
  const c = median(values);
  return median(values.map((v) => Math.abs(v - c)));
};
const mean = (values) => values.reduce((a, b) => a + b, 0) / values.length;
const sd = (values) => {
  if (values.length < 2) return 0;
  const m = mean(values);
  return Math.sqrt(values.reduce((a, v) => a + (v - m) ** 2, 0) / (values.length - 1));
};

export function loadNeighbourJobs(path = NEIGHBOUR_DATA) {
  if (!existsSync(path)) return null;
  const data = JSON.parse(readFileSync(path, 'utf8'));
  return data.jobs;
}

/** A side's runs relative to its level (the median of its faster half), and its clean jitter. */
export function relativeSide(runs) {
  const sorted = [...runs].sort((a, b) => b - a);
  const fast = sorted.slice(0, Math.max(2, Math.ceil(runs.length / 2)));
  const level = median(fast);
  const rel = runs.map((v) => v / level);
  const jitter = Math.max((1.4826 * mad(fast)) / level, 1e-4);
  return { level, rel, jitter };
}

/** The slowed threshold of a side: 5 clean sd and 1% below its level. */
const slowedBelow = (jitter) => 1 - Math.max(5 * jitter, 0.01);

/**
 * The fitted parameters. `warmup`: the first run's own share slowed and losses (a run right after the
 * process starts); `runs`: the rest. Losses as fractions (0.05 = 5% slower).
 */
export function fitNeighbour(jobs) {
  const sides = [];
  for (const job of jobs) {
    for (const which of ['base', 'head']) {
      // A regressed head is scaled back by its known effect only through its level: relative speeds are level-free.
      const runs = job[which];
      if (!runs || runs.length < 3) continue;
      sides.push({ job, which, ...relativeSide(runs) });
    }
  }
  const jitters = sides.map((s) => s.jitter);
  const first = { n: 0, slowed: 0, losses: [] };
  const rest = { n: 0, slowed: 0, losses: [] };
  let afterSlow = 0;
  let afterSlowSlowed = 0;
  let afterClean = 0;
  let afterCleanSlowed = 0;
  const flags = new Map();
  for (const side of sides) {
    const below = slowedBelow(side.jitter);
    const slowed = side.rel.map((x) => x < below);
    flags.set(`${side.job.name}:${side.which}`, slowed);
    side.rel.forEach((x, i) => {
      const bucket = i === 0 ? first : rest;
      bucket.n += 1;
      if (slowed[i]) {
        bucket.slowed += 1;
        bucket.losses.push(1 - x);
      }
    });
  }
  // Persistence in time: the job's runs over both sides in the order they ran (ABBA unless recorded).
  for (const job of jobs) {
    const base = flags.get(`${job.name}:base`);
    const head = flags.get(`${job.name}:head`);
    if (!base || !head) continue;
    const timeline = runOrder(job).map(([which, i]) => (which === 'base' ? base[i] : head[i])).filter((f) => f !== undefined);
    for (let t = 1; t < timeline.length; t += 1) {
      if (timeline[t - 1]) {
        afterSlow += 1;
        if (timeline[t]) afterSlowSlowed += 1;
      } else {
        afterClean += 1;
        if (timeline[t]) afterCleanSlowed += 1;
      }
    }
  }
  const logLoss = (losses) => ({ mu: losses.length ? mean(losses.map(Math.log)) : Math.log(0.05), sigma: losses.length > 1 ? sd(losses.map(Math.log)) : 0.5 });
  // A/A jobs: the spread of ln(head level / base level), an offset between sides no change made.
  const offsets = jobs
    .filter((job) => job.kind === 'aa' && job.base?.length >= 3 && job.head?.length >= 3)
    .map((job) => Math.log(relativeSide(job.head).level / relativeSide(job.base).level));
  return {
    sides: sides.length,
    runs: first.n + rest.n,
    jitter: median(jitters),
    jitterMax: Math.max(...jitters),
    first: { pSlowed: first.n ? first.slowed / first.n : 0, ...logLoss(first.losses), n: first.n },
    rest: { pSlowed: rest.n ? rest.slowed / rest.n : 0, ...logLoss(rest.losses), n: rest.n, lossMin: Math.min(...rest.losses), lossMax: Math.max(...rest.losses) },
    persistence: {
      afterSlowed: afterSlow ? afterSlowSlowed / afterSlow : null,
      afterClean: afterClean ? afterCleanSlowed / afterClean : null,
      pairs: afterSlow + afterClean,
    },
    sideOffsetSd: offsets.length >= 2 ? sd(offsets) : offsets.length ? Math.abs(offsets[0]) : 0,
    aaJobs: offsets.length,
    losses: rest.losses,
  };
}

/**
 * The order a job's runs ran in, as [side, index] over both sides: as recorded (`order`, one side
 * label per run), else the runner's ABBA (base 1, head 1, head 2, base 2, base 3, head 3, …).
 */
export function runOrder(job) {
  if (Array.isArray(job.order) && job.order.length) {
    const seen = { base: 0, head: 0 };
    return job.order.map((which) => [which, seen[which]++]);
  }
  const n = Math.max(job.base?.length ?? 0, job.head?.length ?? 0);
  const out = [];
  for (let i = 0; i < n; i += 1) out.push(...(i % 2 ? [['head', i], ['base', i]] : [['base', i], ['head', i]]));
  return out;
}

function gaussian(random) {
  const u = 1 - random();
  const v = random();
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
}

/**
 * Both sides of an A/B job of n runs per side from the fitted parameters, in the runner's ABBA
 * order: a two-state chain over the job's time (slowed after a slowed run with the fitted
 * persistence, after a clean one with its own chance), so a burst of the neighbour falls on both
 * sides as it falls in time; a side's first run as fitted apart (warm-up); each slowed run loses a
 * log-normal loss (capped at 60%); every run has the clean jitter and its side an offset (half the
 * A/A spread's variance each).
 */
export function fittedPair(fit, random, n) {
  const afterSlowed = fit.persistence.afterSlowed ?? fit.rest.pSlowed;
  const afterClean = fit.persistence.afterClean ?? fit.rest.pSlowed;
  const sides = { base: [], head: [] };
  const offset = { base: Math.exp((gaussian(random) * fit.sideOffsetSd) / Math.SQRT2), head: Math.exp((gaussian(random) * fit.sideOffsetSd) / Math.SQRT2) };
  let slowed = random() < fit.rest.pSlowed;
  for (const [which, i] of runOrder({ base: { length: n }, head: { length: n } })) {
    const p = i === 0 ? fit.first.pSlowed : slowed ? afterSlowed : afterClean;
    slowed = random() < p;
    const params = i === 0 && fit.first.n >= 5 ? fit.first : fit.rest;
    const loss = slowed ? Math.min(0.6, Math.exp(params.mu + params.sigma * gaussian(random))) : 0;
    sides[which].push(offset[which] * (1 - loss) * (1 + fit.jitter * gaussian(random)));
  }
  return { base: sides.base, cur: sides.head };
}

/** A side of n runs resampled from the real runs' relative speeds (first runs from first runs), with no fitted shape at all. */
export function resampledSide(jobs, random, n) {
  const firsts = [];
  const rests = [];
  for (const job of jobs) {
    for (const which of ['base', 'head']) {
      const runs = job[which];
      if (!runs || runs.length < 3) continue;
      const { rel } = relativeSide(runs);
      firsts.push(rel[0]);
      rests.push(...rel.slice(1));
    }
  }
  const pick = (list) => list[Math.floor(random() * list.length)];
  return Array.from({ length: n }, (_, i) => (i === 0 ? pick(firsts) : pick(rests)));
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const path = process.argv[2] ?? NEIGHBOUR_DATA;
  const jobs = loadNeighbourJobs(path);
  if (!jobs) {
    console.error(`no neighbour data at ${path}`);
    process.exit(2);
  }
  const { losses, ...fit } = fitNeighbour(jobs);
  console.log(JSON.stringify({ jobs: jobs.length, ...fit, lossQuantiles: [0.1, 0.25, 0.5, 0.75, 0.9].map((q) => Number([...losses].sort((a, b) => a - b)[Math.floor(q * (losses.length - 1))]?.toFixed(4))) }, null, 2));
}
