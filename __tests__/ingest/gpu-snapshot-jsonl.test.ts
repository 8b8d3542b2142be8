import { join } from 'node:path';
import { InputError } from '../../src/errors.js';
import gpuSnapshotJsonl from '../../src/ingest/formats/gpu-snapshot-jsonl.js';
import { runImporter } from '../../src/ingest/common/importer.js';
import { inputFromText, openInput } from '../../src/ingest/common/input-file.js';
import { summarizeUtilization } from '../../src/pipeline/merge-captures.js';
import { claimedBy, expectedFor, OWN_FIXTURES } from './sniff-sweep.js';

const dir = join(OWN_FIXTURES, 'gpu-snapshot');
const load = async (name: string) => runImporter(gpuSnapshotJsonl, await openInput(join(dir, name)));
const fromText = (text: string) => runImporter(gpuSnapshotJsonl, inputFromText('gpu.jsonl', text));
const stat = (capture: Awaited<ReturnType<typeof load>>, name: string) => capture.source.stats.find((s) => s.name === name);

describe('gpu-snapshot-jsonl: NVML lines of the real H200 captures', () => {
  it('reads dense_decode: util from "gpu", mW → W, mask → reasons', async () => {
    const capture = await load('dense_decode.nvml.jsonl');
    // python3: rows = [json.loads(l) for l in open(f)]; sum(r['gpu']) = 367 over 84 rows → mean 4.369047619047619,
    // max 6; max power_mw 126040 → 126.04 W; every sm_clock 1980; every reasons mask 0.
    expect(capture.utilization).toHaveLength(84);
    const summary = summarizeUtilization(capture.utilization)!;
    expect(summary.overallMeanPercent).toBeCloseTo(367 / 84, 12);
    expect(summary.overallMeanPercent).toBeCloseTo(4.369047619047619, 12);
    // The last two samples read 0 (the sampler outlived the workload): the active window is 82 samples.
    expect(summary).toMatchObject({ sampleCount: 82, totalSampleCount: 84 });
    expect(summary).toMatchObject({ peakPercent: 6, peakPowerW: 126.04, meanSmClockMhz: 1980, throttleReasons: [], devices: 1 });
    // First line, read by hand: t 1796012640.2455082, gpu 6, mem_util 1, mem_used 3145596928, power_mw 122990.
    expect(capture.utilization[0]).toEqual({
      t: 1796012640.2455082,
      device: 0,
      gpuPercent: 6,
      memoryPercent: 1,
      smClockMhz: 1980,
      powerW: 122.99,
      memoryUsedBytes: 3145596928,
      reasons: [],
    });
    expect(capture.source.parts).toEqual(['nvml']);
  });

  it('reads dense_batch32 (mean util 247/39 by python)', async () => {
    const capture = await load('dense_batch32.nvml.jsonl');
    expect(capture.utilization).toHaveLength(39);
    expect(summarizeUtilization(capture.utilization)).toMatchObject({ peakPercent: 28 });
    expect(summarizeUtilization(capture.utilization)!.overallMeanPercent).toBeCloseTo(247 / 39, 12);
  });

  it('decodes a non-zero NVML mask', async () => {
    const capture = await fromText('{"t": 1.0, "gpu": 99, "sm_clock": 1600, "power_mw": 700000, "reasons": 5}\n');
    expect(capture.utilization[0]).toMatchObject({ gpuPercent: 99, powerW: 700, reasons: ['gpu_idle', 'sw_power_cap'] });
  });
});

describe('gpu-snapshot-jsonl: gpu_snapshot.py records', () => {
  it('reads a recording made with the nvidia-smi stand-in', async () => {
    const capture = await load('snapshot_fake_smi.jsonl');
    // 8 sample lines (grep -c '"kind":"sample"'), alternating device 0 (37 %, 0x4) and 1 (0 %, 0x1).
    const pair = [
      [0, 37, ['sw_power_cap']],
      [1, 0, ['gpu_idle']],
    ];
    expect(capture.utilization.map((s) => [s.device, s.gpuPercent, s.reasons])).toEqual([...pair, ...pair, ...pair, ...pair]);
    expect(capture.utilization[0]).toMatchObject({ memoryPercent: 12, smClockMhz: 1755, powerW: 412.25, memoryUsedBytes: 2048 * 1048576 });
    expect(capture.notices).toEqual([{ code: 'command-failed', severity: 'warning', message: 'the recorded command exited with code 3' }]);
    expect(capture.environment).toEqual({ vendor: 'nvidia', gpuName: 'NVIDIA H200', driver: '580.159.04', gpuCount: 2 });
    expect(capture.source.parts).toEqual(['gpu-snapshot', 'nvidia-smi']);
    expect(capture.source.stats).toEqual([]);
  });

  it('reads real H200 recordings made under a bf16 matmul load (NVML and nvidia-smi backends)', async () => {
    // python over the sample lines: NVML 42 samples, sum gpu_util 1454, 16 with hw_throttle (sw_power_cap),
    // max power_w 693.515; nvidia-smi 34 samples, sum 1467, 16 throttled, max 694.35 W.
    const nvml = await load('h200_snapshot_nvml_load.jsonl');
    expect(nvml.utilization).toHaveLength(42);
    expect(summarizeUtilization(nvml.utilization)).toMatchObject({ peakPercent: 100, peakPowerW: 693.515, throttleReasons: ['sw_power_cap'], overallMeanPercent: 1454 / 42 });
    // python3: the 16 samples between the first and last non-zero util sum to 1454; 15 carry sw_power_cap.
    expect(summarizeUtilization(nvml.utilization)).toMatchObject({ sampleCount: 16, meanPercent: 1454 / 16, throttledFraction: 15 / 16 });
    expect(nvml.environment).toEqual({ vendor: 'nvidia', gpuName: 'NVIDIA H200', driver: '580.159.04', gpuCount: 1 });
    expect(nvml.notices).toEqual([]);
    const smi = await load('h200_snapshot_smi_load.jsonl');
    expect(smi.utilization).toHaveLength(34);
    expect(summarizeUtilization(smi.utilization)).toMatchObject({ peakPercent: 100, peakPowerW: 694.35, overallMeanPercent: 1467 / 34 });
    // python3: 16 window samples sum to 1467, all 16 with sw_power_cap.
    expect(summarizeUtilization(smi.utilization)).toMatchObject({ sampleCount: 16, meanPercent: 1467 / 16, throttledFraction: 1 });
    expect(smi.source.parts).toEqual(['gpu-snapshot', 'nvidia-smi']);
  });

  it('reads a recording cut off by a killed recorder and says so', async () => {
    const capture = await load('snapshot_killed.jsonl');
    expect(capture.utilization).toHaveLength(4);
    expect(stat(capture, 'truncated-last-line')?.severity).toBe('data-loss');
    expect(stat(capture, 'no-end-record')?.severity).toBe('data-loss');
  });

  it('notices samples missing against the end record, and warnings', async () => {
    const capture = await fromText(
      [
        '{"kind":"gpu-snapshot","version":1,"backend":"nvml","interval_s":0.5,"command":null,"devices":[{"index":0,"name":"X"}]}',
        '{"kind":"sample","t":1,"device":0,"gpu_util":50,"reasons":[],"hw_throttle":["hw_slowdown"]}',
        '{"kind":"sample","t":2,"device":0,"gpu_util":null,"reasons":[],"hw_throttle":[]}',
        '{"kind":"warning","message":"nvml sampling failed: x"}',
        '{"kind":"end","exit_code":null,"samples":3}',
      ].join('\n'),
    );
    expect(capture.utilization).toEqual([{ t: 1, device: 0, gpuPercent: 50, reasons: ['hw_slowdown'] }]);
    expect(stat(capture, 'sample-without-utilization')?.count).toBe(1);
    expect(stat(capture, 'missing-samples')?.detail).toBe('the end record counts 3 samples, the file holds 2');
    expect(capture.notices).toEqual([{ code: 'gpu-snapshot-warning', severity: 'warning', message: 'nvml sampling failed: x' }]);
  });

  it('rejects another version, bad lines and records after the end, with the line', async () => {
    const header = '{"kind":"gpu-snapshot","version":1,"backend":"nvml"}';
    await expect(fromText('{"kind":"gpu-snapshot","version":3}\n')).rejects.toThrow(/^gpu\.jsonl:1: expected gpu-snapshot version 1 or 2, got 3/);
    await expect(fromText(`${header}\n{oops\n{"kind":"end","exit_code":0,"samples":0}`)).rejects.toThrow(/^gpu\.jsonl:2: expected one JSON object per line/);
    await expect(fromText(`${header}\n{"kind":"end","exit_code":0,"samples":0}\n{"kind":"sample","gpu_util":1}`)).rejects.toThrow(
      /^gpu\.jsonl:3: expected nothing after the "end" record/,
    );
    await expect(fromText('{"t": 1, "gpu": 200, "reasons": 0}\n')).rejects.toThrow(InputError);
    await expect(fromText('[1, 2]\n')).rejects.toThrow(/^gpu\.jsonl:1: expected one JSON object per line/);
  });
});

describe('gpu-snapshot-jsonl version 2: the GPU\'s processes', () => {
  const header = (processes: boolean) =>
    JSON.stringify({ kind: 'gpu-snapshot', version: 2, backend: 'nvml', interval_s: 0.5, command: ['bash', '-c', 'python3 decode.py'], devices: [{ index: 0, name: 'NVIDIA H200' }], driver: '580.159.04', vendor: 'nvidia', started_at: 1796496302.0, processes, gpu_free_before: true });
  const sample = (t: number, util: number, extra: Record<string, unknown>) =>
    JSON.stringify({ kind: 'sample', t, device: 0, gpu_util: util, mem_util: 20, sm_clock_mhz: 1980, power_w: 400.5, mem_used_bytes: 40e9, reasons: [], hw_throttle: [], ...extra });
  const neighbour = { pid: 4194000, owner: 'other', by: 'before', sm_util: 62, mem_used_bytes: 8589934592 };

  it('reads neighbours by pid and by the GPU busy before the command, and pids it cannot place', async () => {
    const capture = await fromText(
      [
        header(true),
        // 0.2 s in: busy, nothing of the command yet, but within NVML's averaging second: not counted as busy-before.
        sample(1796496302.2, 30, { own: 0, others: [neighbour], command_on_gpu: false }),
        sample(1796496303.5, 45, { own: 0, others: [{ ...neighbour, sm_util: 45 }], command_on_gpu: false }),
        sample(1796496304.0, 97, { own: 0, others: [neighbour, { pid: 4194100, owner: 'unknown', by: null, sm_util: 80, mem_used_bytes: null }], command_on_gpu: true }),
        sample(1796496304.5, 99, { own: 1, others: [{ ...neighbour, sm_util: 88, mem_used_bytes: 9663676416 }, { pid: 5120, owner: 'other', by: 'proc', sm_util: 0, mem_used_bytes: null }], command_on_gpu: true }),
        sample(1796496305.0, 99, { own: null, others: null, command_on_gpu: null }),
        '{"kind":"end","exit_code":0,"samples":5,"duration_s":3.1}',
      ].join('\n'),
    );
    expect(capture.gpuProcesses).toEqual({
      listedSamples: 4,
      samples: 5,
      neighbours: [
        { pid: 4194000, evidence: 'listed-before', device: 0, samples: 4, maxSmPercent: 88, maxMemoryBytes: 9663676416 },
        // Only the sample 1.5 s in counts: the one at 0.2 s may still average the previous run's end.
        { pid: null, evidence: 'busy-before', device: 0, samples: 1, maxSmPercent: 45, maxMemoryBytes: null },
        { pid: 5120, evidence: 'process', device: 0, samples: 1, maxSmPercent: 0, maxMemoryBytes: null },
      ],
      unknownPids: [4194100],
      jobDevices: [0],
    });
    expect(capture.utilization).toHaveLength(5);
  });

  it('on a machine of several GPUs only those the command used count: another job\'s GPU is not shared with this one', async () => {
    const onDevice = (device: number, t: number, extra: Record<string, unknown>) => JSON.stringify({ ...JSON.parse(sample(t, 90, extra)), device });
    const lines = [
      header(true).replace('"devices":[{"index":0,"name":"NVIDIA H200"}]', '"devices":[{"index":0,"name":"NVIDIA H200"},{"index":1,"name":"NVIDIA H200"}]'),
      onDevice(0, 1796496303.5, { own: 1, others: [], command_on_gpu: true }),
      onDevice(1, 1796496303.5, { own: 0, others: [{ ...neighbour, pid: 777, by: 'proc' }], command_on_gpu: true }),
      onDevice(0, 1796496304.0, { own: 1, others: [], command_on_gpu: true }),
      onDevice(1, 1796496304.0, { own: 0, others: [{ ...neighbour, pid: 777, by: 'proc' }], command_on_gpu: true }),
    ];
    const two = await fromText([...lines, '{"kind":"end","exit_code":0,"samples":4}'].join('\n'));
    expect(two.gpuProcesses).toMatchObject({ neighbours: [], jobDevices: [0] });
    // The same neighbour on the command's GPU counts.
    const same = await fromText([...lines, onDevice(0, 1796496304.5, { own: 1, others: [{ ...neighbour, pid: 778, by: 'proc' }], command_on_gpu: true }), '{"kind":"end","exit_code":0,"samples":5}'].join('\n'));
    expect(same.gpuProcesses!.neighbours.map((n) => [n.pid, n.device])).toEqual([[778, 0]]);
  });

  it('a recording whose backend lists no processes has no gpuProcesses; one that lists none has no neighbours', async () => {
    const plain = await fromText([header(false), sample(1796496303, 50, {}), '{"kind":"end","exit_code":0,"samples":1}'].join('\n'));
    expect(plain).not.toHaveProperty('gpuProcesses');
    const quiet = await fromText([header(true), sample(1796496303.5, 0, { own: 0, others: [], command_on_gpu: false }), '{"kind":"end","exit_code":0,"samples":1}'].join('\n'));
    expect(quiet.gpuProcesses).toEqual({ listedSamples: 1, samples: 1, neighbours: [], unknownPids: [], jobDevices: [] });
  });

  it('rejects process fields of the wrong shape with the file and line', async () => {
    const bad = (extra: Record<string, unknown>) => fromText([header(true), sample(1796496303, 50, { own: 0, others: [], command_on_gpu: true }), sample(1796496304, 50, extra)].join('\n'));
    await expect(bad({ others: [], command_on_gpu: true })).rejects.toThrow(/^gpu\.jsonl:3: expected "own": a whole number of processes or null in a gpu-snapshot version 2 sample$/);
    await expect(bad({ own: 0, others: 'none', command_on_gpu: true })).rejects.toThrow(/^gpu\.jsonl:3: expected "others": a list of processes or null/);
    await expect(bad({ own: 0, others: [{ ...neighbour, owner: 'mine' }], command_on_gpu: true })).rejects.toThrow(/^gpu\.jsonl:3: expected "others\[\]\.owner": "other" or "unknown"/);
    await expect(bad({ own: 0, others: [{ ...neighbour, sm_util: 140 }], command_on_gpu: true })).rejects.toThrow(/^gpu\.jsonl:3: expected "others\[\]\.sm_util": 0\.\.100 or null/);
    await expect(bad({ own: 0, others: [{ ...neighbour, pid: -1 }], command_on_gpu: true })).rejects.toThrow(/^gpu\.jsonl:3: expected "others\[\]\.pid"/);
    await expect(bad({ own: 0, others: [], command_on_gpu: 'yes' })).rejects.toThrow(/^gpu\.jsonl:3: expected "command_on_gpu": true, false or null/);
    await expect(fromText('{"kind":"gpu-snapshot","version":2,"backend":"nvml"}\n')).rejects.toThrow(/^gpu\.jsonl:1: expected "processes": true or false in a gpu-snapshot version 2 header, got undefined/);
  });
});

describe('gpu-snapshot-jsonl sniff', () => {
  it('claims the NVML captures and our recordings, nothing else among all fixtures', async () => {
    const expected = await expectedFor(/(\.nvml\.jsonl|\.util\.jsonl|\.gpu\.jsonl|\/gpu-snapshot\/.*\.jsonl)$/);
    // 6 shared NVML captures + 2 copies + 2 recordings.
    expect(expected.length).toBeGreaterThanOrEqual(4);
    expect(await claimedBy(gpuSnapshotJsonl)).toEqual(expected);
  });
});
