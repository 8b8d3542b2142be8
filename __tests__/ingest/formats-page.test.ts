/**
 * references/formats.md: each minimal file it shows is read as the format it is shown for, with
 * the readings the page says it gives; the metric names it lists are the catalog's.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ingestText } from '../../src/ingest/registry.js';
import { METRIC_CATALOG } from '../../src/model/metrics.js';
import type { Capture } from '../../src/model/capture.js';
import { ROOT } from '../helpers/fake-github-runner.js';

const PAGE = readFileSync(join(ROOT, 'references', 'formats.md'), 'utf8');

/** The page's examples: the block after each `<!-- format: ID -->`. */
const EXAMPLES = new Map([...PAGE.matchAll(/<!-- format: ([a-z0-9-]+) -->\n```[a-z]*\n([\s\S]*?)\n```/g)].map((m) => [m[1]!, `${m[2]!}\n`]));

async function read(format: string): Promise<Capture> {
  const text = EXAMPLES.get(format);
  expect({ format, shown: text !== undefined }).toEqual({ format, shown: true });
  // Detected from the content alone: the name says nothing.
  const capture = await ingestText(`formats.md#${format}`, text!);
  expect(capture.source.format).toBe(format);
  return capture;
}

describe('references/formats.md', () => {
  it('shows the five formats a user writes or exports most', () => {
    expect([...EXAMPLES.keys()]).toEqual(['nsys-stats', 'kineto-json', 'workload-metrics-jsonl', 'nvidia-smi-csv', 'rocprof-csv']);
  });

  it('nsys-stats: two kernels, their totals and launches, a name with commas whole', async () => {
    const capture = await read('nsys-stats');
    expect(capture.kernels.map((k) => [k.name, k.totalNs, k.instances])).toEqual([
      ['void flash_fwd_kernel<Flash_fwd_kernel_traits<128, 64, 64, 4>>(Flash_fwd_params)', 1250000, 128],
      ['nvjet_sm90_tst_256x8_64x6_4x1_v_bz_NNT', 750000, 256],
    ]);
  });

  it('kineto-json: one kernel of 2 launches and 240 µs, the GPU named, two profiler steps', async () => {
    const capture = await read('kineto-json');
    expect(capture.kernels.map((k) => [k.name, k.instances, k.totalNs])).toEqual([['nvjet_sm90_tst_256x8_64x6_4x1_v_bz_NNT', 2, 240_000]]);
    expect(capture.environment.gpuName).toBe('NVIDIA H100 80GB HBM3');
    expect(capture.timeline?.steps?.length ?? 0).toBe(2);
  });

  it('workload-metrics-jsonl: two decode samples, ttft, the batch, two timed windows', async () => {
    const capture = await read('workload-metrics-jsonl');
    expect(capture.metrics.filter((m) => m.name === 'decode_tok_s').map((m) => m.value)).toEqual([378.4, 378.6]);
    expect(capture.metrics.filter((m) => m.name === 'ttft_ms').map((m) => m.value)).toEqual([21.5]);
    expect(capture.environment.batch).toBe('1');
    expect(capture.timedWindows).toHaveLength(2);
  });

  it('nvidia-smi-csv: two samples of an H200, utilization 97 and 98 %', async () => {
    const capture = await read('nvidia-smi-csv');
    expect(capture.utilization.map((u) => [u.gpuPercent, u.smClockMhz, u.powerW, u.reasons])).toEqual([
      [97, 1980, 612.4, []],
      [98, 1980, 615.1, []],
    ]);
    expect(capture.environment.gpuName).toBe('NVIDIA H200');
  });

  it('rocprof-csv: two kernels with their totals and calls, on AMD', async () => {
    const capture = await read('rocprof-csv');
    expect(capture.kernels.map((k) => [k.name, k.totalNs, k.instances])).toEqual([
      ['Cijk_Alik_Bljk_BBS_BH_MT128x128x64_MI32x32x8x1_SN_1LDSB1', 20480000, 512],
      ['__amd_rocclr_copyBuffer', 5120000, 128],
    ]);
  });

  it('lists exactly the metric names the catalog reads', () => {
    const section = PAGE.slice(PAGE.indexOf('`{"metric": NAME, "value": NUMBER}`'), PAGE.indexOf('`{"kind": "run", "tok_s": NUMBER, …}`'));
    const names = [...section.matchAll(/`([a-z_]+)`/g)].map((m) => m[1]);
    expect(names.sort()).toEqual(Object.keys(METRIC_CATALOG).sort());
  });

  it('says how to state the tokens per step', () => {
    expect(PAGE).toMatch(/Add `"batch": N` \(sequences per decode step\) to each\s+`\{"kind": "run", …\}` line/);
  });
});
