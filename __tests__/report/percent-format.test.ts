import { formatPctRange, rangeDigits } from '../../src/report/percent-format.js';
import { ciText, countText } from '../../src/report/number-format.js';

describe('interval ends that stay apart', () => {
  it('a tight interval gets the decimals that tell its ends apart (the demo\'s −17.08% … −17.07%)', () => {
    expect(formatPctRange(-0.170815, -0.170732)).toBe('−17.08% … −17.07%');
  });

  it('a wide interval keeps one decimal', () => {
    expect(formatPctRange(-0.081, -0.042)).toBe('−8.1% … −4.2%');
    expect(rangeDigits(-8.1, -4.2)).toBe(1);
  });

  it('equal ends stay at one decimal; no more than three are added', () => {
    expect(rangeDigits(5, 5)).toBe(1);
    expect(rangeDigits(1.00001, 1.00002)).toBe(3);
  });

  it('the renderers\' signed form follows the same rule', () => {
    expect(ciText([-0.170815, -0.170732], 100, '%')).toBe('-17.08% … -17.07%');
    expect(ciText([1.2, 3.4], 1, ' pp')).toBe('+1.2 pp … +3.4 pp');
  });
});

describe('countText', () => {
  it('singular for one, plural otherwise', () => {
    expect(countText(1, 'error')).toBe('1 error');
    expect(countText(0, 'error')).toBe('0 errors');
    expect(countText(2, 'report')).toBe('2 reports');
    expect(countText(1, 'match', 'matches')).toBe('1 match');
    expect(countText(3, 'match', 'matches')).toBe('3 matches');
  });
});
