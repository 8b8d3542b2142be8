/**
 * Each GPU recording that listed the GPU's processes is one measured run (src/pipeline/build-profile.ts
 * gpuSharingOf): whether another process shared it, and which metric samples are the run's.
 */
import { CaptureSchema, type Capture, type CaptureInput, type GpuNeighbour } from '../../src/model/capture.js';
import { buildProfile, gpuSharingOf } from '../../src/pipeline/build-profile.js';

const neighbour = (samples: number, evidence: GpuNeighbour['evidence'] = 'process'): GpuNeighbour => ({ pid: evidence === 'busy-before' ? null : 5120, evidence, device: 0, samples, maxSmPercent: 61, maxMemoryBytes: null });
const capture = (input: Partial<CaptureInput>): Capture => CaptureSchema.parse({ source: { path: 'x', format: 'workload-metrics-jsonl' }, ...input });
const console_ = (...tokS: number[]) => capture({ metrics: tokS.map((value) => ({ name: 'decode_tok_s', value })) });
const recording = (neighbours: GpuNeighbour[], unknownPids: number[] = []) =>
  capture({ source: { path: 'r.gpu.jsonl', format: 'gpu-snapshot-jsonl' }, gpuProcesses: { listedSamples: 5, samples: 5, neighbours, unknownPids } });

describe('gpuSharingOf', () => {
  it('numbers the recordings as runs, says which were shared, and places each console\'s samples in its run', () => {
    const sharing = gpuSharingOf([console_(800), recording([]), console_(790, 795), recording([neighbour(3)]), console_(801), recording([neighbour(1)], [4194100])])!;
    expect(sharing.runs.map((r) => [r.run, r.shared, r.samples])).toEqual([
      [1, false, { decode_tok_s: 1 }],
      [2, true, { decode_tok_s: 2 }],
      // A process listed in one sample only may be a context still being torn down: not counted.
      [3, false, { decode_tok_s: 1 }],
    ]);
    expect(sharing.runs[2]).toMatchObject({ neighbours: [neighbour(1)], unknownPids: [4194100] });
  });

  it('the profile carries it, with a warning for the shared runs and a note of the pids it could not place', () => {
    const profile = buildProfile([console_(800), recording([neighbour(3)], [4194100]), console_(801), recording([])]);
    expect(profile.gpuSharing!.runs.map((r) => r.shared)).toEqual([true, false]);
    expect(profile.notices.filter((n) => n.code.startsWith('gpu-')).map((n) => [n.code, n.severity])).toEqual([
      ['gpu-shared', 'warning'],
      ['gpu-process-unplaced', 'info'],
    ]);
    expect(buildProfile([console_(800), recording([neighbour(1)])]).notices.filter((n) => n.code === 'gpu-shared')).toEqual([]);
  });

  it('says when a GPU recording listed no process (a backend that cannot, or a listing that failed): a neighbour there is not seen', () => {
    const utilization = [{ t: 0, device: 0, gpuPercent: 90 }];
    const unlisted = capture({ source: { path: 'old.gpu.jsonl', format: 'gpu-snapshot-jsonl' }, utilization });
    const failed = capture({ source: { path: 'failed.gpu.jsonl', format: 'gpu-snapshot-jsonl' }, utilization, gpuProcesses: { listedSamples: 0, samples: 5, neighbours: [], unknownPids: [] } });
    const said = buildProfile([console_(800), unlisted, console_(801), failed, console_(802), recording([])]).notices.filter((n) => n.code === 'gpu-processes-unlisted');
    expect(said).toHaveLength(1);
    expect(said[0]!.message).toMatch(/^2 GPU recordings listed no GPU process \(old\.gpu\.jsonl, failed\.gpu\.jsonl\)/);
    // Recordings that listed processes say nothing of the kind.
    expect(buildProfile([console_(800), recording([])]).notices.filter((n) => n.code === 'gpu-processes-unlisted')).toEqual([]);
  });

  it('a listed process counts only once busy: an idle CUDA context (0-1 % SM) does not; one whose SM use is unreadable does', () => {
    const idle = { ...neighbour(8), maxSmPercent: 1 };
    const busy = { ...neighbour(8), maxSmPercent: 2 };
    const unread = { ...neighbour(8), maxSmPercent: null };
    expect(gpuSharingOf([recording([idle]), recording([busy]), recording([unread])])!.runs.map((r) => r.shared)).toEqual([false, true, true]);
  });

  it('work seen before any process of the command was on the GPU counts from one sample', () => {
    expect(gpuSharingOf([recording([neighbour(1, 'busy-before')])])!.runs[0]!.shared).toBe(true);
  });

  it('samples are not placed when the inputs that carry a metric are not one per recording', () => {
    const sharing = gpuSharingOf([console_(800), recording([]), recording([neighbour(3)]), console_(790), console_(801)])!;
    expect(sharing.runs.map((r) => r.samples)).toEqual([undefined, undefined]);
  });

  it('no recording that lists processes: nothing to say', () => {
    expect(gpuSharingOf([console_(800), capture({ source: { path: 'r', format: 'gpu-snapshot-jsonl' }, utilization: [{ gpuPercent: 50 }] })])).toBeNull();
  });
});
