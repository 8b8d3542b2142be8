/**
 * Verdicts are a closed set in every encoding: the dashboard's data stores a verdict as its index
 * in VERDICT_ORDER and the page script decodes it with the same list, the drawing is a Record over
 * Verdict (a verdict left out is a type error, checked by `tsc` on the line marked below), and a
 * verdict with no drawing is refused rather than drawn as a pass.
 */
import { runInNewContext } from 'node:vm';
import { VerdictSchema, type Verdict } from '../../src/model/report.js';
import { VERDICT_DRAWING, VERDICT_ORDER, verdictCode } from '../../src/report/dashboard/data.js';
import { PAGE_CHARTS } from '../../src/report/dashboard/page-charts.js';
import { VERDICT_RANK } from '../../src/report/merge-reports.js';

const VERDICTS = VerdictSchema.options;

/** The page script's own lists, read out of the script as the browser would define them. */
function pageLists(): { VERDICTS: string[]; VERDICT_SYMBOL: string[]; VERDICT_FILL: string[] } {
  const lines = PAGE_CHARTS.split('\n').filter((line) => /^var (VERDICTS|VERDICT_SYMBOL|VERDICT_FILL) = /.test(line));
  const sandbox: Record<string, string[]> = {};
  runInNewContext(lines.join('\n'), sandbox);
  return sandbox as unknown as ReturnType<typeof pageLists>;
}

describe('verdict encodings', () => {
  it('the dashboard encodes every verdict, each once, and decodes it back', () => {
    expect([...VERDICT_ORDER].sort()).toEqual([...VERDICTS].sort());
    for (const verdict of VERDICTS) expect(VERDICT_ORDER[verdictCode(verdict)]).toBe(verdict);
  });

  it('the page script decodes with the same order, symbols and fills', () => {
    const page = pageLists();
    expect(page.VERDICTS).toEqual(VERDICT_ORDER);
    expect(page.VERDICT_SYMBOL).toEqual(VERDICT_ORDER.map((v) => VERDICT_DRAWING[v].symbol));
    expect(page.VERDICT_FILL).toEqual(VERDICT_ORDER.map((v) => VERDICT_DRAWING[v].fill));
    expect(new Set(page.VERDICT_FILL).size).toBe(VERDICT_ORDER.length);
  });

  it('a verdict the dashboard cannot draw is refused, not drawn as a pass (a deliberate violation)', () => {
    expect(() => verdictCode('maybe' as Verdict)).toThrow('the dashboard has no drawing of verdict "maybe"');
  });

  it('a drawing without one verdict is a type error (tsc checks the expect-error)', () => {
    // @ts-expect-error 'accepted' is missing: a Record over Verdict must name every verdict.
    const partial: Record<Verdict, { symbol: string; fill: string }> = { pass: VERDICT_DRAWING.pass, warn: VERDICT_DRAWING.warn, fail: VERDICT_DRAWING.fail, 'insufficient-data': VERDICT_DRAWING['insufficient-data'], invalid: VERDICT_DRAWING.invalid };
    expect(Object.keys(partial)).not.toContain('accepted');
    // The merge's ranking is a Record over Verdict too.
    expect(Object.keys(VERDICT_RANK).sort()).toEqual([...VERDICTS].sort());
  });
});
