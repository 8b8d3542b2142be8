import { join } from 'node:path';
import { InputError } from '../../src/errors.js';
import { amdSmiCsv, amdSmiJson } from '../../src/ingest/formats/amd-smi.js';
import { detectFormat, ingestFile } from '../../src/ingest/registry.js';
import { openInput } from '../../src/ingest/common/input-file.js';
import rocmSmiCsv from '../../src/ingest/formats/rocm-smi-csv.js';
import { claimedBy, expectedFor, OWN_FIXTURES } from './sniff-sweep.js';
import { writeTempFile } from './profiler-temp-file.js';

const MI355X_CSV = join(OWN_FIXTURES, 'amd-smi', 'inferencex_mi355x_amd_smi_metric_csv_first_sample.csv');
const MI355X_JSON = join(OWN_FIXTURES, 'amd-smi', 'mi355x_amd_smi_metric_built.json');
const RX7900 = join(OWN_FIXTURES, 'rocm-smi', 'rocm_smi_csv_rx7900xt_marimo9237.csv');

/*
 * Expected readings from the CSV by hand (Python csv.DictReader): 8 rows, gpu 0..7, one timestamp
 * 1786553852; gfx_activity and umc_activity 0 everywhere; socket_power 238, 242, 246, 242, 241, 239,
 * 239, 241 W; GPU 0's eight gfx_N_clk 95, 94, 94, 95, 109, 109, 111, 111 MHz (mean 102.25).
 */
const POWER = [238, 242, 246, 242, 241, 239, 239, 241];

describe('amd-smi metric --csv (MI355X, 8 GPUs, one sample, list-valued cells)', () => {
  test('one sample per GPU, idle, power and the mean XCD clock', async () => {
    expect(detectFormat(await openInput(MI355X_CSV)).id).toBe('amd-smi-csv');
    const capture = await ingestFile(MI355X_CSV);
    expect(capture.utilization.map((s) => s.device)).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
    expect(capture.utilization.every((s) => s.gpuPercent === 0 && s.memoryPercent === 0 && s.t === 1786553852)).toBe(true);
    expect(capture.utilization.map((s) => s.powerW)).toEqual(POWER);
    expect(capture.utilization[0]!.smClockMhz).toBe(102.25);
    expect(capture.environment).toEqual({ vendor: 'amd', gpuCount: 8 });
    expect(capture.source).toMatchObject({ format: 'amd-smi-csv', tool: 'amd-smi' });
  });

  test('a row cut short is refused, naming the line', async () => {
    const text = (await (await openInput(MI355X_CSV)).text()).split('\n');
    const path = writeTempFile('cut.csv', [...text.slice(0, 3), text[3]!.slice(0, 200)].join('\n'));
    const error = await ingestFile(path).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InputError);
    expect((error as Error).message).toMatch(new RegExp(`^${path}:4: expected (114 fields as in the header|well-formed CSV quoting)`));
  });
});

describe('amd-smi metric --json (built from the same sample in the documented structure)', () => {
  test('reads the same numbers as the CSV, and a second --watch document as a second sample', async () => {
    expect(detectFormat(await openInput(MI355X_JSON)).id).toBe('amd-smi-json');
    const capture = await ingestFile(MI355X_JSON);
    expect(capture.utilization).toHaveLength(16);
    const first = capture.utilization.slice(0, 8);
    expect(first.map((s) => s.powerW)).toEqual(POWER);
    expect(first[0]).toMatchObject({ device: 0, gpuPercent: 0, memoryPercent: 0, smClockMhz: 102.25 });
    // The second document raises GPU 0 to 40 %.
    expect(capture.utilization[8]).toMatchObject({ device: 0, gpuPercent: 40 });
    expect(capture.environment).toEqual({ vendor: 'amd', gpuCount: 8 });
  });

  test('{"gpu_data": [...]} and plain numbers are read too; N/A activity is counted, not a sample', async () => {
    const path = writeTempFile('gpu_data.json', JSON.stringify({ gpu_data: [{ gpu: 0, usage: { gfx_activity: 55, umc_activity: 'N/A' } }, { gpu: 1, usage: { gfx_activity: 'N/A' } }] }));
    const capture = await ingestFile(path);
    expect(capture.utilization).toEqual([{ device: 0, gpuPercent: 55, reasons: [] }]);
    expect(capture.source.stats).toContainEqual(expect.objectContaining({ name: 'gpu-without-utilization', severity: 'data-loss' }));
  });
});

describe('rocm-smi --csv (RX 7900 XT, one snapshot)', () => {
  test('one card, 0 % use, VRAM used in bytes, the card series as GPU name', async () => {
    expect(detectFormat(await openInput(RX7900)).id).toBe('rocm-smi-csv');
    const capture = await ingestFile(RX7900);
    // Read from the file: card0, GPU use 0, VRAM Total Used Memory (B) 27856896, Card Series Radeon RX 7900 XT.
    expect(capture.utilization).toEqual([{ device: 0, gpuPercent: 0, memoryUsedBytes: 27_856_896, reasons: [] }]);
    expect(capture.environment).toEqual({ vendor: 'amd', gpuCount: 1, gpuName: 'Radeon RX 7900 XT' });
  });

  test('a WARNING line before the header is skipped; a row without a header is refused', async () => {
    const ok = writeTempFile('warn.csv', 'WARNING: unlocked\n\ndevice,GPU use (%)\ncard0,37\ncard1,12\n');
    expect((await ingestFile(ok)).utilization.map((s) => [s.device, s.gpuPercent])).toEqual([[0, 37], [1, 12]]);
    const bad = writeTempFile('bad.csv', 'device,GPU use (%)\ncard0,37,9\n');
    await expect(ingestFile(bad)).rejects.toThrow(`${bad}:2: expected 2 fields as in the header, got 3`);
  });
});

describe('AMD smi sniffs claim exactly their own files', () => {
  test.each([
    [amdSmiCsv, /amd_smi_metric_csv.*\.csv$/],
    [amdSmiJson, /amd_smi_metric_built\.json$/],
    [rocmSmiCsv, /rocm_smi_csv_.*\.csv$/],
  ])('%#', async (importer, pattern) => {
    const expected = await expectedFor(pattern);
    expect(expected.length).toBeGreaterThanOrEqual(1);
    expect(await claimedBy(importer)).toEqual(expected);
  });
});
