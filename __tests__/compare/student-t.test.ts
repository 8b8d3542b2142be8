import { logGamma, regularizedBeta, studentTTwoSided } from '../../src/compare/student-t.js';

describe('Student t tail', () => {
  it('matches the closed forms for 1 and 2 degrees of freedom', () => {
    for (const t of [0.1, 0.5, 1, 2.5, 10, 140]) {
      // ν = 1 (Cauchy): 1 − (2/π)·atan t; ν = 2: 1 − t/√(2 + t²).
      expect(studentTTwoSided(t, 1)).toBeCloseTo(1 - (2 / Math.PI) * Math.atan(t), 12);
      expect(studentTTwoSided(-t, 2)).toBeCloseTo(1 - t / Math.sqrt(2 + t * t), 12);
    }
    // Far in the tail the relative error stays small too: ν = 2, t = 1e4 gives 1/t² to first order.
    expect(studentTTwoSided(1e4, 2) / (1 - 1e4 / Math.sqrt(2 + 1e8))).toBeCloseTo(1, 6);
  });

  it('gives the textbook critical values', () => {
    // Two-sided 5% points: 12.706 (ν = 1), 2.228 (ν = 10), 2.042 (ν = 30); 1% at ν = 7: 3.499.
    expect(studentTTwoSided(12.7062, 1)).toBeCloseTo(0.05, 5);
    expect(studentTTwoSided(2.22814, 10)).toBeCloseTo(0.05, 5);
    expect(studentTTwoSided(2.04227, 30)).toBeCloseTo(0.05, 5);
    expect(studentTTwoSided(3.49948, 7)).toBeCloseTo(0.01, 5);
    // Large ν: the normal's 1.95996.
    expect(studentTTwoSided(1.959964, 1e7)).toBeCloseTo(0.05, 5);
    expect(studentTTwoSided(0, 5)).toBe(1);
    expect(studentTTwoSided(Infinity, 5)).toBe(0);
    expect(() => studentTTwoSided(1, 0)).toThrow(/df 0/);
  });

  it('has a log-gamma and an incomplete beta that agree with known values', () => {
    expect(logGamma(1)).toBeCloseTo(0, 12);
    expect(logGamma(0.5)).toBeCloseTo(Math.log(Math.sqrt(Math.PI)), 12);
    expect(logGamma(10)).toBeCloseTo(Math.log(362880), 10);
    expect(logGamma(0.1)).toBeCloseTo(2.252712651734206, 10);
    // I_x(1, 1) = x; I_x(a, 1) = x^a; symmetry I_x(a, b) = 1 − I_{1−x}(b, a).
    expect(regularizedBeta(0.3, 1, 1)).toBeCloseTo(0.3, 12);
    expect(regularizedBeta(0.7, 3, 1)).toBeCloseTo(0.343, 12);
    expect(regularizedBeta(0.2, 2.5, 4) + regularizedBeta(0.8, 4, 2.5)).toBeCloseTo(1, 12);
  });
});
