import { join } from 'node:path';
import { InputError } from '../../src/errors.js';
import { runImporter } from '../../src/ingest/common/importer.js';
import { inputFromText, openInput } from '../../src/ingest/common/input-file.js';
import rocmSmiJson from '../../src/ingest/formats/rocm-smi-json.js';
import { claimedBy, expectedFor, OWN_FIXTURES } from './sniff-sweep.js';

const dir = join(OWN_FIXTURES, 'rocm-smi');
const load = async (name: string) => runImporter(rocmSmiJson, await openInput(join(dir, name)));
const fromText = (text: string) => runImporter(rocmSmiJson, inputFromText('smi.json', text));

describe('rocm-smi-json', () => {
  it('reads one sample per card per document from a loop of JSON lines', async () => {
    const capture = await load('rocm_smi_loop_2cards.jsonl');
    // Values read with python json.loads from the fixture: 3 documents × 2 cards, card1's last
    // "GPU use (%)" is "N/A", so 5 samples.
    expect(capture.utilization.map((s) => [s.device, s.gpuPercent, s.memoryPercent, s.smClockMhz, s.powerW])).toEqual([
      [0, 10, 0, 800, 89],
      [1, 0, 0, 800, 86],
      [0, 97, 58, 1700, 341],
      [1, 0, 0, 800, 88],
      [0, 100, 61, 1650, 362],
    ]);
    expect(capture.utilization[2]!.memoryUsedBytes).toBe(41943040000);
    expect(capture.utilization.every((s) => s.t === undefined && s.reasons.length === 0)).toBe(true);
    expect(capture.source.stats.find((s) => s.name === 'card-without-utilization')).toMatchObject({ count: 1, severity: 'data-loss' });
    expect(capture.environment).toEqual({ vendor: 'amd', gpuCount: 2, gpuName: 'AMD Instinct MI250X/MI250', driver: '6.2.4' });
  });

  it('reads pretty-printed MI300 output after a WARNING line, with the newer key spellings', async () => {
    const capture = await load('rocm_smi_mi300_pretty.json');
    expect(capture.utilization).toEqual([
      { device: 0, gpuPercent: 88, memoryPercent: 43, smClockMhz: 2100, powerW: 612, memoryUsedBytes: 146028888064, reasons: [] },
      // "GPU Memory Read/Write Activity (%)": "N/A" → left out, never 0.
      { device: 1, gpuPercent: 0, smClockMhz: 132, powerW: 133, memoryUsedBytes: 299106304, reasons: [] },
    ]);
    expect(capture.source.stats.find((s) => s.name === 'tool-warning')?.count).toBe(1);
    expect(capture.environment).toMatchObject({ gpuName: 'AMD Instinct MI300X', driver: '6.8.5' });
  });

  it('matches keys case-insensitively by prefix and prefers read/write activity over allocation', async () => {
    const capture = await fromText('{"card3": {"gpu USE (%)": "7", "GPU Memory Allocated (VRAM%)": "90", "GPU memory use (%)": "12"}}');
    expect(capture.utilization).toEqual([{ device: 3, gpuPercent: 7, memoryPercent: 12, reasons: [] }]);
  });

  it('reads documents written back to back without newlines', async () => {
    const capture = await fromText('{"card0": {"GPU use (%)": "1"}}{"card0": {"GPU use (%)": "2"}}');
    expect(capture.utilization.map((s) => s.gpuPercent)).toEqual([1, 2]);
  });

  it('counts a cut-off last document', async () => {
    const capture = await fromText('{"card0": {"GPU use (%)": "1"}}\n{"card0": {"GPU use');
    expect(capture.utilization).toHaveLength(1);
    expect(capture.source.stats.find((s) => s.name === 'truncated-document')?.severity).toBe('data-loss');
  });

  it('takes the time a loop printed before each document, and skips other text', async () => {
    const capture = await fromText(
      ['1796014928', '{"card0": {"GPU use (%)": "1"}}', 'Sat Nov 30 05:00:00 UTC 2026', '{"card0": {"GPU use (%)": "2"}}', 'done 3', '{"card0": {"GPU use (%)": "3"}}'].join('\n'),
    );
    // Date.UTC(2026, 10, 30, 5) / 1000 = 1796014800.
    expect(capture.utilization.map((s) => [s.t, s.gpuPercent])).toEqual([[1796014928, 1], [1796014800, 2], [undefined, 3]]);
    expect(capture.source.stats.find((s) => s.name === 'non-json-line')?.count).toBe(1);
    expect(rocmSmiJson.sniff('Sat Nov 30 05:00:00 UTC 2026\n{"card0": {"GPU use (%)": "1"}}')).toBe(true);
    expect(rocmSmiJson.sniff('hello\n{"card0": {"GPU use (%)": "1"}}')).toBe(false);
  });

  it('rejects broken JSON and objects without cards, naming the line', async () => {
    await expect(fromText('{"card0": {"GPU use (%)": "1"}}\n{"card0": {"GPU use (%)": 1,}}')).rejects.toThrow(/^smi\.json:2: expected valid JSON/);
    await expect(fromText('{"card0": {"GPU use (%)": "1"}}\n[1, 2]\n')).rejects.toThrow(/^smi\.json:2: expected a rocm-smi JSON object/);
    await expect(fromText('{"system": {"Driver version": "6.2.4"}}')).rejects.toThrow(InputError);
    await expect(fromText('{"card0": {"GFX Activity": "1"}}')).rejects.toThrow(/^smi\.json:1: expected at least one card/);
  });

  it('claims exactly the rocm-smi fixtures', async () => {
    expect(await claimedBy(rocmSmiJson)).toEqual(await expectedFor(/\/rocm-smi\/.*\.jsonl?$/));
    expect((await expectedFor(/\/rocm-smi\/.*\.jsonl?$/)).length).toBe(2);
  });
});
