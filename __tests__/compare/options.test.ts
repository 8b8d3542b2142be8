import { metricFloor, parseEnvironmentMismatch, parseFailOn, parseFailOnSeverity, parseFailVerdicts, parseGateOptions, parseThresholds } from '../../src/compare/gate-options.js';
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

describe('parseThresholds', () => {
  it('reads METRIC=PCT, with or without %, repeated or comma-separated', () => {
    expect(parseThresholds(['decode_tok_s=3', 'ttft_ms=5%,tpot_ms=2.5', 'family:attention-softmax=10\nkernel:my_gemm=8'], '--threshold')).toEqual({
      decode_tok_s: 3,
      ttft_ms: 5,
      tpot_ms: 2.5,
      'family:attention-softmax': 10,
      'kernel:my_gemm': 8,
    });
  });
  it('throws a UsageError naming the option as given and the bad item', () => {
    expect(() => parseThresholds(['decode_tok_s'], '--threshold')).toThrow(new UsageError('--threshold: decode_tok_s: expected METRIC=PCT, e.g. decode_tok_s=3'));
    expect(() => parseThresholds('decode_tok_s=fast', "input 'thresholds'")).toThrow(new UsageError("input 'thresholds': decode_tok_s=fast: 'fast' is not a positive number"));
    expect(() => parseThresholds(['decode_tok_s=-1'], '--threshold')).toThrow(/'-1' is not a positive number/);
    expect(() => parseThresholds(['decode_tok_s='], '--threshold')).toThrow(/'' is not a positive number/);
    expect(() => parseThresholds(['tok_s=3'], '--threshold')).toThrow(/--threshold: tok_s=3: unknown metric 'tok_s'/);
    expect(() => parseThresholds(['family:attention=3'], '--threshold')).toThrow(/unknown kernel family 'attention'/);
  });
});

describe('parseFailOn', () => {
  it('splits ids and accepts none', () => {
    expect(parseFailOn('re-prefill, unfused-attention,re-prefill', '--fail-on')).toEqual(['re-prefill', 'unfused-attention']);
    expect(parseFailOn('none', '--fail-on')).toEqual([]);
    expect(parseFailOn('', '--fail-on')).toEqual([]);
  });
  it('throws a UsageError naming the bad id and listing every known one', () => {
    expect(() => parseFailOn('re-prefill,Host Bound', '--fail-on')).toThrow(UsageError);
    expect(() => parseFailOn('re-prefill,Host Bound', '--fail-on')).toThrow(/unknown finding id 'Host Bound' \(known: /);
    expect(() => parseFailOn('re-prefill,,x', '--fail-on')).toThrow(/unknown finding id 'x'/);
  });
  // Before, any kebab-case word passed: a typo switched the gate off without a word.
  it('refuses a misspelt id, which would otherwise never match a finding', () => {
    let message = '';
    try {
      parseFailOn('unfused-atention', "input 'fail-on'");
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toBe(`input 'fail-on': unknown finding id 'unfused-atention' (known: ${FINDING_IDS.join(', ')})`);
    expect(() => parseGateOptions({ failOn: ['unfused-atention'] })).toThrow(/gate option failOn\.0: unknown finding id 'unfused-atention' \(known: capture-includes-warmup, /);
  });
});

describe('fail-on-severity and fail-verdicts', () => {
  it('default to error and to fail, invalid', () => {
    expect(parseGateOptions({})).toMatchObject({ failOnSeverity: 'error', failVerdicts: ['fail', 'invalid'] });
  });
  it('read their values and refuse unknown ones with the known list', () => {
    expect(parseFailOnSeverity(' Warning ', '--fail-on-severity')).toBe('warning');
    expect(() => parseFailOnSeverity('info', '--fail-on-severity')).toThrow(new UsageError('--fail-on-severity: expected one of error, warning, got "info"'));
    expect(parseFailVerdicts('fail, invalid,insufficient-data,fail', '--fail-verdicts')).toEqual(['fail', 'invalid', 'insufficient-data']);
    expect(parseFailVerdicts('none', '--fail-verdicts')).toEqual([]);
    expect(() => parseFailVerdicts('fail,insufficient', '--fail-verdicts')).toThrow(new UsageError("--fail-verdicts: unknown verdict 'insufficient' (known: fail, invalid, insufficient-data, warn, accepted; none for no verdict)"));
    expect(() => parseFailVerdicts('pass', '--fail-verdicts')).toThrow(/unknown verdict 'pass'/);
    expect(() => parseGateOptions({ failVerdicts: ['passed'] })).toThrow(/gate option failVerdicts\.0: unknown verdict 'passed'/);
  });
});

describe('parseEnvironmentMismatch', () => {
  it('reads keys, all, or nothing', () => {
    expect(parseEnvironmentMismatch('driver, cuda,driver', '--allow-environment-mismatch')).toEqual(['driver', 'cuda']);
    expect(parseEnvironmentMismatch('driver,all', '--allow-environment-mismatch')).toBe(true);
    expect(parseEnvironmentMismatch(' ', '--allow-environment-mismatch')).toBe(false);
  });
  it('refuses an unknown key, naming the option as given', () => {
    expect(() => parseEnvironmentMismatch('gpu', "input 'allow-environment-mismatch'")).toThrow(/^input 'allow-environment-mismatch': unknown environment key 'gpu' \(known: gpuName, /);
  });
});
