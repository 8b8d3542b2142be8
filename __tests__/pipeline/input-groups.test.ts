/**
 * Inputs that describe one run twice, or different runs, on real captures. Expected readings come
 * from what each file records (deviceProperties names, smi `name` columns, kernel namespaces), read
 * by hand from the files.
 */
import { copyFileSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { InputError } from '../../src/errors.js';
import { analyze } from '../../src/pipeline/analyze.js';
import { ingestFile } from '../../src/ingest/registry.js';
import { countEachRunOnce, mixedInputs } from '../../src/pipeline/input-groups.js';
import { OWN_FIXTURES } from '../ingest/sniff-sweep.js';
import { cli } from '../helpers/cli.js';
import { ingestedOnce } from '../helpers/shared-analysis.js';

const fx = (path: string) => join(OWN_FIXTURES, path);
const RTX5090 = fx('nsys/dsocr_decode_rtx5090_cuda_gpu_kern_sum.csv');
const QWEN = fx('nsys/vllm_qwen2.5-7b_cuda_gpu_kern_sum.csv');
const H100 = fx('external-2/kineto/vllm_tp4_h100_rank0_1000isl_10osl_32con.pt.trace.json.gz');
const MI250 = fx('kineto/hta_mi250_rocm6.2_minitoy_train_kineto.json');
const MI300X_SMI = fx('rocm-smi/rocm_smi_mi300_pretty.json');
const RTX2070_SMI = fx('nvidia-smi/rtx2070_repeated_header_trimmed.csv');
const H200_KINETO = fx('kineto/dense_decode.trace.json.gz');
const H200_NSYS = fx('nsys/nsys_healthy_kern_sum.csv');
const H200_SMI = fx('nvidia-smi/h200_idle_query.csv');
const R9700_JSON = fx('rocprof/llamacpp_r9700_gfx1201_rocprofv1_results.json');
const R9700_CSV = fx('rocprof/llamacpp_r9700_gfx1201_results.csv');
const R9700_STATS = fx('rocprof/llamacpp_r9700_gfx1201_results.stats.csv');

const refusal = async (inputs: string[]) => {
  const error = await analyze({ inputs }).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(InputError);
  const message = (error as Error).message;
  expect(message.split('\n')).toHaveLength(1);
  return message;
};

describe('inputs that must not be merged are refused in one line naming both groups', () => {
  test('an RTX 5090 DeepSeek-OCR decode and a vLLM Qwen run (neither names its GPU): vLLM kernels in one only', async () => {
    const message = await refusal([RTX5090, QWEN]);
    expect(message).toBe(
      `${QWEN}: the inputs record different workloads: ${RTX5090} (no vLLM kernels) and ${QWEN} (vLLM kernels); analyze each group on its own, or pass --allow-mixed (action input allow-mixed: true) to merge them`,
    );
  });

  test('an H100 trace and an MI250 trace: different vendors', async () => {
    expect(await refusal([H100, MI250])).toContain(`different GPU vendors: ${H100} (NVIDIA) and ${MI250} (AMD)`);
  });

  test('an H100 trace and an MI300X rocm-smi log', async () => {
    expect(await refusal([H100, MI300X_SMI])).toContain('different GPU vendors');
  });

  test('an H100 trace with an RTX 2070 nvidia-smi log: different GPUs of one vendor', async () => {
    expect(await refusal([H100, RTX2070_SMI])).toContain(`different GPUs: ${H100} (NVIDIA H100 80GB HBM3) and ${RTX2070_SMI} (NVIDIA GeForce RTX 2070)`);
  });

  test('--allow-mixed merges them, with a warning that says what was mixed', async () => {
    const report = await analyze({ inputs: [RTX5090, QWEN], allowMixed: true });
    const notice = report.notices.find((n) => n.code === 'mixed-inputs');
    expect(notice).toMatchObject({ severity: 'warning' });
    expect(notice!.message).toContain('different workloads');
    // Both tables summed: 179,072,697 + 2,081,145,534 ns (Python csv.DictReader over Total Time (ns) of each file).
    expect(report.totalKernelNs).toBe(179_072_697 + 2_081_145_534);
  });
});

test('the CLI refuses mixed inputs with exit 2, and --allow-mixed merges them', async () => {
  const refused = await cli(['analyze', RTX5090, QWEN]);
  expect(refused.code).toBe(2);
  expect(refused.stderr.trimEnd().split('\n')).toHaveLength(1);
  expect(refused.stderr).toContain('different workloads');
  const merged = await cli(['analyze', '--allow-mixed', RTX5090, QWEN]);
  expect(merged.code).toBe(0);
  expect(merged.stdout).toContain('warning: the inputs record different workloads');
});

describe('inputs of one machine and one workload are kept together', () => {
  test('an H200 trace, an H200 nsys table and an H200 smi sample: no refusal (the nsys table names no GPU)', async () => {
    const captures = await Promise.all([H200_KINETO, H200_NSYS, H200_SMI].map((p) => ingestFile(p)));
    expect(mixedInputs(captures)).toBeUndefined();
  });

  test('a capture that records nothing about its GPU is never the reason for a refusal', async () => {
    const nsys = await ingestFile(H200_NSYS);
    const h100 = await ingestedOnce(H100);
    expect(mixedInputs([nsys, await ingestFile(RTX2070_SMI)])).toBeUndefined();
    // The H200 table has no vLLM kernel but the H100 vLLM trace does: that is a different workload.
    expect(mixedInputs([nsys, h100])?.message).toContain('different workloads');
  });
});

describe('one run given twice counts once', () => {
  test('rocprof results.json, results.csv and results.stats.csv of one run: 662,138,329 ns, not three times that', async () => {
    const report = await analyze({ inputs: [R9700_CSV, R9700_STATS, R9700_JSON] });
    expect(report.totalKernelNs).toBe(662_138_329);
    const notices = report.notices.filter((n) => n.code === 'same-run-counted-once');
    expect(notices).toHaveLength(1);
    // A per-dispatch trace is kept (it has the timeline; results.csv and results.json are both
    // traces, the first given wins); the other two files are named as set aside.
    expect(notices[0]!.message).toBe(
      `${R9700_STATS}, ${R9700_JSON} record the same kernel launches as ${R9700_CSV} (one run written twice); they were set aside so the run counts once`,
    );
    expect(report.timeline?.kernelLaunches).toBe(1_963);
  });

  test('two different runs of similar kernels are both counted', async () => {
    const a = await ingestFile(H200_NSYS);
    const b = await ingestFile(fx('nsys/nsys_hf_hostbound_kern_sum.csv'));
    expect(countEachRunOnce([a, b]).notices).toEqual([]);
  });
});

describe('one unreadable file in a directory', () => {
  const dir = mkdtempSync(join(tmpdir(), 'pg-skip-'));
  copyFileSync(H200_NSYS, join(dir, 'kern_sum.csv'));
  writeFileSync(join(dir, 'notes.json'), '{"not": "a capture"}\n');

  test('is skipped with a warning when found in a directory', async () => {
    const inputs = [join(dir, 'kern_sum.csv'), join(dir, 'notes.json')];
    const report = await analyze({ inputs, skippable: new Set(inputs) });
    expect(report.totalKernelNs).toBeGreaterThan(0);
    const notice = report.notices.find((n) => n.code === 'unreadable-input');
    expect(notice).toMatchObject({ severity: 'warning' });
    expect(notice!.message).toMatch(new RegExp(`^skipped ${join(dir, 'notes.json')}:1: unrecognized capture format`));
  });

  test('the CLI skips it inside a directory, and --strict fails on it', async () => {
    const skipped = await cli(['analyze', '--json', join(dir, 'out', 'report.json'), dir]);
    expect(skipped.code).toBe(0);
    expect(skipped.stdout).toContain('warning: skipped');
    const strict = await cli(['analyze', '--strict', dir]);
    expect(strict.code).toBe(2);
    expect(strict.stderr).toMatch(/^profile-gate: .*notes\.json:1: unrecognized capture format.*\n$/);
  });

  test('fails when named directly, or when nothing at all could be read', async () => {
    await expect(analyze({ inputs: [join(dir, 'kern_sum.csv'), join(dir, 'notes.json')] })).rejects.toThrow(/notes\.json:1: unrecognized capture format/);
    const only = [join(dir, 'notes.json')];
    await expect(analyze({ inputs: only, skippable: new Set(only) })).rejects.toThrow(/notes\.json:1: unrecognized capture format/);
  });
});

describe('GPU names are compared as the tools spell them', () => {
  const withGpu = async (path: string, gpuName: string) => ({ ...(await ingestFile(path)), environment: { ...(await ingestFile(path)).environment, gpuName } });

  test.each([
    // rocminfo drops spaces; ROCm PyTorch names every GPU "AMD Radeon Graphics"; form factors differ.
    ['AMDRadeonAIPROR9700', 'AMD Radeon AI PRO R9700'],
    ['AMD Radeon Graphics', 'AMD Instinct MI300X'],
    ['NVIDIA H100 80GB HBM3', 'NVIDIA H100 PCIe'],
    ['NVIDIA H200', 'NVIDIA H200 NVL'],
  ])('%s and %s may be one GPU', async (a, b) => {
    expect(mixedInputs([await withGpu(H200_SMI, a), await withGpu(H200_SMI, b)])).toBeUndefined();
  });

  test.each([
    ['NVIDIA H100 80GB HBM3', 'NVIDIA GeForce RTX 4090'],
    ['NVIDIA A100-SXM4-80GB', 'NVIDIA H100 80GB HBM3'],
    ['AMD Instinct MI300X', 'AMD Instinct MI250X'],
  ])('%s and %s differ', async (a, b) => {
    expect(mixedInputs([await withGpu(H200_SMI, a), await withGpu(H200_SMI, b)])?.message).toContain('different GPUs');
  });
});

test('ranks of one job (same kernels, same counts, slightly different times) are never taken for one run', async () => {
  // Rank 1 of a balanced job: every kernel launched as often as on rank 0, each 0.1 % slower.
  const rank0 = await ingestFile(R9700_CSV);
  const rank1 = { ...rank0, source: { ...rank0.source, path: 'rank1.csv' }, kernels: rank0.kernels.map((k) => ({ ...k, totalNs: Math.round(k.totalNs * 1.001) })), timeline: undefined };
  expect(countEachRunOnce([rank0, rank1]).notices).toEqual([]);
  expect(countEachRunOnce([rank0, { ...rank0, source: { ...rank0.source, path: 'copy.csv' } }]).notices).toHaveLength(1);
});
