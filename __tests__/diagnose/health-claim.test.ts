/**
 * "Healthy" is a claim that needs its evidence: a decode window, a busy GPU, and no competing finding at
 * warning or above. Each case keeps a mix the healthy rules read as healthy and takes one piece of that
 * evidence away; the claim must go, with a note that names what is missing.
 */
import { diagnose } from '../../src/diagnose/run-rules.js';
import { healthClaimWithheld } from '../../src/diagnose/health-claim.js';
import { K, profileOf } from '../helpers/profile-builder.js';

// The H200 GPU-bound decode's family split (nsys, ms scaled; see rules/healthy-dense-decode.test.ts).
const DENSE: Parameters<typeof profileOf>[0]['kernels'] = [[K.decodeGemm, 28.6, 256], [K.decodeGemm2, 33, 768], [K.copy, 13.1, 512], [K.layerNorm, 7.3, 528], [K.sdpa, 4.6, 256]];
/** One greedy argmax per decode step. */
const steps = (n: number): [string, number, number] => [K.argmax, 0.1, n];

const claimed = (spec: Parameters<typeof profileOf>[0]) => {
  const { findings, notes } = diagnose(profileOf(spec));
  return { ids: findings.map((f) => f.id), note: notes.find((n) => n.message.startsWith('healthy-dense-decode:'))?.message };
};

describe('a healthy reading needs its evidence', () => {
  it('stands with a decode window (32 sampling launches), a busy GPU and nothing competing', () => {
    const got = claimed({ kernels: [...DENSE, steps(32)] });
    expect(got.ids).toContain('healthy-dense-decode');
    expect(got.note).toBeUndefined();
  });

  it('is withheld where nothing shows decode steps (a kernel table alone)', () => {
    const got = claimed({ kernels: DENSE });
    expect(got.ids).not.toContain('healthy-dense-decode');
    expect(got.note).toMatch(/nothing in the window shows decode steps/);
  });

  it('is withheld on a window that generates one token (a prefill step: one sampling launch)', () => {
    const got = claimed({ kernels: [...DENSE, steps(1)] });
    expect(got.ids).not.toContain('healthy-dense-decode');
    expect(got.note).toMatch(/no decode step \(one sampling launch/);
  });

  it('is withheld when the GPU waits (utilization 20 % in the timed windows) and host-bound competes', () => {
    const util = Array.from({ length: 40 }, () => 20);
    const got = claimed({ kernels: [...DENSE, steps(32)], util, timedWindows: [[0, 39]] });
    expect(got.ids).toContain('host-bound');
    expect(got.ids).not.toContain('healthy-dense-decode');
    expect(got.note).toMatch(/busy 20 % of the steady window \(utilization\)/);
    expect(got.note).toMatch(/competing finding host-bound \(warning\)/);
  });

  it('names every competing finding at warning or above; unfused norms and RoPE do not compete', () => {
    const profile = profileOf({ kernels: [...DENSE, steps(32)] });
    expect(healthClaimWithheld(profile, [{ id: 'communication-bound', severity: 'warning' }, { id: 'dominant-kernel', severity: 'info' }])).toEqual([
      'competing finding communication-bound (warning)',
    ]);
    expect(healthClaimWithheld(profile, [{ id: 'unfused-norm-rope', severity: 'warning' }])).toEqual([]);
    expect(healthClaimWithheld(profile, [{ id: 'host-bound', severity: 'warning' }, { id: 'graph-level-trace', severity: 'warning' }])).toEqual([
      'competing findings host-bound (warning), graph-level-trace (warning)',
    ]);
  });
});
