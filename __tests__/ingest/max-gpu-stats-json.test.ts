import { join } from 'node:path';
import { runImporter } from '../../src/ingest/common/importer.js';
import { inputFromText, openInput } from '../../src/ingest/common/input-file.js';
import maxGpuStatsJson from '../../src/ingest/formats/max-gpu-stats-json.js';
import { summarizeUtilization } from '../../src/pipeline/merge-captures.js';
import { claimedBy, expectedFor, OWN_FIXTURES } from './sniff-sweep.js';

const dir = join(OWN_FIXTURES, 'max-gpu');
const load = async (name: string) => runImporter(maxGpuStatsJson, await openInput(join(dir, name)));
const fromText = (text: string) => runImporter(maxGpuStatsJson, inputFromText('stats.json', text));

describe('max-gpu-stats-json', () => {
  it('reads a BackgroundRecorder.stats array: device from the key, reasons as given', async () => {
    const capture = await load('recorder_stats_2gpu.json');
    // The fixture's 4 dicts × nv0/nv1 (see PROVENANCE.md for the values it was built from).
    expect(capture.utilization.map((s) => [s.device, s.gpuPercent, s.memoryPercent, s.smClockMhz, s.reasons])).toEqual([
      [0, 0, 0, 345, ['gpu_idle']],
      [1, 0, 0, 345, ['gpu_idle']],
      [0, 91, 38, 1755, ['sw_power_cap']],
      [1, 0, 0, 345, ['gpu_idle']],
      [0, 98, 41, 1620, ['sw_power_cap', 'hw_slowdown']],
      [1, 3, 1, 1980, []],
      [0, 64, 22, 1980, []],
      [1, 0, 0, undefined, []], // "clocks": null
    ]);
    expect(capture.utilization[2]!.memoryUsedBytes).toBe(62277025792);
    expect(capture.environment).toEqual({ gpuCount: 2, vendor: 'nvidia' });
    // Only hardware reasons count as throttling: 2 samples carry sw_power_cap/hw_slowdown. The active window
    // is nv0's 91, 98, 64 and nv1's 3 (idle edges left out), so 2 of 4 window samples are throttled.
    expect(summarizeUtilization(capture.utilization)).toMatchObject({
      throttleReasons: ['hw_slowdown', 'sw_power_cap'],
      throttledFraction: 2 / 4,
      meanPercent: (91 + 98 + 64 + 3) / 4,
      overallMeanPercent: (0 + 0 + 91 + 0 + 98 + 3 + 64 + 0) / 8,
    });
  });

  it('reads JSON lines of AMD stats with a script-added time', async () => {
    const capture = await load('diag_stats_amd_lines.jsonl');
    expect(capture.utilization.map((s) => [s.t, s.device, s.gpuPercent, s.smClockMhz])).toEqual([
      [1796012640.25, 0, 12, 800],
      [1796012640.25, 1, 0, 800],
      [1796012641.25, 0, 97, 1700],
      [1796012641.25, 1, 0, 800],
      [1796012642.25, 0, 100, 1650],
      [1796012642.25, 1, 4, 800],
    ]);
    // memory_activity_percent and throttle_reasons are null on AMD.
    expect(capture.utilization.every((s) => s.memoryPercent === undefined && s.reasons.length === 0)).toBe(true);
    expect(capture.environment).toEqual({ gpuCount: 2, vendor: 'amd' });
  });

  it('numbers AMD devices after NVIDIA ones when both are present', async () => {
    const gpu = (util: number) => ({ memory: { used_bytes: 1 }, utilization: { gpu_usage_percent: util }, clocks: null });
    const capture = await fromText(JSON.stringify([{ nv0: gpu(10), amd0: gpu(20) }]));
    expect(capture.utilization.map((s) => [s.device, s.gpuPercent])).toEqual([[0, 10], [1, 20]]);
    expect(capture.source.stats.find((s) => s.name === 'mixed-vendors')).toBeDefined();
  });

  it('counts GPUs without a usable utilization', async () => {
    const capture = await fromText('{"nv0": {"memory": {}, "utilization": {"gpu_usage_percent": 101}}, "nv1": {"memory": {}, "utilization": {"gpu_usage_percent": 5}}}');
    expect(capture.utilization).toHaveLength(1);
    expect(capture.source.stats.find((s) => s.name === 'gpu-without-utilization')?.count).toBe(1);
  });

  it('rejects broken or foreign JSON with the line', async () => {
    await expect(fromText('[{"nv0": {"memory": {}, "utilization": {"gpu_usage_percent": 5}}},\n 3]')).rejects.toThrow(/^stats\.json:1: expected each sample to be an object/);
    await expect(fromText('{"nv0": {"memory": {}, "utilization": {"gpu_usage_percent": 5}}}\n{"foo": 1}')).rejects.toThrow(/^stats\.json:2: expected a sample keyed by nv0/);
    await expect(fromText('{"nv0": {"memory": {}, "utilization": {"gpu_usage_percent": 5}}}\n{"nv0": ')).rejects.toThrow(/^stats\.json:2: expected complete JSON/);
    await expect(fromText('[]')).rejects.toThrow(/^stats\.json:1: expected at least one GPU sample/);
  });

  it('claims exactly the max-gpu fixtures', async () => {
    expect(await claimedBy(maxGpuStatsJson)).toEqual(await expectedFor(/\/max-gpu\/.*\.jsonl?$/));
    expect((await expectedFor(/\/max-gpu\//)).length).toBe(2);
  });
});
