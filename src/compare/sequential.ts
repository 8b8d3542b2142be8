/**
 * Repeated looks at one A/B comparison (adaptive sampling): the planned runs are the first look, and
 * while a metric stays undecided more runs are added, up to a maximum. Testing each look at the full
 * alpha would let chance win at any of them, so the test's alpha is spent over the looks with a
 * spending function fixed before the first run (Lan & DeMets): the planned look spends
 * `FIRST_LOOK_SHARE` of alpha, and each later look an equal part of the rest. Each look is tested at
 * its own increment, so the chance of a false rejection at any look is at most alpha whatever the
 * correlation between looks (a Bonferroni bound over the looks; the exact group-sequential
 * boundaries for correlated looks would be a little wider).
 */

/**
 * The planned look keeps most of alpha: with 5 runs per side and a warm-up run dropped, 4 vs 4 runs
 * reach p = 1/70 at best, and two metrics that move together under Benjamini-Hochberg over four
 * need p ≤ alpha_look / 2; 0.8 × 0.05 = 0.04 still passes 1/70. The later looks have more runs,
 * whose smallest p-values are far below their share.
 */
export const FIRST_LOOK_SHARE = 0.8;

/** Runs added per side by one more ABBA pair. */
export const RUNS_PER_EXTRA_LOOK = 2;

/** The runs per side at each look: the planned runs, then one ABBA pair more each time, up to `maxRuns`. */
export function lookSchedule(plannedRuns: number, maxRuns: number, step = RUNS_PER_EXTRA_LOOK): number[] {
  const looks = [plannedRuns];
  for (let n = plannedRuns + step; n <= maxRuns; n += step) looks.push(n);
  if (looks[looks.length - 1]! < maxRuns) looks.push(maxRuns);
  return looks;
}

/** The alpha tested at look `index` (1-based) of `looks`; the increments add up to alpha. */
export function alphaAtLook(alpha: number, index: number, looks: number): number {
  if (looks <= 1) return alpha;
  if (index <= 1) return FIRST_LOOK_SHARE * alpha;
  return ((1 - FIRST_LOOK_SHARE) * alpha) / (looks - 1);
}

/** Alpha spent up to and including look `index`. */
export function alphaSpent(alpha: number, index: number, looks: number): number {
  let spent = 0;
  for (let k = 1; k <= Math.min(index, looks); k += 1) spent += alphaAtLook(alpha, k, looks);
  return spent;
}

/**
 * The alpha tested at a look after which no run will be added (max-runs reached, the time budget
 * spent, or the job already failed on another row): what the looks before it left unspent. A run
 * that stops at its first look so tests at the full alpha, as a single comparison of the same
 * samples does; the bound over the looks holds, since only what earlier looks did not spend is
 * spent here.
 */
export function alphaAtFinalLook(alpha: number, index: number, looks: number): number {
  if (looks <= 1 || index <= 1) return alpha;
  return Math.max(0, alpha - alphaSpent(alpha, index - 1, looks));
}

/** The alpha a comparison tests at: a single look, a look of an adaptive run, or its last look. */
export function lookAlpha(alpha: number, look: { index: number; of: number; final?: boolean | undefined } | undefined): number {
  if (!look) return alpha;
  return look.final ? alphaAtFinalLook(alpha, look.index, look.of) : alphaAtLook(alpha, look.index, look.of);
}
