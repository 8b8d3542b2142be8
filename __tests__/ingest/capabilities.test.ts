/**
 * Every importer declares what its captures can hold (src/ingest/common/importer.ts, Capabilities),
 * and later stages ask that instead of naming formats. Here each declaration is held against what
 * the importer really builds from real captures of its format: a capability declared is produced by
 * at least one of them, one left out by none; `kernels: 'expected'` on every one of them, `'optional'`
 * on some and not others.
 */
import { join } from 'node:path';
import type { Capture, FormatId } from '../../src/model/capture.js';
import { FORMAT_IDS } from '../../src/model/capture.js';
import { capabilitiesOf, detectFormat, IMPORTERS, ingestFile, replaysKernels, suiteOf, vendorOf } from '../../src/ingest/registry.js';
import type { Capabilities } from '../../src/ingest/common/importer.js';
import { openInput } from '../../src/ingest/common/input-file.js';
import { OWN_FIXTURES } from './sniff-sweep.js';

/** Real captures of each format (paths under __tests__/fixtures; provenance in each folder). */
const FIXTURES: Record<FormatId, readonly string[]> = {
  'amd-smi-csv': ['amd-smi/inferencex_mi355x_amd_smi_metric_csv_first_sample.csv'],
  'amd-smi-json': ['amd-smi/mi355x_amd_smi_metric_built.json'],
  'gpu-snapshot-jsonl': ['gpu-snapshot/h200_snapshot_nvml_load.jsonl'],
  'jax-trace': ['h200-pairs/gpu_bound/jax_b8_jaxprof.perfetto_trace.json.gz', 'h200-pairs/host_bound/jax_eager_jaxprof.perfetto_trace.trimmed.json.gz'],
  'kineto-json': ['kineto/hta_a100_simple_add_trace.json', 'h200-stacks/fp8_decode/fp8.trace.json.gz'],
  'max-benchmark-json': ['max/benchmark_result.json'],
  // A served benchmark with `--profile` lists kernels; one without does not.
  'max-benchmark': ['max/benchmark_profile.txt', 'max/benchmark_p50.txt'],
  // `max generate --profile` lists kernels; a plain run prints metrics only.
  'max-generate': ['max/generate_profile_gemv.txt', 'max/generate_na.txt'],
  'max-gpu-stats-json': ['max-gpu/diag_stats_amd_lines.jsonl'],
  'ncu-csv': ['ncu/llama_decode_ncu_details.csv'],
  'nsys-gpu-time-util': ['e2e/healthy_graphoff_node.gpu_time_util_t100.csv'],
  'nsys-sqlite': ['sqlite/nsys_h200_dense_decode_built.sqlite'],
  'nsys-stats': ['h200-captures/gqa_repeat_kv/gqa_cuda_gpu_kern_sum.csv'],
  'nvidia-smi-csv': ['nvidia-smi/h200_idle_query.csv'],
  'rocm-smi-csv': ['rocm-smi/rocm_smi_csv_rx7900xt_marimo9237.csv'],
  'rocm-smi-json': ['rocm-smi/rocm_smi_loop_2cards.jsonl'],
  'rocpd-sqlite': ['sqlite/rocpd_llamacpp_r9700_built_results.db'],
  'rocprof-csv': ['rocprof/rocprofv1_laplacian_results_trimmed.csv'],
  'rocprof-json': ['rocprof/llamacpp_r9700_gfx1201_rocprofv1_results_head.json'],
  'workload-metrics-jsonl': ['h200-captures/healthy_decode/healthy_timed.stdout.jsonl'],
};

/** What a capture holds, in the words of Capabilities (kernels apart: they are checked with deepDive). */
const PRODUCED: Record<Exclude<keyof Capabilities, 'kernels'>, (capture: Capture) => boolean> = {
  timeline: (c) => c.timeline !== undefined,
  metrics: (c) => c.metrics.length > 0,
  utilization: (c) => c.utilization.length > 0 || c.gpuTimeUtilPercent !== undefined,
  deepDive: (c) => c.ncu.length > 0,
  ranks: (c) => c.distributed !== undefined || c.deviceTimelines.length > 1,
  // A token count beside the kernels of one generation (a served benchmark's total is no step count).
  tokensCountSteps: (c) => c.kernels.length > 0 && c.metrics.some((m) => m.name === 'output_tokens'),
};

const captures = new Map<FormatId, Promise<Capture[]>>();
function capturesOf(format: FormatId): Promise<Capture[]> {
  let read = captures.get(format);
  if (!read) {
    read = Promise.all(
      (FIXTURES[format] ?? []).map(async (relative) => {
        const path = join(OWN_FIXTURES, relative);
        // Read by content, as a user's file is: the fixture must be detected as its format.
        expect(detectFormat(await openInput(path)).id).toBe(format);
        return ingestFile(path);
      }),
    );
    captures.set(format, read);
  }
  return read;
}

describe('importer capabilities', () => {
  it('every format the model knows has one registered importer and real captures here', () => {
    expect(IMPORTERS.map((importer) => importer.id).sort()).toEqual([...FORMAT_IDS].sort());
    for (const format of FORMAT_IDS) expect(FIXTURES[format]?.length ?? 0).toBeGreaterThan(0);
  });

  it('every importer declares at least one thing its captures hold', () => {
    for (const importer of IMPORTERS) {
      const declared = Object.entries(importer.capabilities).filter(([, value]) => value !== undefined && value !== false);
      expect({ format: importer.id, declared: declared.length > 0 }).toEqual({ format: importer.id, declared: true });
    }
  });

  describe.each(IMPORTERS.map((importer) => importer.id))('%s', (format) => {
    it('produces each capability it declares, and none it leaves out', async () => {
      const read = await capturesOf(format);
      const declared = capabilitiesOf(format);
      for (const [name, produced] of Object.entries(PRODUCED) as Array<[keyof typeof PRODUCED, (c: Capture) => boolean]>) {
        expect({ format, name, produced: read.some(produced) }).toEqual({ format, name, produced: declared[name] === true });
      }
    });

    it('lists kernels as it declares: always when expected, in some captures when optional, only replayed in a deep dive', async () => {
      const read = await capturesOf(format);
      const declared = capabilitiesOf(format);
      const withKernels = read.filter((c) => c.kernels.length > 0).length;
      const seen = withKernels === 0 ? 'none' : withKernels === read.length ? 'all' : 'some';
      // A deep dive's kernel rows come with it; they time the replay, not the run.
      const expected = declared.kernels === 'expected' || declared.deepDive ? 'all' : declared.kernels === 'optional' ? 'some' : 'none';
      expect({ format, kernels: seen }).toEqual({ format, kernels: expected });
      expect(read.every((c) => replaysKernels(c) === (declared.deepDive === true))).toBe(true);
    });
  });

  it('names the vendor and suite of the tool that writes each format where there is one', () => {
    // The AMD formats are the ones the vendor-specific advice has always sent to ROCm's tools.
    const amd = FORMAT_IDS.filter((format) => vendorOf(format) === 'amd').sort();
    expect(amd).toEqual(['amd-smi-csv', 'amd-smi-json', 'rocm-smi-csv', 'rocm-smi-json', 'rocpd-sqlite', 'rocprof-csv', 'rocprof-json']);
    expect(FORMAT_IDS.filter((format) => suiteOf(format) === 'max').sort()).toEqual(['max-benchmark', 'max-benchmark-json', 'max-generate', 'max-gpu-stats-json']);
    expect(FORMAT_IDS.filter((format) => suiteOf(format) === 'nsys').sort()).toEqual(['nsys-gpu-time-util', 'nsys-sqlite', 'nsys-stats']);
    expect(FORMAT_IDS.filter((format) => suiteOf(format) === 'rocprof').sort()).toEqual(['rocpd-sqlite', 'rocprof-csv', 'rocprof-json']);
  });
});
