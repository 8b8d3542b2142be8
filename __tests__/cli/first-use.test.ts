/**
 * What a first-time user meets: the README shows the demo before the developer set-up, says only
 * what the demo prints, documents the --families format with an example that loads, names the runner
 * version node24 needs; the package can be installed (licensed, not private, its files listed).
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseUserFamilies } from '../../src/classify/user-families.js';
import { userFamilyId } from '../../src/model/family-ids.js';
import { cli } from '../helpers/cli.js';
import { ROOT } from '../helpers/fake-github-runner.js';

const README = readFileSync(join(ROOT, 'README.md'), 'utf8');
const PACKAGE = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { license: string; private?: boolean; bin: Record<string, string>; files: string[] };

/** The README's paragraph under a heading, up to the next heading. */
function section(heading: string): string {
  const start = README.indexOf(`\n## ${heading}\n`);
  expect(start).toBeGreaterThan(0);
  const end = README.indexOf('\n## ', start + 4);
  return README.slice(start, end < 0 ? undefined : end);
}

describe('the README, first use', () => {
  it('shows the demo before the developer set-up, and keeps npm ci and npm test for developers', () => {
    const demo = README.indexOf('node dist/cli/index.js demo');
    expect(demo).toBeGreaterThan(0);
    expect(demo).toBeLessThan(README.indexOf('```sh\nnpm ci'));
    expect(section('Developing')).toMatch(/npm ci\nnpm test/);
  });

  it('says of the demo only what the demo prints', async () => {
    const { code, stdout } = await cli(['demo']);
    expect(code).toBe(0);
    const text = section('Try it: the demo');
    // Each fact the README states, beside the words the demo prints it in.
    const facts: Array<[string, string]> = [
      ['verdict FAIL', ': FAIL\n'],
      ['378.5 → 313.9 tok/s', '378.5 tok/s → 313.9 tok/s'],
      ['−17.1 %', '−17.1%'],
      ['15 vs 15 samples', '15 vs 15 samples'],
      ['beyond the 3 % floor', 'beyond the 3% floor'],
      ['`unfused-attention` finding', 'new finding unfused-attention'],
      ['128 softmax launches against 0 fused attention launches', '128 softmax launches (2.4% of kernel time) against 0 fused attention launches'],
      ['GPU time per step 60.6 µs → 419 µs (+358 µs)', 'family:copy GPU time per step 60.6 µs → 419 µs (+358 µs)'],
      ['`elementwise_kernel<direct_copy_kernel_cuda>`, 0 → 298 µs per step', 'kernel elementwise_kernel<direct_copy_kernel_cuda> GPU time per step 0 ns → 298 µs'],
      ["3 % of the baseline's 2.64 ms step, in a step that did not get faster", "(3 % of the baseline's 2.64 ms step) fail threshold, in a step that did not get faster"],
      [
        '`+298 µs/step in elementwise_kernel<direct_copy_kernel_cuda> (part of\nunfused-attention: 2 launches per softmax launch, layer by layer)`',
        'where the time went: +298 µs/step in elementwise_kernel<direct_copy_kernel_cuda> (part of unfused-attention: 2 launches per softmax launch, layer by layer)',
      ],
      ['the copies\nthat keep step with its softmax, each with its time per step', 'in lockstep: elementwise_kernel<direct_copy_kernel_cuda> (2 per softmax launch, 298 µs/step)'],
      ['The demo exits 0; in CI the same\nverdict fails the job (exit 1)', 'In CI this verdict fails the job (exit code 1); the demo exits 0.'],
    ];
    for (const [readme, printed] of facts) {
      expect({ readme, found: text.includes(readme) }).toEqual({ readme, found: true });
      expect({ printed, found: stdout.includes(printed) }).toEqual({ printed, found: true });
    }
    // What it used to claim and the demo never prints.
    expect(text).not.toMatch(/KV-head|timed runs/);
  }, 60_000);

  it('documents the --families file with an example that loads and classifies', () => {
    const block = /```json\n([\s\S]*?)\n```/.exec(README.slice(README.indexOf('`--families FILE` adds')))![1]!;
    const rules = parseUserFamilies(block, 'README.md');
    expect(rules.map((r) => r.family)).toEqual([userFamilyId('my-fused-moe'), 'attention-fused']);
    expect(rules[0]!.pattern.test('MY_MOE_gate_up')).toBe(true);
  });

  it('names the runner version that the node24 action needs', () => {
    expect(readFileSync(join(ROOT, 'action.yml'), 'utf8')).toMatch(/using: node24/);
    expect(README).toContain('runner **v2.327.1 or later**');
  });
});

describe('the package', () => {
  it('is MIT licensed with a LICENSE file', () => {
    expect(PACKAGE.license).toBe('MIT');
    const license = readFileSync(join(ROOT, 'LICENSE'), 'utf8');
    expect(license).toMatch(/^MIT License\n\nCopyright \(c\) \d{4} profile-gate authors\n/);
  });

  it('can be packed and installed: not private, its bin and every file the CLI reads listed', () => {
    expect(PACKAGE.private).toBeUndefined();
    expect(PACKAGE.bin['profile-gate']).toBe('dist/cli/index.js');
    for (const path of ['dist/cli/', 'dist/sql-wasm-inline.cjs', 'samples/', 'python/', 'LICENSE']) {
      expect(PACKAGE.files).toContain(path);
      expect(existsSync(join(ROOT, path))).toBe(true);
    }
  });
});
