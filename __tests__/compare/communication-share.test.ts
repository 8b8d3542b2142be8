import { compare, type GateInput } from '../../src/compare/gate.js';
import { exposedCommunicationShare } from '../../src/compare/shares.js';

const MS = 1e6;
const NCCL = 'ncclDevKernel_AllReduce_Sum_bf16_RING_LL(ncclDevComm*, unsigned long, ncclWork*)';
const GEMM = 'nvjet_sm90_tst_64x8_64x16_4x1_v_bz_TNT';

/** One side: 100 ms active span, `collective` of the kernel time in NCCL, `exposedMs` of it not overlapped. */
function side(collective: number, exposedMs: number | undefined, extra: Partial<GateInput> = {}): GateInput {
  return {
    metrics: [{ name: 'decode_tok_s', unit: 'tok/s', direction: 'higher', samples: [100, 100, 100], value: 100 }],
    kernels: [
      { name: GEMM, family: 'gemm-decode', totalNs: (1 - collective) * 90 * MS, share: 1 - collective },
      { name: NCCL, family: 'collective', totalNs: collective * 90 * MS, share: collective },
    ],
    families: [
      { family: 'gemm-decode', share: 1 - collective },
      { family: 'collective', share: collective },
    ],
    findings: [],
    utilization: null,
    environment: { gpuName: 'NVIDIA H200' },
    timeline: { activeSpanNs: 100 * MS, devices: 1, ...(exposedMs !== undefined ? { communication: { exposedNs: exposedMs * MS } } : {}) },
    ...extra,
  };
}

describe('the communication share in the gate', () => {
  it('the collective family share and the exposed share are both rows', () => {
    const { comparison } = compare(side(0.1, 9), side(0.1, 9));
    const metrics = comparison!.rows.map((r) => r.metric);
    expect(metrics).toContain('family:collective');
    expect(metrics).toContain('communication:exposed');
    expect(comparison!.rows.find((r) => r.metric === 'communication:exposed')).toMatchObject({ baseline: 9, current: 9, status: 'pass', unit: '% of the active span (collectives no compute overlaps)' });
  });

  it('exposed communication that grows by 25 pp fails, by 15 pp warns (the share thresholds, 5 and 20 pp)', () => {
    const failing = compare(side(0.32, 30), side(0.3, 5));
    expect(failing.comparison!.rows.find((r) => r.metric === 'communication:exposed')).toMatchObject({ baseline: 5, current: 30, status: 'fail' });
    expect(failing.verdict).toBe('fail');
    // The collective family share moved 2 pp only: that row alone would pass.
    expect(failing.comparison!.rows.find((r) => r.metric === 'family:collective')!.status).toBe('pass');
    const warning = compare(side(0.32, 20), side(0.3, 5));
    expect(warning.comparison!.rows.find((r) => r.metric === 'communication:exposed')!.status).toBe('warn');
  });

  it('a side with a timeline but no collectives counts as 0 exposed', () => {
    const { comparison } = compare(side(0.1, 3), side(0, undefined));
    expect(comparison!.rows.find((r) => r.metric === 'communication:exposed')).toMatchObject({ baseline: 0, current: 3 });
  });

  it('no timeline on one side: not compared', () => {
    const { comparison } = compare(side(0.1, 3), side(0.1, 3, { timeline: null }));
    expect(comparison!.rows.map((r) => r.metric)).not.toContain('communication:exposed');
  });

  it('with ranks, the worst rank counts', () => {
    const ranks = [{ timeline: { activeSpanNs: 100 * MS, devices: 1, communication: { exposedNs: 4 * MS } } }, { timeline: { activeSpanNs: 100 * MS, devices: 1, communication: { exposedNs: 12 * MS } } }];
    expect(exposedCommunicationShare(side(0.1, 4, { ranks }))).toBeCloseTo(0.12, 10);
  });
});
