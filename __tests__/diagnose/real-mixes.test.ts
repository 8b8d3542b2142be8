/**
 * The whole diagnosis on real kernel mixes: the kernel tables of real captures (fixtures/kernel-names)
 * go through buildProfile and runRules, with the time measures each capture had. Timeline numbers
 * for the transformers traces were computed with python from the Kineto files (union of GPU event
 * intervals over the span; kernel event count). Expected findings follow the fixtures' README.
 */
import { buildProfile } from '../../src/pipeline/build-profile.js';
import { runRules } from '../../src/diagnose/run-rules.js';
import { CaptureSchema, type CaptureInput, type TimelineInput } from '../../src/model/capture.js';
import type { Finding } from '../../src/model/report.js';
import { loadKernelRows } from '../helpers/kernel-fixtures.js';
import type { MetricName } from '../../src/model/metrics.js';

const TRACES: Record<string, Pick<TimelineInput, 'spanNs' | 'busyNs' | 'kernelLaunches'>> = {
  dense_decode: { spanNs: 755377950, busyNs: 54497058, kernelLaunches: 22259 },
  dense_batch32: { spanNs: 791812341, busyNs: 83856131, kernelLaunches: 22308 },
  eager_attention: { spanNs: 925751659, busyNs: 62593657, kernelLaunches: 26723 },
  reprefill_nocache: { spanNs: 605752988, busyNs: 73843881, kernelLaunches: 20979 },
  moe_decode: { spanNs: 721299154, busyNs: 37540287, kernelLaunches: 14963 },
  tiny_hostbound: { spanNs: 214984883, busyNs: 5894361, kernelLaunches: 3827 },
};

function diagnose(file: string, extra: Partial<CaptureInput> = {}, metrics: Partial<Record<MetricName, number>> = {}): Finding[] {
  const kernels = loadKernelRows(file).map((r) => ({ name: r.name, totalNs: r.totalNs, instances: r.instances }));
  const captures: CaptureInput[] = [{ source: { path: file, format: file.endsWith('.tsv') ? 'kineto-json' : 'nsys-stats' }, kernels, ...extra }];
  if (Object.keys(metrics).length) {
    captures.push({ source: { path: 'run.log', format: 'max-generate' }, metrics: Object.entries(metrics).map(([name, value]) => ({ name: name as MetricName, value: value! })) });
  }
  return runRules(buildProfile(captures.map((c) => CaptureSchema.parse(c))));
}

function hfTrace(name: string): Finding[] {
  const timeline: TimelineInput = {
    ...TRACES[name]!,
    devices: 1,
    idleGaps: { count: 0, totalNs: 0, longestNs: 0 },
    graphLaunches: 0,
    graphKernels: 0,
    steps: [],
    busyByDecile: [],
  };
  // The profiler window covers one generate of up to 32 new tokens.
  return diagnose(`hf_${name}.kernels.tsv`, { timeline }, { output_tokens: 32 });
}

const ids = (findings: Finding[], severity?: Finding['severity']) =>
  findings.filter((f) => !severity || f.severity === severity).map((f) => f.id).sort();
const byId = (findings: Finding[], id: string) => findings.find((f) => f.id === id)!;

describe('diagnosis of real kernel mixes', () => {
  it('H200 GPU-bound decode (nsys, CUDA graphs): healthy dense decode and nothing else', () => {
    const findings = diagnose('nsys_healthy_kern_sum.csv');
    expect(ids(findings)).toEqual(['healthy-dense-decode']);
    expect(byId(findings, 'healthy-dense-decode').evidence.decodeShare).toBeGreaterThan(0.95);
  });

  it('H200 transformers under nsys (gpu_time_util 2.0%): host-bound first, kernel findings secondary', () => {
    const findings = diagnose('nsys_hf_hostbound_kern_sum.csv', { gpuTimeUtilPercent: 2 });
    expect(findings[0]!.id).toBe('host-bound');
    expect(ids(findings)).toEqual(['host-bound', 'unfused-norm-rope', 'unfused-norm-rope']);
    expect(findings.filter((f) => f.id === 'unfused-norm-rope').every((f) => f.secondary)).toBe(true);
  });

  it('transformers dense decode: host-bound, decode-shaped mix, unfused RMSNorm pieces', () => {
    const findings = hfTrace('dense_decode');
    expect(ids(findings)).toEqual(['host-bound', 'unfused-norm-rope', 'unfused-norm-rope']);
    expect(byId(findings, 'host-bound').evidence.busyFraction).toBeCloseTo(0.0721, 4);
  });

  it('transformers batch 32: host-bound, no re-prefill from its 64x32 tiles', () => {
    const findings = hfTrace('dense_batch32');
    expect(ids(findings)).toContain('host-bound');
    expect(ids(findings)).not.toContain('re-prefill');
  });

  it('transformers eager attention: host-bound and unfused attention', () => {
    const findings = hfTrace('eager_attention');
    expect(ids(findings)).toEqual(['host-bound', 'unfused-attention', 'unfused-norm-rope', 'unfused-norm-rope']);
    expect(byId(findings, 'unfused-attention').evidence.fusedAttentionLaunches).toBe(0);
  });

  it('transformers without KV cache: host-bound and re-prefill (a warning: throughput does not confirm it)', () => {
    const findings = hfTrace('reprefill_nocache');
    expect(ids(findings, 'error')).toEqual([]);
    expect(ids(findings, 'warning')).toContain('re-prefill');
    expect(ids(findings)).toContain('host-bound');
    expect(byId(findings, 're-prefill').evidence.prefillShare).toBeGreaterThan(0.7);
    expect(ids(findings)).not.toContain('healthy-dense-decode');
  });

  it('transformers MoE: host-bound, MoE recognized, its per-expert gathers flagged', () => {
    const findings = hfTrace('moe_decode');
    expect(ids(findings)).toContain('host-bound');
    expect(ids(findings)).toContain('moe-routing-heavy');
    expect(ids(findings)).not.toContain('healthy-dense-decode');
    expect(byId(findings, 'moe-routing-heavy').kernel).toMatch(/vectorized_gather_kernel/);
  });

  it('transformers tiny model: host-bound', () => {
    const findings = hfTrace('tiny_hostbound');
    expect(byId(findings, 'host-bound').evidence.busyFraction).toBeCloseTo(0.0274, 4);
  });

  it('vLLM Qwen2.5-7B: fused attention, fused norm and rope: no finding', () => {
    expect(diagnose('vllm_qwen2.5-7b_cuda_gpu_kern_sum.csv')).toEqual([]);
  });

  it('DeepSeek-OCR decode (HF, MoE decoder): healthy MoE mix, unfused RMSNorm and RoPE', () => {
    expect(ids(diagnose('dsocr_decode_rtx5090_cuda_gpu_kern_sum.csv'))).toEqual(['healthy-moe-decode', 'unfused-norm-rope', 'unfused-norm-rope']);
  });
});
