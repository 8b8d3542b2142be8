import { metricFloor, parseFailOnArg, parseFailOnSeverityArg, parseFailVerdictsArg, parseGateOptions, parseThresholdArgs } from '../../src/compare/gate-options.js';
import { FINDING_IDS } from '../../src/model/finding-ids.js';
import { UsageError } from '../../src/errors.js';

describe('parseGateOptions', () => {
  it('fills the documented defaults', () => {
    const options = parseGateOptions({});
    expect(options).toMatchObject({
      failOn: ['re-prefill', 'unfused-attention'],
      shareThresholds: { warn: 5, fail: 20 },
      minSamples: 3,
      alpha: 0.05,
      correction: 'bh',
      allowThrottled: false,
      allowEnvironmentMismatch: false,
      topN: 10,
      seed: 1,
      bootstrapResamples: 1000,
      dropWarmup: true,
      drift: { alpha: 0.001, minChangePct: 1 },
    });
    expect(metricFloor(options, 'decode_tok_s')).toBe(0.03);
    expect(metricFloor(options, 'ttft_ms')).toBe(0.05);
    expect(metricFloor(options, 'itl_ms')).toBeUndefined();
    expect(metricFloor(parseGateOptions({ thresholds: { itl_ms: 4, decode_tok_s: 2 } }), 'itl_ms')).toBe(0.04);
  });
  it('names the bad option and value in a UsageError', () => {
    expect(() => parseGateOptions({ minSamples: 1 })).toThrow(UsageError);
    expect(() => parseGateOptions({ minSamples: 1 })).toThrow(/^gate option minSamples: /);
    expect(() => parseGateOptions({ thresholds: { decode_toks: 3 } })).toThrow(/gate option thresholds.decode_toks: unknown metric 'decode_toks'/);
    expect(() => parseGateOptions({ thresholds: { prompt_tokens: 3 } })).toThrow(/prompt_tokens describes the workload and is never gated/);
    expect(() => parseGateOptions({ allowEnvironmentMismatch: ['gpu'] })).toThrow(/gate option allowEnvironmentMismatch.0: unknown environment key 'gpu'/);
    expect(() => parseGateOptions({ alpha: 0.7 })).toThrow(/^gate option alpha: .*\(got 0.7\)$/);
    expect(() => parseGateOptions({ topN: 'ten' })).toThrow(/^gate option topN: .*\(got "ten"\)$/);
    expect(() => parseGateOptions({ colour: 'red' })).toThrow(UsageError);
  });
});

describe('parseThresholdArgs', () => {
  it('reads METRIC=PCT, with or without %, repeated or comma-separated', () => {
    expect(parseThresholdArgs(['decode_tok_s=3', 'ttft_ms=5%,tpot_ms=2.5', 'family:attention-softmax=10', 'kernel:my_gemm=8'])).toEqual({
      decode_tok_s: 3,
      ttft_ms: 5,
      tpot_ms: 2.5,
      'family:attention-softmax': 10,
      'kernel:my_gemm': 8,
    });
  });
  it('throws a UsageError naming the bad value', () => {
    expect(() => parseThresholdArgs(['decode_tok_s'])).toThrow(new UsageError('--threshold decode_tok_s: expected METRIC=PCT, e.g. decode_tok_s=3'));
    expect(() => parseThresholdArgs(['decode_tok_s=fast'])).toThrow(new UsageError("--threshold decode_tok_s=fast: 'fast' is not a positive number"));
    expect(() => parseThresholdArgs(['decode_tok_s=-1'])).toThrow(/'-1' is not a positive number/);
    expect(() => parseThresholdArgs(['decode_tok_s='])).toThrow(/'' is not a positive number/);
    expect(() => parseThresholdArgs(['tok_s=3'])).toThrow(/--threshold tok_s=3: unknown metric 'tok_s'/);
    expect(() => parseThresholdArgs(['family:attention=3'])).toThrow(/unknown kernel family 'attention'/);
  });
});

describe('parseFailOnArg', () => {
  it('splits ids and accepts none', () => {
    expect(parseFailOnArg('re-prefill, unfused-attention,re-prefill')).toEqual(['re-prefill', 'unfused-attention']);
    expect(parseFailOnArg('none')).toEqual([]);
    expect(parseFailOnArg('')).toEqual([]);
  });
  it('throws a UsageError naming the bad id and listing every known one', () => {
    expect(() => parseFailOnArg('re-prefill,Host Bound')).toThrow(UsageError);
    expect(() => parseFailOnArg('re-prefill,Host Bound')).toThrow(/unknown finding id 'Host Bound' \(known: /);
    expect(() => parseFailOnArg('re-prefill,,x')).toThrow(/unknown finding id 'x'/);
  });
  // Before, any kebab-case word passed: a typo switched the gate off without a word.
  it('refuses a misspelt id, which would otherwise never match a finding', () => {
    let message = '';
    try {
      parseFailOnArg('unfused-atention');
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toBe(`--fail-on unfused-atention: unknown finding id 'unfused-atention' (known: ${FINDING_IDS.join(', ')})`);
    expect(() => parseGateOptions({ failOn: ['unfused-atention'] })).toThrow(/gate option failOn\.0: unknown finding id 'unfused-atention' \(known: capture-includes-warmup, /);
  });
});

describe('fail-on-severity and fail-verdicts', () => {
  it('default to error and to fail, invalid', () => {
    expect(parseGateOptions({})).toMatchObject({ failOnSeverity: 'error', failVerdicts: ['fail', 'invalid'] });
  });
  it('read their values and refuse unknown ones with the known list', () => {
    expect(parseFailOnSeverityArg(' Warning ')).toBe('warning');
    expect(() => parseFailOnSeverityArg('info')).toThrow(new UsageError('--fail-on-severity info: expected one of error, warning'));
    expect(parseFailVerdictsArg('fail, invalid,insufficient-data,fail')).toEqual(['fail', 'invalid', 'insufficient-data']);
    expect(parseFailVerdictsArg('none')).toEqual([]);
    expect(() => parseFailVerdictsArg('fail,insufficient')).toThrow(new UsageError("--fail-verdicts fail,insufficient: unknown verdict 'insufficient' (known: fail, invalid, insufficient-data, warn, accepted; none for no verdict)"));
    expect(() => parseFailVerdictsArg('pass')).toThrow(/unknown verdict 'pass'/);
    expect(() => parseGateOptions({ failVerdicts: ['passed'] })).toThrow(/gate option failVerdicts\.0: unknown verdict 'passed'/);
  });
});
