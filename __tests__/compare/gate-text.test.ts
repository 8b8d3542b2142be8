import { DEFAULT_FAIL_ON_TEXT, parseGateOptions, parseGateText } from '../../src/compare/gate-options.js';
import { DEFAULT_FAIL_ON } from '../../src/compare/verdict.js';
import { DEFAULTS } from '../../src/action/inputs.js';

describe('parseGateText: the gate options of the CLI flags and the action inputs', () => {
  it('reads every option, and leaves what is not given to the defaults', () => {
    expect(parseGateText({ threshold: ['decode_tok_s=4,ttft_ms=6%'], failOn: 'none', allowThrottled: 'true', allowEnvironmentMismatch: 'driver, cuda', overlapCheck: 'false', dropOutliers: 'FALSE' })).toEqual({
      thresholds: { decode_tok_s: 4, ttft_ms: 6 },
      failOn: [],
      allowThrottled: true,
      allowEnvironmentMismatch: ['driver', 'cuda'],
      overlapCheck: false,
      dropOutliers: false,
    });
    expect(parseGateText({ allowEnvironmentMismatch: ['all'], overlapCheck: '' })).toEqual({ allowEnvironmentMismatch: true });
    const defaults = parseGateOptions(parseGateText({}));
    expect([defaults.overlapCheck, defaults.dropOutliers, defaults.failOn]).toEqual([true, true, [...DEFAULT_FAIL_ON]]);
  });

  it('names the flag, or the input when given a label', () => {
    expect(() => parseGateText({ overlapCheck: 'maybe' })).toThrow('--overlap-check: expected true or false, got "maybe"');
    expect(() => parseGateText({ threshold: ['decode_tok_s=x'] })).toThrow("--threshold decode_tok_s=x: 'x' is not a positive number");
    const input = (flag: string) => `input '${flag === 'threshold' ? 'thresholds' : flag}'`;
    expect(() => parseGateText({ threshold: ['decode_tok_s=x'] }, input)).toThrow("input 'thresholds': decode_tok_s=x: 'x' is not a positive number");
    expect(() => parseGateText({ dropOutliers: 'no' }, input)).toThrow(`input 'drop-outliers': expected true or false, got "no"`);
  });

  it('one fail-on default for the action and the gate', () => {
    expect(DEFAULTS.failOn).toBe(DEFAULT_FAIL_ON_TEXT);
    expect(DEFAULT_FAIL_ON_TEXT).toBe('re-prefill,unfused-attention');
  });
});
