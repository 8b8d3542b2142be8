/**
 * Deep-dive findings are ranked by what their kernel is worth, and the same finding on many negligible
 * kernels is one line. Read from a real ncu page: the H200 small-matmul capture (8 launches of 5 kernels:
 * randn, a bf16 matmul, relu/clamp, a copy and a mean), durations as ncu measured them.
 */
import { analyze } from '../../src/pipeline/analyze.js';
import { deepDiveShares, NEGLIGIBLE_SHARE, rankDeepDiveFindings } from '../../src/diagnose/deep-dive-rank.js';
import { NCU, ncuValue } from '../../src/diagnose/ncu-metrics.js';
import type { Finding } from '../../src/model/report.js';
import type { NcuResult } from '../../src/model/capture.js';
import { fixturePath, loadCaptures } from './ncu-captures.js';

describe('deep-dive findings by share of time', () => {
  it("gives each kernel of an ncu page alone its share of the profiled launches' duration", async () => {
    const { smallMatmul } = await loadCaptures();
    const shares = deepDiveShares({ ncu: smallMatmul, kernels: [] });
    const total = smallMatmul.reduce((sum, r) => sum + ncuValue(r, NCU.duration)!, 0);
    expect(shares.size).toBe(new Set(smallMatmul.map((r) => r.kernel)).size);
    for (const [kernel, share] of shares) {
      const own = smallMatmul.filter((r) => r.kernel === kernel).reduce((sum, r) => sum + ncuValue(r, NCU.duration)!, 0);
      expect(share).toBeCloseTo(own / total, 12);
    }
    expect([...shares.values()].reduce((a, b) => a + b, 0)).toBeCloseTo(1, 12);
  });

  it('orders the real page\'s deep-dive findings by their kernel\'s share, largest first', async () => {
    const report = await analyze({ inputs: [fixturePath('smallMatmul')] });
    const { smallMatmul } = await loadCaptures();
    const shares = deepDiveShares({ ncu: smallMatmul, kernels: [] });
    const dive = report.findings.filter((f) => f.kernel !== undefined && shares.has(f.kernel));
    expect(dive.length).toBeGreaterThan(1);
    const order = dive.map((f) => shares.get(f.kernel!)!);
    expect(order).toEqual([...order].sort((a, b) => b - a));
    // Nothing on a negligible kernel stays above info.
    for (const f of dive) if (shares.get(f.kernel!)! < NEGLIGIBLE_SHARE) expect(f.severity).toBe('info');
  });

  it('folds one finding on several negligible kernels into one info line that names them', () => {
    const ncuRow = (kernel: string, ns: number, id: number): NcuResult => ({ id, kernel, metrics: [{ section: 'GPU Speed Of Light Throughput', name: 'gpu__time_duration.sum', unit: 'ns', value: ns }], rules: [] });
    const ncu = [ncuRow('big_gemm', 900_000, 0), ncuRow('norm_a', 3_000, 1), ncuRow('norm_b', 4_000, 2), ncuRow('prepare', 2_000, 3)];
    const hit = (id: string, kernel: string, severity: Finding['severity'] = 'warning'): Finding & { stage: string } => ({
      id, kernel, severity, stage: 'deep-dive', title: id, message: `${id} on ${kernel}`, evidence: {}, advice: '', docs: '', secondary: false, basis: [],
    });
    const out = rankDeepDiveFindings({ ncu, kernels: [] }, [hit('kernel-latency-bound', 'norm_a'), hit('grid-too-small', 'big_gemm'), hit('kernel-latency-bound', 'norm_b'), hit('kernel-latency-bound', 'prepare'), hit('low-occupancy', 'norm_a')]);
    expect(out.map((f) => [f.id, f.kernel ?? null, f.severity])).toEqual([
      ['grid-too-small', 'big_gemm', 'warning'],
      ['low-occupancy', 'norm_a', 'info'],
      ['kernel-latency-bound', null, 'info'],
    ]);
    expect(out[2]!.message).toMatch(/^kernel-latency-bound on 3 small kernels/);
    expect(out[2]!.evidence).toMatchObject({ kernels: 3 });
  });
});
