import { join } from 'node:path';
import { InputError } from '../../src/errors.js';
import { runImporter } from '../../src/ingest/common/importer.js';
import { inputFromText, openInput } from '../../src/ingest/common/input-file.js';
import { ingestFile } from '../../src/ingest/registry.js';
import { cli } from '../helpers/cli.js';
import ncuCsv from '../../src/ingest/formats/ncu-csv.js';
import { normalizeNcuValue } from '../../src/ingest/formats/ncu/units.js';
import type { NcuResult } from '../../src/model/capture.js';
import { claimedBy, expectedFor, OWN_FIXTURES } from './sniff-sweep.js';

const dir = join(OWN_FIXTURES, 'ncu');
const load = async (name: string) => runImporter(ncuCsv, await openInput(join(dir, name)));
const fromText = (text: string) => runImporter(ncuCsv, inputFromText('ncu.csv', text));
const metric = (result: NcuResult, section: string, name: string) =>
  result.metrics.find((m) => m.section === section && m.name === name);
const SOL = 'GPU Speed Of Light Throughput';
const HEADER =
  '"ID","Process ID","Process Name","Host Name","Kernel Name","Context","Stream","Block Size","Grid Size","Device","CC","Section Name","Metric Name","Metric Unit","Metric Value","Rule Name","Rule Type","Rule Description","Estimated Speedup Type","Estimated Speedup"';

describe('ncu-csv details page (H200, ncu 2025.3.1)', () => {
  it('reads four results past the ==PROF== lines, keyed by section and metric', async () => {
    const capture = await load('llama_decode_ncu_details.csv');
    expect(capture.source.parts).toEqual(['details']);
    expect(capture.ncu.map((r) => [r.id, r.kernel, r.metrics.length, r.rules.length])).toEqual([
      // python csv.reader over the rows after the header: 23 metric rows per ID; rules 2, 3, 2, 2.
      [0, 'nvjet_sm90_tst_8x64_64x16_4x1_v_bz_TNN', 23, 2],
      [1, 'cudnn_generated_fort_native_sdpa_sm80_flash_fprop_wmma_f16_knob_3_64x64x64_4x1x1_cga1x1x1_kernel0_0', 23, 3],
      [2, 'nvjet_sm90_tst_8x64_64x16_2x1_v_bz_TNN', 23, 2],
      [3, 'nvjet_sm90_tst_64x8_64x16_4x1_v_bz_TNT', 23, 2],
    ]);
    const [r0, r1, r2, r3] = capture.ncu as [NcuResult, NcuResult, NcuResult, NcuResult];
    // Read by hand from the CSV rows (e.g. line 10: "0",…,"Duration","ns","4,960").
    expect(metric(r0, SOL, 'Duration')).toEqual({ section: SOL, name: 'Duration', unit: 'ns', value: 4960 });
    expect(metric(r1, SOL, 'Duration')?.value).toBe(5792);
    expect(metric(r2, SOL, 'Duration')?.value).toBe(8736);
    expect(metric(r3, SOL, 'Duration')?.value).toBe(5440);
    expect(metric(r0, SOL, 'DRAM Throughput')).toEqual({ section: SOL, name: 'DRAM Throughput', unit: '%', value: 2.3 });
    expect(metric(r3, SOL, 'DRAM Throughput')?.value).toBe(22.28);
    expect(metric(r1, 'Occupancy', 'Achieved Occupancy')).toEqual({ section: 'Occupancy', name: 'Achieved Occupancy', unit: '%', value: 6.24 });
    expect(metric(r2, 'Occupancy', 'Achieved Occupancy')?.value).toBe(14.44);
    expect(metric(r0, SOL, 'SM Frequency')).toMatchObject({ unit: 'hz', value: 1806325604.84 });
    expect(metric(r0, SOL, 'Elapsed Cycles')).toMatchObject({ unit: 'cycle', value: 8990 });
    expect(r0).toMatchObject({ device: '0', cc: '9.0', block: '(384, 1, 1)', grid: '(4, 8, 1)' });
  });

  it('keeps rule rows with their type, section identifier and estimated speedup', async () => {
    const capture = await load('llama_decode_ncu_details.csv');
    const r1 = capture.ncu[1]!;
    // Line 54: "1",…,"Occupancy",…,"AchievedOccupancy","OPT","The difference between calculated theoretical (18.8%)…","local","66.74"
    const achieved = r1.rules.find((r) => r.name === 'AchievedOccupancy')!;
    expect(achieved).toMatchObject({ section: 'Occupancy', type: 'OPT', speedupType: 'local', estimatedSpeedupPercent: 66.74 });
    expect(achieved.description).toMatch(/^The difference between calculated theoretical \(18\.8%\)/);
    // Line 15: SOLBottleneck with empty speedup cells.
    const bottleneck = capture.ncu[0]!.rules.find((r) => r.name === 'SOLBottleneck')!;
    expect(bottleneck.section).toBe('SpeedOfLight');
    expect(bottleneck.description).toMatch(/^This kernel grid is too small to fill the available resources/);
    expect(bottleneck).not.toHaveProperty('estimatedSpeedupPercent');
    expect(capture.ncu.flatMap((r) => r.rules.filter((x) => x.name === 'TheoreticalOccupancy').map((x) => x.estimatedSpeedupPercent))).toEqual([81.25, 81.25, 81.25, 81.25]);
  });

  it('sums Duration per kernel name', async () => {
    const capture = await load('llama_decode_ncu_details.csv');
    // One result per kernel here; total 4960 + 5792 + 8736 + 5440 = 24928 ns (python over the Duration rows).
    expect(capture.kernels.map((k) => [k.name.slice(0, 38), k.instances, k.totalNs])).toEqual([
      ['nvjet_sm90_tst_8x64_64x16_2x1_v_bz_TNN', 1, 8736],
      ['cudnn_generated_fort_native_sdpa_sm80_', 1, 5792],
      ['nvjet_sm90_tst_64x8_64x16_4x1_v_bz_TNT', 1, 5440],
      ['nvjet_sm90_tst_8x64_64x16_4x1_v_bz_TNN', 1, 4960],
    ]);
    expect(capture.kernels.reduce((sum, k) => sum + k.totalNs, 0)).toBe(24928);
    expect(capture.kernels[3]).toMatchObject({ grid: [4, 8, 1], block: [384, 1, 1], device: 0, minNs: 4960, maxNs: 4960 });
    expect(capture.source.stats.find((s) => s.name === 'profiler-message')?.count).toBe(3);
  });
});

describe('ncu-csv details page (RTX 5090, ncu 2025.1.1): scaled units', () => {
  it('brings us, Ghz, Mbyte, Kbyte and Gbyte/s to base units', async () => {
    const gemm = (await load('dsocr_k0016_cutlass_gemm_ncu_details.csv')).ncu[0]!;
    // Read by hand: Duration "us" "404.70", SM Frequency "Ghz" "2.00", dram__bytes_read.sum "Mbyte" "63.77",
    // dram__bytes_write.sum "Kbyte" "197.38", Memory Workload Analysis / Memory Throughput "Gbyte/s" "158.07".
    expect(metric(gemm, SOL, 'Duration')).toMatchObject({ unit: 'ns', value: 404700 });
    expect(metric(gemm, SOL, 'SM Frequency')).toMatchObject({ unit: 'hz', value: 2e9 });
    expect(metric(gemm, 'Command line profiler metrics', 'dram__bytes_read.sum')).toMatchObject({ unit: 'byte', value: 63770000 });
    expect(metric(gemm, 'Command line profiler metrics', 'dram__bytes_write.sum')).toMatchObject({ unit: 'byte', value: 197380 });
    expect(metric(gemm, 'Memory Workload Analysis', 'Memory Throughput')).toMatchObject({ unit: 'byte/s', value: 158.07e9 });
    expect(metric(gemm, SOL, 'Memory Throughput')).toMatchObject({ unit: '%', value: 25.75 });
    expect(metric(gemm, SOL, 'DRAM Throughput')?.value).toBe(8.96);
    expect(metric(gemm, 'Occupancy', 'Achieved Occupancy')?.value).toBe(16.66);
  });

  it('reads the gemv rules with global and local speedups', async () => {
    const capture = await load('dsocr_k0001_gemv_ncu_details.csv');
    const rules = capture.ncu[0]!.rules.map((r) => [r.section, r.name, r.type, r.speedupType, r.estimatedSpeedupPercent]);
    // Lines 21, 22, 35, 49 of the file.
    expect(rules).toEqual([
      ['SpeedOfLight', 'SOLBottleneck', 'OPT', undefined, undefined],
      ['SpeedOfLight_RooflineChart', 'SOLFPRoofline', 'INF', undefined, undefined],
      ['SchedulerStats', 'IssueSlotUtilization', 'OPT', 'local', 80.34],
      ['Occupancy', 'TheoreticalOccupancy', 'OPT', 'global', 80.34],
    ]);
    expect(capture.kernels).toEqual([expect.objectContaining({ instances: 1, totalNs: 6750 })]);
  });
});

describe('ncu-csv raw page', () => {
  it('reads names, units and one row per result; sums per kernel', async () => {
    const capture = await load('llama_decode_ncu_raw_built.csv');
    expect(capture.source.parts).toEqual(['raw']);
    expect(capture.ncu.map((r) => r.id)).toEqual([0, 1, 2]);
    const r2 = capture.ncu[2]!;
    expect(metric(r2, 'raw', 'gpu__time_duration.sum')).toEqual({ section: 'raw', name: 'gpu__time_duration.sum', unit: 'ns', value: 6304 });
    expect(metric(r2, 'raw', 'launch__registers_per_thread')).toMatchObject({ unit: 'register/thread', value: 255 });
    expect(metric(r2, 'raw', 'dram__bytes_read.sum')).toMatchObject({ unit: 'byte', value: 'n/a' });
    expect(metric(capture.ncu[0]!, 'raw', 'device__attribute_max_threads_per_block')).toMatchObject({ unit: '', value: 1024 });
    expect(metric(capture.ncu[0]!, 'raw', 'gpc__cycles_elapsed.avg.per_second')).toMatchObject({ unit: 'hz', value: 1806325604.84 });
    expect(capture.ncu[0]!.metrics).toHaveLength(10);
    // Durations by hand: 4,960 + 5,024 for the two nvjet launches; 6,304 for the cudnn one.
    expect(capture.kernels.map((k) => [k.name.slice(0, 20), k.instances, k.totalNs, k.minNs, k.maxNs])).toEqual([
      ['nvjet_sm90_tst_8x64_', 2, 9984, 4960, 5024],
      ['cudnn_generated_fort', 1, 6304, 6304, 6304],
    ]);
  });

  it('reads a real raw page (ncu 2025.3.1, H200): 281 columns, app output before the header', async () => {
    const capture = await load('h200_small_matmul_ncu_raw.csv');
    // python csv.reader: 8 results, 281 columns (11 identity + 270 metrics), gpu__time_duration.sum in "ns":
    // 42,912 42,944 177,536 16,672 177,376 16,992 48,288 24,096 → total 546,816.
    expect(capture.ncu).toHaveLength(8);
    const r2 = capture.ncu[2]!;
    expect(r2.kernel).toBe('nvjet_sm90_tst_256x128_64x4_1x2_h_bz_coopA_NNT');
    expect(metric(r2, 'raw', 'gpu__time_duration.sum')).toMatchObject({ unit: 'ns', value: 177536 });
    expect(metric(r2, 'raw', 'sm__throughput.avg.pct_of_peak_sustained_elapsed')).toMatchObject({ unit: '%', value: 90.32 });
    expect(metric(r2, 'raw', 'dram__bytes_read.sum')).toMatchObject({ unit: 'byte', value: 148615680 });
    expect(metric(r2, 'raw', 'launch__registers_per_thread')).toMatchObject({ unit: 'register/thread', value: 168 });
    expect(capture.kernels.reduce((sum, k) => sum + k.totalNs, 0)).toBe(546816);
    expect(capture.kernels[0]).toMatchObject({ name: 'nvjet_sm90_tst_256x128_64x4_1x2_h_bz_coopA_NNT', instances: 2, totalNs: 354912, grid: [2, 66, 1], block: [384, 1, 1] });
    expect(capture.kernels.map((k) => k.instances)).toEqual([2, 2, 1, 2, 1]);
    expect(capture.source.stats.find((s) => s.name === 'ragged-raw-row')).toBeUndefined();
  });

  it('finds the same kernels on the details page of the same program', async () => {
    const raw = await load('h200_small_matmul_ncu_raw.csv');
    const details = await load('h200_small_matmul_ncu_details.csv');
    const shape = (c: typeof raw) => c.kernels.map((k) => [k.name, k.instances]).sort();
    expect(shape(details)).toEqual(shape(raw));
    // A separate profiling pass: durations differ a little (Duration rows: ID 2 178,304 ns; ID 7 22,848 ns).
    expect(metric(details.ncu[2]!, SOL, 'Duration')?.value).toBe(178304);
    expect(metric(details.ncu[7]!, SOL, 'DRAM Throughput')?.value).toBe(63.53);
    expect(metric(details.ncu[7]!, 'Occupancy', 'Achieved Occupancy')?.value).toBe(97.21);
    // 16 rule rows (python), e.g. ID 0 AchievedOccupancy OPT local 19.05.
    expect(details.ncu.reduce((n, r) => n + r.rules.length, 0)).toBe(16);
    expect(details.ncu[0]!.rules.find((r) => r.name === 'AchievedOccupancy')).toMatchObject({ type: 'OPT', speedupType: 'local', estimatedSpeedupPercent: 19.05 });
  });

  it('rejects a raw page without its units row', async () => {
    const text = '"ID","Process ID","Process Name","Host Name","Kernel Name","Device","gpu__time_duration.sum"\n"0","1","p","h","k","0","5"\n';
    await expect(fromText(text)).rejects.toThrow(/^ncu\.csv:2: expected the ncu --page raw units row/);
  });
});

describe('ncu-csv edge cases', () => {
  it('joins a rule description that spans lines and skips application output', async () => {
    const text = [
      'app says hello',
      HEADER,
      '"0","1","p","h","k","1","7","(32, 1, 1)","(1, 1, 1)","0","9.0","GPU Speed Of Light Throughput","Duration","usecond","1.5",',
      'app output in between',
      '"0","1","p","h","k","1","7","(32, 1, 1)","(1, 1, 1)","0","9.0","SpeedOfLight","","","","SOLBottleneck","WRN","line one',
      'line two","global","12.5"',
    ].join('\n');
    const capture = await fromText(text);
    expect(capture.ncu[0]!.metrics).toEqual([{ section: SOL, name: 'Duration', unit: 'ns', value: 1500 }]);
    expect(capture.ncu[0]!.rules).toEqual([
      { section: 'SpeedOfLight', name: 'SOLBottleneck', type: 'WRN', description: 'line one\nline two', speedupType: 'global', estimatedSpeedupPercent: 12.5 },
    ]);
    expect(capture.source.stats.find((s) => s.name === 'non-csv-line')?.count).toBe(1);
  });

  it('counts results without a Duration', async () => {
    const capture = await fromText(`${HEADER}\n"0","1","p","h","k","1","7","(32, 1, 1)","(1, 1, 1)","0","9.0","Occupancy","Achieved Occupancy","%","50",\n`);
    expect(capture.kernels).toEqual([{ name: 'k', instances: 1, totalNs: 0 }]);
    expect(capture.source.stats.find((s) => s.name === 'result-without-duration')?.severity).toBe('data-loss');
  });

  it('keeps text values and unknown units as printed', () => {
    expect(normalizeNcuValue('', 'PolicySpread')).toEqual({ unit: '', value: 'PolicySpread' });
    expect(normalizeNcuValue('warp', '13,485')).toEqual({ unit: 'warp', value: 13485 });
    expect(normalizeNcuValue('msecond', '1.25')).toEqual({ unit: 'ns', value: 1250000 });
    expect(normalizeNcuValue('cycle/nsecond', '1.39')).toEqual({ unit: 'hz', value: 1390000000 });
    // A European-locale value is not guessed at.
    expect(normalizeNcuValue('byte', '27.595.520')).toEqual({ unit: 'byte', value: '27.595.520' });
  });

  it('names the file and line on bad input', async () => {
    await expect(fromText('==PROF== Connected\n==ERROR== ERR_NVGPUCTRPERM - The user does not have permission\n')).rejects.toThrow(
      /^ncu\.csv:2: ncu failed and wrote no results; it said: ==ERROR== ERR_NVGPUCTRPERM/,
    );
    await expect(fromText(`${HEADER}\n"x","1"\n`)).rejects.toThrow(/^ncu\.csv:2: expected a result ID/);
    await expect(fromText(`${HEADER}\n`)).rejects.toThrow(/^ncu\.csv:2: expected at least one profiled result/);
    await expect(fromText(`${HEADER}\n"0","1","p","h","k","1","7","(32, 1, 1)","(1, 1, 1)","0","9.0","S","M","%","5`)).rejects.toThrow(InputError);
  });

  it('claims exactly the ncu CSVs among all fixtures', async () => {
    const expected = await expectedFor(/\/(ncu|ncu_deep_dive)\/.*\.(csv|txt)$|\/h100-patterns\/ncu_small_kernels\.csv$|\/repeatkv_copy\.(details|raw)\.csv$|\/deep-dive\.ncu\.csv$/);
    expect(expected.length).toBeGreaterThanOrEqual(4);
    expect(await claimedBy(ncuCsv)).toEqual(expected);
  });
});

describe('ncu logs with no results (real ncu 2025.3.1 output on an H200)', () => {
  const path = (name: string) => join(OWN_FIXTURES, 'ncu', name);
  const readLog = async (name: string) => ingestFile(path(name));

  it('an unknown --section: ncu failed, its first error quoted, with the line', async () => {
    await expect(readLog('ncu_bad_section.txt')).rejects.toThrow(
      `${path('ncu_bad_section.txt')}:1: ncu failed and wrote no results; it said: ==ERROR== Option '--section NoSuchSection' did not match any section. (and 1 more ==ERROR== line)`,
    );
  });

  it('a program that does not exist', async () => {
    await expect(readLog('ncu_missing_app.txt')).rejects.toThrow(new RegExp(`^${path('ncu_missing_app.txt')}:1: ncu failed and wrote no results; it said: ==ERROR== '/bin/does-not-exist' does not exist`));
  });

  it('a program that launched no kernel: the warning is named, after the program\'s own output', async () => {
    await expect(readLog('ncu_no_kernels.txt')).rejects.toThrow(`${path('ncu_no_kernels.txt')}:2: ncu profiled no kernels (==WARNING== No kernels were profiled)`);
  });

  it('the CLI exits 2 with that one line', async () => {
    const result = await cli(['analyze', path('ncu_bad_section.txt')]);
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(`profile-gate: ${path('ncu_bad_section.txt')}:1: ncu failed and wrote no results; it said: ==ERROR== Option '--section NoSuchSection' did not match any section. (and 1 more ==ERROR== line)\n`);
  });
});
