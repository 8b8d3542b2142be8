import { metricFloor, parseEnvironmentMismatch, parseFailOn, parseFailOnSeverity, parseFailVerdicts, parseGateOptions, parseThresholds, resolveKernelThresholds } from '../../src/compare/gate-options.js';
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
    expect(() => parseThresholds('decode_tok_s=fast', "input 'thresholds'")).toThrow(new UsageError("input 'thresholds': decode_tok_s=fast: 'fast' is not a positive number (a plain decimal up to 1000, e.g. 3)"));
    expect(() => parseThresholds(['decode_tok_s=-1'], '--threshold')).toThrow(/'-1' is not a positive number/);
    expect(() => parseThresholds(['decode_tok_s='], '--threshold')).toThrow(/'' is not a positive number/);
    expect(() => parseThresholds(['tok_s=3'], '--threshold')).toThrow(/--threshold: tok_s=3: unknown metric 'tok_s'/);
    expect(() => parseThresholds(['family:attention=3'], '--threshold')).toThrow(/unknown kernel family 'attention'/);
    // A floor no change could reach would pass every run, silently.
    for (const value of ['1e308', '0x10', 'NaN', 'Infinity', '5000']) expect(() => parseThresholds([`decode_tok_s=${value}`], '--threshold')).toThrow(`'${value}' is not a positive number (a plain decimal up to 1000, e.g. 3)`);
  });
  it('refuses one threshold set twice to different values (the later would win unseen); the same value twice is one', () => {
    expect(() => parseThresholds(['decode_tok_s=3', 'decode_tok_s=50'], '--threshold')).toThrow(new UsageError('--threshold: decode_tok_s=50: decode_tok_s is already set to 3; give each threshold once'));
    expect(() => parseThresholds('kernel-time:family:copy=+0.1ms,kernel-time:family:copy=+1ms', "input 'thresholds'")).toThrow(
      "input 'thresholds': kernel-time:family:copy=+1ms: kernel-time:family:copy is already set to 0.1 ms; give each threshold once",
    );
    expect(parseThresholds(['decode_tok_s=3', 'decode_tok_s=3%'], '--threshold')).toEqual({ decode_tok_s: 3 });
  });
});

const NORM = 'void vllm::rms_norm_kernel<c10::BFloat16>(c10::BFloat16 *, const c10::BFloat16 *, const c10::BFloat16 *, float, int, int)';
const COPY =
  'void at::native::elementwise_kernel<(int)128, (int)4, void at::native::gpu_kernel_impl_nocast<at::native::direct_copy_kernel_cuda(at::TensorIteratorBase &)::[lambda() (instance 3)]::operator ()() const::[lambda() (instance 12)]::operator ()() const::[lambda(c10::BFloat16) (instance 1)]>(at::TensorIteratorBase &, const T1 &)::[lambda(int) (instance 1)]>(int, T3)';

describe('parseThresholds with kernel names', () => {
  it('takes a full C++ name with commas: one per flag, one per line, or before a comma that starts another threshold', () => {
    const expected = { [`kernel-time:kernel:${NORM}`]: 0.02, decode_tok_s: 4 };
    expect(parseThresholds([`kernel-time:kernel:${NORM}=+20us`, 'decode_tok_s=4'], '--threshold')).toEqual(expected);
    expect(parseThresholds(`kernel-time:kernel:${NORM}=+20us\ndecode_tok_s=4`, "input 'thresholds'")).toEqual(expected);
    expect(parseThresholds(`kernel-time:kernel:${NORM}=+20us, decode_tok_s=4`, "input 'thresholds'")).toEqual(expected);
    expect(parseThresholds(`decode_tok_s=4,kernel:${NORM}=10,family:copy=5`, '--threshold')).toEqual({ decode_tok_s: 4, [`kernel:${NORM}`]: 10, 'family:copy': 5 });
  });
});

describe('resolveKernelThresholds', () => {
  const options = (thresholds: Record<string, number>) => parseGateOptions({ thresholds });

  it('keys a threshold written with the short name the report shows, or the full one, by the full name', () => {
    const byShort = resolveKernelThresholds(options({ 'kernel-time:kernel:elementwise_kernel<direct_copy_kernel_cuda>': 0.1, 'kernel:rms_norm_kernel': 10, decode_tok_s: 3 }), [COPY], [COPY, NORM]);
    expect(byShort.thresholds).toEqual({ [`kernel-time:kernel:${COPY}`]: 0.1, [`kernel:${NORM}`]: 10, decode_tok_s: 3 });
    // Whitespace as the user likes it; a full name wins over a short one for the same kernel.
    const spaced = resolveKernelThresholds(options({ [`kernel:${NORM.replace(/, /g, ',  ')}`]: 7, 'kernel:rms_norm_kernel': 10 }), [NORM], []);
    expect(spaced.thresholds).toEqual({ [`kernel:${NORM}`]: 7 });
  });

  it('refuses a threshold that names no kernel of either side, with the closest names', () => {
    expect(() => resolveKernelThresholds(options({ 'kernel:rms_norm': 10 }), [COPY], [NORM])).toThrow(
      new UsageError('threshold kernel:rms_norm: no kernel of either side is named "rms_norm" (by its full name or the name the report shows); closest: rms_norm_kernel, elementwise_kernel<direct_copy_kernel_cuda>'),
    );
    expect(() => resolveKernelThresholds(options({ 'kernel-time:kernel:gemv': 0.1 }), [], [])).toThrow(/neither side ran any kernel/);
    // Family thresholds name families, which need no kernel.
    expect(resolveKernelThresholds(options({ 'kernel-time:family:copy': 0.1 }), [], []).thresholds).toEqual({ 'kernel-time:family:copy': 0.1 });
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
