/**
 * The noisy-neighbour noise model, fitted to real runs: A/A and known-regression A/B jobs recorded on
 * an H200 while another process ran matmul bursts on the same GPU (bench/data/h200-neighbour, its
 * README says where they come from; bench/neighbour-import.mjs builds jobs.json from them). Used by
 * bench/gate-sim.mjs --neighbour for the `neighbour-fit` model (drawn from the fitted parameters in
 * fit.json) beside the real runs resampled.
 *
 * The data, one JSON document (`jobs.json`): { jobs: [{ name, kind: 'aa' | 'ab', effect, base: [tok/s
 * per run, in run order], head: [...], order?: ['base' | 'head', ...] (the job's run order over both
 * sides), perProcess?: runs per measured process }] }. A side recorded in two jobs (one process
 * compared with the one before and the one after it) is fitted once.
 *
 * The fit, per family of jobs (one workload under one neighbour) and per side of a build that made
 * no change: its level is the median of its faster half of runs (a neighbour slows most runs
 * down); each run's speed relative to that level; its clean jitter the robust sd of the faster
 * half; a run is slowed when it lies below the level by more than 3 clean sd and 1%. Over the
 * sides: the share of a side's runs slowed (mean and sd), their losses (log-normal: the mean and sd
 * of ln loss), the chance a run is slowed after a slowed run and after a clean one in the job's
 * time order, each side's clean jitter (a simulated side draws one of them), and the spread of the
 * two sides' levels in A/A jobs (an offset no change made). `checkFit` sets the model's runs
 * beside the recorded ones.
 *
 *   node bench/neighbour-fit.mjs [--data jobs.json] [--out bench/data/h200-neighbour/fit.json]
 */
import { createHash } from 'node:crypto';
import { readFileSync, existsSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..');
/** The recorded jobs; GATE_SIM_NEIGHBOUR names another file of the same shape. */
export const NEIGHBOUR_DATA = process.env.GATE_SIM_NEIGHBOUR || join(here, 'data', 'h200-neighbour', 'jobs.json');
/** The parameters fitted to them (written by this script with --out). */
export const NEIGHBOUR_FIT = process.env.GATE_SIM_NEIGHBOUR_FIT || join(here, 'data', 'h200-neighbour', 'fit.json');

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
/** The q-quantile of values (linear between order statistics). */
export const quantile = (values, q) => {
  const s = [...values].sort((a, b) => a - b);
  const at = q * (s.length - 1);
  const lo = Math.floor(at);
  return s[lo] + (s[Math.min(lo + 1, s.length - 1)] - s[lo]) * (at - lo);
};
/** 1.4826 × MAD over the median: the gate's robust spread of a side (src/compare/statistics.ts relativeRobustSd). */
export const robustSd = (values) => (1.4826 * mad(values)) / Math.abs(median(values));

export function sha256(path) {
  return createHash('sha256').update(readFileSync(path)).digest('hex');
}

export function loadNeighbourJobs(path = NEIGHBOUR_DATA) {
  if (!existsSync(path)) return null;
  return JSON.parse(readFileSync(path, 'utf8')).jobs;
}

/** The fitted parameters as written by --out, with a warning when the recording changed since. */
export function loadNeighbourFit(path = NEIGHBOUR_FIT, data = NEIGHBOUR_DATA) {
  if (!existsSync(path)) return null;
  const fit = JSON.parse(readFileSync(path, 'utf8'));
  const stale = existsSync(data) && fit.data?.sha256 !== sha256(data);
  return { ...fit, stale };
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

/**
 * The slowed threshold of a side: 3 clean sd and 1% below its level. (5 sd left the runs a long
 * continuous neighbour slows by 3-6% in the clean jitter, and the model then made too few of them.)
 */
const slowedBelow = (jitter) => 1 - Math.max(3 * jitter, 0.01);

/**
 * Each distinct side of the recording once (a process compared in two jobs is one side), keyed by
 * its runs. Only builds that made no change are the neighbour's noise: the head of an A/B job
 * carries its own (a spin kernel calibrated per process, say) and is left to the resampled runs.
 */
function noiseSides(jobs) {
  const sides = new Map();
  for (const job of jobs) {
    for (const which of job.kind === 'aa' ? ['base', 'head'] : ['base']) {
      const runs = job[which];
      if (!runs || runs.length < 3) continue;
      const key = runs.join(',');
      if (!sides.has(key)) sides.set(key, { key, job, which, runs, ...relativeSide(runs) });
    }
  }
  return [...sides.values()];
}

/**
 * The fitted parameters of one family of runs: each side's clean jitter, the share of a side's runs
 * the neighbour slowed (its mean and sd over the sides: the neighbour's duty cycle is steady, so
 * the count varies less from side to side than independent runs would make it), the losses of the
 * slowed runs (log-normal: mean and sd of ln loss; 0.05 = 5% slower), the A/A offset between sides,
 * and, as a check of independence, the chance a run is slowed after a slowed run and after a clean
 * one in the job's time order.
 */
export function fitNeighbour(jobs) {
  const sides = noiseSides(jobs);
  const losses = [];
  const shares = [];
  const flags = new Map();
  let firstSlowed = 0;
  for (const side of sides) {
    const below = slowedBelow(side.jitter);
    const slowed = side.rel.map((x) => x < below);
    flags.set(side.key, slowed);
    shares.push(slowed.filter(Boolean).length / slowed.length);
    if (slowed[0]) firstSlowed += 1;
    side.rel.forEach((x, i) => {
      if (slowed[i]) losses.push(1 - x);
    });
  }
  // Persistence in time: consecutive runs of a side or of both sides of a job as they ran, each pair once.
  const seenPairs = new Set();
  const after = { slowed: [0, 0], clean: [0, 0] };
  for (const job of jobs) {
    const keys = { base: job.base?.join(','), head: job.head?.join(',') };
    const timeline = runOrder(job)
      .filter(([which]) => flags.has(keys[which]))
      .map(([which, i]) => [`${keys[which]}#${i}`, flags.get(keys[which])[i]])
      .filter(([, f]) => f !== undefined);
    for (let t = 1; t < timeline.length; t += 1) {
      const pair = `${timeline[t - 1][0]}>${timeline[t][0]}`;
      if (seenPairs.has(pair)) continue;
      seenPairs.add(pair);
      const bucket = timeline[t - 1][1] ? after.slowed : after.clean;
      bucket[0] += 1;
      if (timeline[t][1]) bucket[1] += 1;
    }
  }
  // A/A jobs: the spread of ln(head level / base level), an offset between sides no change made.
  const offsets = jobs
    .filter((job) => job.kind === 'aa' && job.base?.length >= 3 && job.head?.length >= 3)
    .map((job) => Math.log(relativeSide(job.head).level / relativeSide(job.base).level));
  const logs = losses.map(Math.log);
  const jitters = sides.map((s) => s.jitter);
  return {
    sides: sides.length,
    runs: sides.reduce((a, s) => a + s.runs.length, 0),
    sideJitters: jitters.map((j) => Number(j.toFixed(5))).sort((a, b) => a - b),
    slowedShare: { mean: mean(shares), sd: sd(shares), perSide: shares.map((x) => Number(x.toFixed(3))), firstRunSlowed: firstSlowed / sides.length },
    loss: { mu: logs.length ? mean(logs) : Math.log(0.05), sigma: logs.length > 1 ? sd(logs) : 0.5, n: losses.length, quantiles: [0.1, 0.25, 0.5, 0.75, 0.9].map((q) => Number(quantile(losses, q).toFixed(4))) },
    persistence: {
      afterSlowed: after.slowed[0] ? after.slowed[1] / after.slowed[0] : null,
      afterClean: after.clean[0] ? after.clean[1] / after.clean[0] : null,
      pairs: after.slowed[0] + after.clean[0],
    },
    sideOffsetSd: offsets.length >= 2 ? sd(offsets) : offsets.length ? Math.abs(offsets[0]) : 0,
    aaJobs: offsets.length,
  };
}

/**
 * The fit of each family of the recording (jobs.json `family`: one workload under one neighbour;
 * jobs without one are one family), weighted by its share of the jobs: the model draws a job's
 * family, then both its sides from that family's parameters.
 */
export function fitFamilies(jobs) {
  const groups = new Map();
  for (const job of jobs) {
    const name = job.family ?? 'all';
    groups.set(name, [...(groups.get(name) ?? []), job]);
  }
  return { families: [...groups].map(([name, list]) => ({ name, jobs: list.length, weight: list.length / jobs.length, ...fitNeighbour(list) })) };
}

/** A family of the model, drawn by weight (a fit of one family is its own). */
function familyOf(model, random) {
  if (!model.families) return model;
  let u = random();
  for (const family of model.families) {
    u -= family.weight;
    if (u < 0) return family;
  }
  return model.families[model.families.length - 1];
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
 * The sd of one measured process's level offset in a family (a random effect): the A/A side offset
 * sd is that of the difference of two sides' mean offsets over their processes, so with P processes
 * per side (runs per side ÷ the recording's runs per process, over the family's A/A jobs) it is
 * sideOffsetSd × √(P / 2). The 16-layer recording ran one process per side (P = 1); the 4-layer jobs
 * 5 processes of 3 runs.
 */
export function processOffsetSd(family, jobs) {
  const aa = jobs.filter((job) => (job.family ?? 'all') === family.name && job.kind === 'aa' && job.base?.length && job.head?.length);
  if (!aa.length) return family.sideOffsetSd / Math.SQRT2;
  const perSide = median(aa.map((job) => Math.max(1, Math.min(job.base.length, job.head.length) / (job.perProcess ?? 1))));
  return family.sideOffsetSd * Math.sqrt(perSide / 2);
}

/**
 * Both sides of a job of n runs per side from the fitted parameters: one family for the job (by
 * weight); per side a level offset (half the A/A spread's variance each), a clean jitter (one of the
 * family's measured sides'), and a share of slowed runs (normal with the fitted mean and sd, within
 * 0 … 90%) at random positions (the fitted persistence shows no bursts that span runs), each losing
 * a log-normal loss (capped at 60%). With `perRunProcess` (a map of family name → process offset
 * sd, `processOffsetSd`), each run is its own process, as `profile-gate run` measures: the offset
 * is drawn per run instead of per side.
 */
export function fittedPair(model, random, n, perRunProcess = null) {
  const fit = familyOf(model, random);
  const side = () => {
    const runSd = perRunProcess ? perRunProcess[fit.name] ?? 0 : 0;
    const offset = perRunProcess ? 1 : Math.exp((gaussian(random) * fit.sideOffsetSd) / Math.SQRT2);
    const jitter = fit.sideJitters[Math.floor(random() * fit.sideJitters.length)];
    const share = Math.min(0.9, Math.max(0, fit.slowedShare.mean + fit.slowedShare.sd * gaussian(random)));
    const positions = Array.from({ length: n }, (_, i) => i);
    for (let i = n - 1; i > 0; i -= 1) {
      const j = Math.floor(random() * (i + 1));
      [positions[i], positions[j]] = [positions[j], positions[i]];
    }
    const slowed = new Set(positions.slice(0, Math.round(share * n)));
    const runs = Array.from({ length: n }, (_, i) => {
      const loss = slowed.has(i) ? Math.min(0.6, Math.exp(fit.loss.mu + fit.loss.sigma * gaussian(random))) : 0;
      const process = runSd ? Math.exp(runSd * gaussian(random)) : 1;
      return offset * process * (1 - loss) * (1 + jitter * gaussian(random));
    });
    return { runs, slowed: runs.map((_, i) => slowed.has(i)) };
  };
  const base = side();
  const cur = side();
  // Which runs the neighbour slowed, by position (what a sampler that sees it would flag).
  return { base: base.runs, cur: cur.runs, slowed: { base: base.slowed, cur: cur.slowed } };
}

/** What the fit is checked on: run speeds relative to their side's level, slow shares and spreads over sides; spread ratios and level offsets over A/A pairs. */
function sideStats(sides, pairs) {
  const rels = sides.flatMap((runs) => relativeSide(runs).rel);
  const sds = sides.map(robustSd);
  const ratios = pairs.map(([a, b]) => Math.max(robustSd(a), robustSd(b)) / Math.max(Math.min(robustSd(a), robustSd(b)), 0.001));
  const offsets = pairs.map(([a, b]) => Math.abs(Math.log(relativeSide(b).level / relativeSide(a).level)));
  const share = (below) => rels.filter((x) => x < 1 - below).length / rels.length;
  return {
    sides: sides.length,
    pairs: pairs.length,
    q: [0.05, 0.1, 0.25, 0.5, 0.75].map((q) => quantile(rels, q)),
    slowed3: share(0.03),
    slowed10: share(0.1),
    sd: [quantile(sds, 0.5), quantile(sds, 0.9)],
    ratio: [quantile(ratios, 0.5), quantile(ratios, 0.9)],
    offset: [quantile(offsets, 0.5), Math.max(...offsets)],
  };
}

/**
 * The fit against the runs it was fitted to, per family: the recorded sides of builds that made no
 * change and its A/A pairs, against `replicates` times as many drawn from the model at the same
 * sizes. Rows of a Markdown table.
 */
export function checkFit(jobs, model, random, replicates = 200) {
  const p = (x) => `${(100 * x).toFixed(1)}%`;
  const row = (family, source, s) => `| ${family} | ${source} | ${s.sides} | ${s.q.map((x) => x.toFixed(3)).join(' / ')} | ${p(s.slowed3)} | ${p(s.slowed10)} | ${p(s.sd[0])}, ${p(s.sd[1])} | ${s.pairs} | ${s.ratio[0].toFixed(1)}, ${s.ratio[1].toFixed(1)} | ${p(s.offset[0])}, ${p(s.offset[1])} |`;
  const lines = [
    '| family | runs | sides | run ÷ side level: q5 / q10 / q25 / q50 / q75 | > 3% slow | > 10% slow | side robust sd: median, p90 | A/A pairs | sd ratio of the two sides: median, p90 | level offset: median, max |',
    '|---|---|---:|---|---:|---:|---|---:|---|---|',
  ];
  const families = model.families ?? [{ name: 'all', ...model }];
  for (const family of families) {
    const list = jobs.filter((job) => (job.family ?? 'all') === family.name);
    const sides = noiseSides(list).map((s) => s.runs);
    const pairs = list.filter((job) => job.kind === 'aa').map((job) => [job.base, job.head]);
    const simSides = [];
    const simPairs = [];
    for (let r = 0; r < replicates; r += 1) {
      for (const runs of sides) simSides.push(fittedPair(family, random, runs.length).base);
      for (const [a, b] of pairs) {
        const { base, cur } = fittedPair(family, random, Math.min(a.length, b.length));
        simPairs.push([base, cur]);
      }
    }
    lines.push(row(family.name, 'recorded', sideStats(sides, pairs)), row(family.name, 'fitted', sideStats(simSides, simPairs)));
  }
  return lines;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const argv = process.argv.slice(2);
  const flag = (name) => (argv.includes(name) ? argv[argv.indexOf(name) + 1] : undefined);
  const path = flag('--data') ?? NEIGHBOUR_DATA;
  const jobs = loadNeighbourJobs(path);
  if (!jobs) {
    console.error(`no neighbour data at ${path}`);
    process.exit(2);
  }
  const fit = fitFamilies(jobs);
  const out = flag('--out');
  if (out) {
    const document = {
      about:
        'The noisy-neighbour model of bench/gate-sim.mjs, fitted by bench/neighbour-fit.mjs to the real runs of data.path (an H200 beside a process of random bf16 matmul bursts on the same GPU; bench/data/h200-neighbour/README.md). One fit per family (one workload under one neighbour), drawn by weight (its share of the jobs). Fitted on the sides of builds that made no change (both sides of A/A jobs, the base of A/B jobs), each once. Per side: level = median of its faster half, runs relative to it, clean jitter = 1.4826 MAD of the faster half over the level; a run is slowed when more than max(3 jitter, 1%) below its level. sideJitters: every side\'s clean jitter (a simulated side draws one). slowedShare: the share of a side\'s runs slowed, mean and sd over the sides (a simulated side draws a share, then that many runs at random positions). loss: ln(loss) of the slowed runs, mean mu and sd sigma (0.05 = 5% slower). persistence: P(slowed) after a slowed and after a clean run in the job\'s time order (a check: no bursts that span runs). sideOffsetSd: sd of ln(head level / base level) over the A/A jobs.',
      command: `node bench/neighbour-fit.mjs --data ${relative(root, path)} --out ${relative(root, out)}`,
      data: { path: relative(root, path), sha256: sha256(path), jobs: jobs.length },
      fit,
    };
    writeFileSync(out, `${JSON.stringify(document, null, 2)}\n`);
    console.log(`fitted to ${jobs.length} jobs (${fit.families.map((f) => `${f.name}: ${f.sides} sides of no change, ${f.runs} runs`).join('; ')}) → ${out}`);
  } else {
    console.log(JSON.stringify({ jobs: jobs.length, ...fit }, null, 2));
  }
}
