import { join } from 'node:path';
import { InputError } from '../../src/errors.js';
import { runImporter } from '../../src/ingest/common/importer.js';
import { inputFromText, openInput } from '../../src/ingest/common/input-file.js';
import nvidiaSmiCsv, { gpusByPosition, parseSmiColumns } from '../../src/ingest/formats/nvidia-smi-csv.js';
import { ingestFile } from '../../src/ingest/registry.js';
import { claimedBy, expectedFor, OWN_FIXTURES } from './sniff-sweep.js';
import { writeTempFile } from './profiler-temp-file.js';

const dir = join(OWN_FIXTURES, 'nvidia-smi');
const load = async (name: string) => runImporter(nvidiaSmiCsv, await openInput(join(dir, name)));
const fromText = (text: string) => runImporter(nvidiaSmiCsv, inputFromText('log.csv', text));
const mean = (values: number[]) => values.reduce((a, b) => a + b, 0) / values.length;
const stat = (capture: Awaited<ReturnType<typeof load>>, name: string) => capture.source.stats.find((s) => s.name === name);

describe('nvidia-smi-csv on real logs', () => {
  it('reads the H200 idle query: units in values, mask 0x1 and Active/Not Active fields', async () => {
    const capture = await load('h200_idle_query.csv');
    // Read by hand from the one data row of the file.
    expect(capture.utilization).toEqual([
      { device: 0, gpuPercent: 0, memoryPercent: 0, smClockMhz: 405, powerW: 123.2, memoryUsedBytes: 0, reasons: ['gpu_idle'] },
    ]);
    expect(capture.environment).toMatchObject({ vendor: 'nvidia', gpuName: 'NVIDIA H200', driver: '580.159.04' });
    // No index or pci.bus_id column: the GPU count is not known.
    expect(capture.environment.gpuCount).toBeUndefined();
  });

  it('reads a looped 2-GPU log, one row per GPU per sample', async () => {
    const capture = await load('openad_2xA6000_query_gpu_loop_trimmed.csv');
    // awk -F', ' 'NR>1{n[$2]++; s[$2]+=$4+0; m[$2]+=$5+0}' → GPU 0: 20 rows, mean util 91.45, mean mem util 62; GPU 1: 20 rows of 0.
    const gpu0 = capture.utilization.filter((s) => s.device === 0);
    const gpu1 = capture.utilization.filter((s) => s.device === 1);
    expect(gpu0).toHaveLength(20);
    expect(gpu1).toHaveLength(20);
    expect(mean(gpu0.map((s) => s.gpuPercent))).toBeCloseTo(91.45, 10);
    expect(mean(gpu0.map((s) => s.memoryPercent!))).toBeCloseTo(62, 10);
    expect(gpu1.every((s) => s.gpuPercent === 0)).toBe(true);
    // Row 2: 25073 MiB used; timestamps 2024/11/23 12:23:29.950 → 12:23:49.273 span 19.323 s.
    expect(gpu0[0]!.memoryUsedBytes).toBe(25073 * 1024 * 1024);
    const times = capture.utilization.map((s) => s.t!);
    expect(Math.max(...times) - Math.min(...times)).toBeCloseTo(19.323, 6);
    expect(capture.environment).toMatchObject({ gpuName: 'NVIDIA RTX A6000', gpuCount: 2 });
  });

  it('drops the header repeated before every sample', async () => {
    const capture = await load('rtx2070_repeated_header_trimmed.csv');
    // grep -vc '^timestamp' → 10 data rows; awk mean of utilization.gpu = 27.3; 10 header lines, 9 repeated.
    expect(capture.utilization).toHaveLength(10);
    expect(mean(capture.utilization.map((s) => s.gpuPercent))).toBeCloseTo(27.3, 10);
    expect(stat(capture, 'repeated-header')?.count).toBe(9);
    expect(capture.utilization.map((s) => s.memoryUsedBytes! / 1024 / 1024)).toEqual([841, 869, 865, 865, 865, 865, 817, 826, 819, 856]);
  });

  it('reads the full H200 query of the research notes: duplicate mask column, timestamp, index', async () => {
    const capture = await load('h200_full_query_formats_doc.csv');
    expect(capture.utilization).toEqual([
      { t: Date.UTC(2026, 10, 30, 4, 28, 32) / 1000 + 0.405, device: 0, gpuPercent: 0, memoryPercent: 0, smClockMhz: 345, powerW: 79.56, memoryUsedBytes: 0, reasons: ['gpu_idle'] },
    ]);
    expect(capture.environment.gpuCount).toBe(1);
  });
});

describe('nvidia-smi-csv on a real nounits -lms log (H200 under a bf16 matmul load)', () => {
  it('takes units from the header and agrees between mask and per-reason fields', async () => {
    const capture = await load('h200_load_nounits_lms250.csv');
    // python over the 28 data rows: sum utilization.gpu 702, peak 100, max power.draw 691.72 W;
    // mask 0x4 (sw_power_cap) on 9 rows, 0x1 (gpu_idle) on 14; the sw_power_cap field is Active on the same 9.
    expect(capture.utilization).toHaveLength(28);
    expect(mean(capture.utilization.map((s) => s.gpuPercent))).toBeCloseTo(702 / 28, 10);
    expect(Math.max(...capture.utilization.map((s) => s.powerW!))).toBe(691.72);
    expect(capture.utilization.filter((s) => s.reasons.join() === 'sw_power_cap')).toHaveLength(9);
    expect(capture.utilization.filter((s) => s.reasons.join() === 'gpu_idle')).toHaveLength(14);
    expect(capture.utilization[1]).toEqual({
      t: Date.UTC(2026, 10, 30, 5, 11, 31) / 1000 + 0.908,
      device: 0,
      gpuPercent: 0,
      memoryPercent: 0,
      smClockMhz: 480,
      powerW: 128.28,
      memoryUsedBytes: 0,
      reasons: ['gpu_idle'],
    });
    // 05:11:31.654 → 05:11:38.454
    const times = capture.utilization.map((s) => s.t!);
    expect(times[times.length - 1]! - times[0]!).toBeCloseTo(6.8, 6);
  });
});

describe('nvidia-smi-csv variants', () => {
  const header = 'timestamp, index, utilization.gpu [%], utilization.memory [%], clocks.current.sm [MHz], power.draw [W], memory.used [MiB], clocks_throttle_reasons.active, clocks_throttle_reasons.hw_slowdown';

  it('takes units from the header under nounits and reads the older throttle prefix', async () => {
    const capture = await fromText(
      [
        header,
        '2026/01/02 03:04:05.000, 0, 97, 40, 1410, 398.10, 80000, 0x0000000000000004, Not Active',
        '2026/01/02 03:04:05.000, 1, 95, 38, 1200, 401.00, 79000, 0x0000000000000000, Active',
      ].join('\n'),
    );
    expect(capture.utilization).toEqual([
      { t: Date.UTC(2026, 0, 2, 3, 4, 5) / 1000, device: 0, gpuPercent: 97, memoryPercent: 40, smClockMhz: 1410, powerW: 398.1, memoryUsedBytes: 80000 * 1048576, reasons: ['sw_power_cap'] },
      { t: Date.UTC(2026, 0, 2, 3, 4, 5) / 1000, device: 1, gpuPercent: 95, memoryPercent: 38, smClockMhz: 1200, powerW: 401, memoryUsedBytes: 79000 * 1048576, reasons: ['hw_slowdown'] },
    ]);
  });

  it('leaves out [N/A] and [Not Supported] fields and counts them; a row without utilization is counted, not kept', async () => {
    const capture = await fromText(
      [
        header,
        '2026/01/02 03:04:05.000, 0, 50, [N/A], 1410, [Not Supported], 100, 0x0000000000000000, Not Active',
        '2026/01/02 03:04:06.000, 0, [N/A], [N/A], 1410, 300.00, 100, 0x0000000000000000, Not Active',
      ].join('\n'),
    );
    expect(capture.utilization).toHaveLength(1);
    expect(capture.utilization[0]).not.toHaveProperty('memoryPercent');
    expect(capture.utilization[0]).not.toHaveProperty('powerW');
    expect(capture.utilization[0]!.gpuPercent).toBe(50);
    expect(stat(capture, 'value-not-available')?.count).toBe(3);
    expect(stat(capture, 'row-without-utilization')).toMatchObject({ count: 1, severity: 'data-loss' });
  });

  it('numbers GPUs by pci.bus_id order when there is no index column', async () => {
    const capture = await fromText(
      ['pci.bus_id, utilization.gpu [%]', '00000000:18:00.0, 10 %', '00000000:3B:00.0, 20 %', '00000000:18:00.0, 30 %'].join('\n'),
    );
    expect(capture.utilization.map((s) => [s.device, s.gpuPercent])).toEqual([[0, 10], [1, 20], [0, 30]]);
    expect(capture.environment.gpuCount).toBe(2);
  });

  it('counts a row whose field count does not match its header', async () => {
    const capture = await fromText(['index, utilization.gpu [%]', '0, 10 %', '0, 10 %, 3'].join('\n'));
    expect(capture.utilization).toHaveLength(1);
    expect(stat(capture, 'malformed-row')?.count).toBe(1);
  });
});

describe('nvidia-smi-csv bad input', () => {
  it('explains that a noheader log cannot be read, naming file and line', async () => {
    const text = '2026/11/30 04:28:32.405, 0, 37, 12\n2026/11/30 04:28:33.405, 0, 38, 12\n';
    expect(nvidiaSmiCsv.sniff(text)).toBe(true);
    await expect(fromText(text)).rejects.toThrow(InputError);
    await expect(fromText(text)).rejects.toThrow(/^log\.csv:1: expected an nvidia-smi --query-gpu header.*noheader/);
  });

  it('rejects a query without utilization.gpu', async () => {
    await expect(fromText('index, memory.used [MiB]\n0, 10 MiB\n')).rejects.toThrow(/^log\.csv:1: expected a utilization\.gpu column/);
  });

  it('rejects a log whose every row lacks utilization (MIG mode)', async () => {
    await expect(fromText('index, utilization.gpu [%]\n0, [N/A]\n1, [N/A]\n')).rejects.toThrow(/^log\.csv:2: expected at least one row/);
  });
});

describe('nvidia-smi-csv sniff', () => {
  it('claims exactly the nvidia-smi logs among all fixtures', async () => {
    const expected = await expectedFor(/\/nvidia-smi\/.*\.csv$|\/smi\/.*_noheader_.*\.csv$/);
    expect(expected.length).toBeGreaterThanOrEqual(4);
    expect(await claimedBy(nvidiaSmiCsv)).toEqual(expected);
  });

  it('does not claim a generic comma-space CSV', () => {
    expect(nvidiaSmiCsv.sniff('name, index\nfoo, 1\n')).toBe(false);
    expect(nvidiaSmiCsv.sniff('Time (%),Total Time (ns),Instances\n')).toBe(false);
  });
});

describe('nvidia-smi-csv noheader logs (--format=csv,noheader,nounits)', () => {
  const noheader = join(dir, 'llamacpp_4gpu_noheader_nounits.csv');
  const query = ['timestamp', 'utilization.gpu', 'memory.used'];

  it('without the query list: one line naming --smi-columns', async () => {
    const error = await ingestFile(noheader).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InputError);
    expect((error as Error).message).toMatch(new RegExp(`^${noheader}:1: expected an nvidia-smi --query-gpu header.*pass the --query-gpu list it was written with as --smi-columns`));
  });

  it('with the query list: 4 GPUs by position, 388 samples at 0 %, MiB values without units', async () => {
    const capture = await ingestFile(noheader, undefined, { smiColumns: query });
    // awk: 388 rows, utilization 0 in every row; rows come in groups of four (one per GPU), and
    // memory.used is constant per position: 11409, 10851, 10911, 13325 MiB (97 rows each).
    expect(capture.utilization).toHaveLength(388);
    expect(capture.utilization.every((s) => s.gpuPercent === 0)).toBe(true);
    expect(capture.environment).toMatchObject({ vendor: 'nvidia', gpuCount: 4 });
    const mib = [11409, 10851, 10911, 13325];
    for (let device = 0; device < 4; device++) {
      const samples = capture.utilization.filter((s) => s.device === device);
      expect(samples).toHaveLength(97);
      expect(new Set(samples.map((s) => s.memoryUsedBytes))).toEqual(new Set([mib[device]! * 1024 ** 2]));
    }
    expect(capture.source.parts).toEqual(['query-gpu-noheader']);
  });

  it('a query list of the wrong width is refused at the first row', async () => {
    await expect(ingestFile(noheader, undefined, { smiColumns: ['timestamp', 'utilization.gpu'] })).rejects.toThrow(`${noheader}:1: expected 2 fields as in --smi-columns (timestamp,utilization.gpu), got 3`);
  });

  it('a noheader log that does not start with a timestamp is found through the columns given', async () => {
    const path = writeTempFile('util.csv', '37, 1024\n40, 1024\n');
    await expect(ingestFile(path)).rejects.toThrow(/unrecognized capture format/);
    const capture = await ingestFile(path, undefined, { smiColumns: ['utilization.gpu', 'memory.used'] });
    expect(capture.utilization.map((s) => s.gpuPercent)).toEqual([37, 40]);
  });

  it('parses the list as typed on the nvidia-smi command line', () => {
    expect(parseSmiColumns('--query-gpu=timestamp,utilization.gpu [%], memory.used')).toEqual(query);
    expect(() => parseSmiColumns('memory.used')).toThrow(/expected utilization.gpu among the fields/);
    expect(() => parseSmiColumns('timestamp;utilization.gpu')).toThrow(/expected the nvidia-smi --query-gpu list/);
  });

  it('tells GPUs apart by position only when groups are evenly spaced', () => {
    const t = (rows: number[][]) => rows.flat();
    // One GPU, 1 s apart; two GPUs printed 1 ms apart each second; uneven rows say nothing.
    expect(gpusByPosition([0, 1, 2, 3, 4])).toBe(1);
    expect(gpusByPosition(t([[0, 0.001], [1, 1.001], [2, 2.001], [3, 3.002]]))).toBe(2);
    expect(gpusByPosition([0, 0.3, 0.31, 2, 2.05, 5])).toBeUndefined();
    expect(gpusByPosition([0, undefined, 2])).toBeUndefined();
  });
});
