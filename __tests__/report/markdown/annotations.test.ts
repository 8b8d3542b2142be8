import { ANNOTATION_LIMITS, buildAnnotations } from '../../../src/report/markdown/annotations.js';
import { finding, HOSTILE, makeReport } from '../report-factory.js';

describe('buildAnnotations', () => {
  it('annotates warning and error findings only, errors first, primary before secondary', () => {
    const report = makeReport({
      findings: [
        finding({ id: 'info-1', severity: 'info' }),
        finding({ id: 'warn-secondary', severity: 'warning', secondary: true }),
        finding({ id: 'warn-1', severity: 'warning' }),
        finding({ id: 'err-1', severity: 'error', command: 'nsys profile x' }),
      ],
    });
    const out = buildAnnotations([{ label: 'a', report }]);
    expect(out.map((a) => `${a.level}:${a.title}`)).toEqual([
      'error:profile-gate: Host-bound decode (err-1)',
      'warning:profile-gate: Host-bound decode (warn-1)',
      'warning:profile-gate: Host-bound decode (warn-secondary)',
    ]);
    expect(out[0]!.message).toBe('The GPU was busy 31% of the trace.\nNext: Capture CUDA graphs or batch the decode loop.\nRun: nsys profile x');
  });

  it('stays within GitHub limits per level and says how many were left out', () => {
    const findings = Array.from({ length: 30 }, (_, i) => finding({ id: `e${i}`, severity: i < 20 ? 'error' : 'warning', message: 'x'.repeat(10_000) }));
    const out = buildAnnotations([{ label: 'a', report: makeReport({ findings }) }], { perLevel: 50 });
    const errors = out.filter((a) => a.level === 'error');
    const warnings = out.filter((a) => a.level === 'warning');
    expect(errors).toHaveLength(ANNOTATION_LIMITS.perLevel);
    expect(warnings).toHaveLength(ANNOTATION_LIMITS.perLevel);
    expect(errors[9]!.title).toBe('profile-gate: 11 more error findings');
    expect(errors[9]!.message).toContain('e9, e10');
    for (const a of out) expect(a.message.length).toBeLessThanOrEqual(ANNOTATION_LIMITS.messageChars);
    expect(buildAnnotations([{ label: 'a', report: makeReport({ findings }) }]).filter((a) => a.level === 'error')).toHaveLength(6);
  });

  it('names the leg when several reports are merged, and strips control characters', () => {
    const hostile = finding({ severity: 'error', title: `bad\ntitle${HOSTILE}`, message: `a\u0007b\r\nc\u001b[31m` });
    const out = buildAnnotations([
      { label: 'leg-a', report: makeReport({ findings: [hostile] }) },
      { label: 'leg-b', report: makeReport() },
    ]);
    expect(out).toHaveLength(1);
    expect(out[0]!.title.startsWith('profile-gate [leg-a]: bad title')).toBe(true);
    expect(out[0]!.title).not.toContain('\n');
    expect(out[0]!.title.length).toBeLessThanOrEqual(ANNOTATION_LIMITS.titleChars);
    expect(out[0]!.message.startsWith('a b\nc [31m\n')).toBe(true);
  });
});
