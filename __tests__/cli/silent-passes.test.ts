/**
 * No silent pass: each input that once let a regression through with exit 0 is, through the CLI, an
 * exit 1 (the regression is still seen) or an exit 2 (the input is refused, with one line).
 */
import type { Report } from '../../src/model/report.js';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cli } from '../helpers/cli.js';
import { linesOf } from '../helpers/gate-lines.js';

const ROOT = join(import.meta.dirname, '..', '..');
const TIMED = join(ROOT, '__tests__', 'fixtures', 'h200-captures', 'healthy_decode', 'healthy_timed.stdout.jsonl');

function work(): string {
  return mkdtempSync(join(tmpdir(), 'silent-'));
}

/** The real H200 timed runs, each run's tok_s divided by `slower` (1.17: a head 17 % slower), plus extra lines. */
function timedRuns(dir: string, name: string, slower: number, extra: readonly string[] = []): string {
  const lines = readFileSync(TIMED, 'utf8')
    .split('\n')
    .filter((l) => l.includes('"kind": "run"'))
    .map((l) => {
      const run = JSON.parse(l) as { tok_s: number };
      return JSON.stringify({ ...run, tok_s: run.tok_s / slower });
    });
  const path = join(dir, name);
  writeFileSync(path, [...lines, ...extra].join('\n') + '\n');
  return path;
}

async function baselineReport(dir: string): Promise<string> {
  const json = join(dir, 'base.json');
  const { code } = await cli(['analyze', timedRuns(dir, 'base.jsonl', 1), '--json', json]);
  expect(code).toBe(0);
  return json;
}

describe('a metric line that holds no number', () => {
  it.each([
    ['null (a failed measurement)', '{"metric": "ttft_ms", "value": null}', 'ttft_ms null'],
    ['"n/a"', '{"metric": "ttft_ms", "value": "n/a"}', 'ttft_ms "n/a"'],
    ['a number past 2^53', '{"metric": "ttft_ms", "value": 9007199254740993000}', 'ttft_ms 9007199254740993000'],
  ])('%s is dropped alone, named in the first lines, and the 17 %% slower head still fails', async (_what, line, shown) => {
    const dir = work();
    const baseline = await baselineReport(dir);
    const head = timedRuns(dir, 'head.jsonl', 1.17, [line]);
    const json = join(dir, 'head.json');
    const { code, stdout } = await cli(['analyze', head, '--baseline', baseline, '--json', json]);
    expect(code).toBe(1);
    const report = JSON.parse(readFileSync(json, 'utf8')) as Report;
    expect(report.verdict).toBe('fail');
    // The 15 runs count; only the bad line (line 16 of the file) is left out.
    expect(report.metrics.find((m) => m.name === 'decode_tok_s')?.samples).toHaveLength(15);
    expect(linesOf(report)[0]).toContain(`data loss: 1 metric record dropped`);
    expect(linesOf(report)[0]).toContain(`line 16: ${shown}`);
    expect(stdout.split('\n').slice(0, 3).join('\n')).toContain('data loss: 1 metric record dropped');
  }, 30_000);
});

const REPEAT_KV = join(ROOT, '__tests__', 'fixtures', 'h200-stacks', 'repeat_kv', 'repeatkv_node.kern_sum.csv');

/**
 * The real H200 kernel summary with its 16 argmax launches (the window's one step evidence) taken out,
 * and its direct_copy kernel's total multiplied by `copyFactor`.
 */
function kernSum(dir: string, name: string, copyFactor: number): string {
  const lines = readFileSync(REPEAT_KV, 'utf8').split('\n');
  const out = lines
    .filter((l) => !l.includes('at::native::reduce_kernel<'))
    .map((l) => {
      if (!l.includes('direct_copy_kernel_cuda')) return l;
      const cells = l.split(',');
      cells[1] = String(Number(cells[1]) * copyFactor);
      return cells.join(',');
    });
  expect(out).toHaveLength(lines.length - 1);
  const path = join(dir, name);
  writeFileSync(path, out.join('\n'));
  return path;
}

/** A workload's metrics file that states only its profiled window's step count. */
function stepsLine(dir: string, name: string, stated: number): string {
  const path = join(dir, name);
  writeFileSync(path, `{"metric": "profile_steps", "value": ${stated}}\n`);
  return path;
}

describe('a stated step count the window cannot bear', () => {
  async function pair(stated: number): Promise<{ dir: string; baseline: string; head: string[] }> {
    const dir = work();
    const json = join(dir, 'base.json');
    const made = await cli(['analyze', kernSum(dir, 'base.csv', 1), stepsLine(dir, 'base.jsonl', stated), '--json', json, '--fail-verdicts', 'none']);
    expect(made.code).toBe(0);
    return { dir, baseline: json, head: [kernSum(dir, 'head.csv', 2), stepsLine(dir, 'head.jsonl', stated)] };
  }
  const gate = ['--threshold', 'kernel-time:family:copy=+0.1ms'];

  it.each([1024, Number.MAX_SAFE_INTEGER])('%d steps, more than the 640 launches of the most launched kernel, are refused: the copy doubling is not passed', async (stated) => {
    const { dir, baseline, head } = await pair(stated);
    const json = join(dir, 'head.json');
    const r = await cli(['analyze', ...head, '--baseline', baseline, ...gate, '--json', json]);
    const report = JSON.parse(readFileSync(json, 'utf8')) as { verdict: string; stepCount: { steps: number | null; text: string }; comparison: { rows: { metric: string; status: string }[] } };
    expect(report.stepCount.steps).toBeNull();
    expect(report.stepCount.text).toContain('(profile_steps) is refused: more steps than launches of any kernel');
    expect(report.comparison.rows.find((row) => row.metric === 'kernel-time:family:copy')?.status).toBe('insufficient-data');
    expect(report.verdict).toBe('insufficient-data');
    expect(r.code).toBe(0);
    const strict = await cli(['analyze', ...head, '--baseline', baseline, ...gate, '--fail-verdicts', 'fail,invalid,insufficient-data']);
    expect(strict.code).toBe(1);
  }, 30_000);

  it('16 stated steps, within the launches, are the count: the doubled copy (+2.5 ms/step) fails', async () => {
    const { baseline, head } = await pair(16);
    const r = await cli(['analyze', ...head, '--baseline', baseline, ...gate]);
    expect(r.code).toBe(1);
    // The direct copy's 40,398,429 ns over 16 steps: 2.52 ms per step more once doubled.
    expect(r.stdout).toMatch(/family:copy GPU time per step [\d.]+ ms → [\d.]+ ms \(\+2\.52 ms\), at or beyond the \+100 µs fail threshold/);
  }, 30_000);
});

describe('a kernel threshold', () => {
  const COPY = 'elementwise_kernel<direct_copy_kernel_cuda>';
  async function copyDoubled(): Promise<{ dir: string; baseline: string; head: string[] }> {
    const dir = work();
    const json = join(dir, 'base.json');
    expect((await cli(['analyze', kernSum(dir, 'base.csv', 1), stepsLine(dir, 'base.jsonl', 16), '--json', json, '--fail-verdicts', 'none'])).code).toBe(0);
    return { dir, baseline: json, head: [kernSum(dir, 'head.csv', 2), stepsLine(dir, 'head.jsonl', 16)] };
  }
  type Rows = { comparison: { rows: { metric: string; status: string }[] } };
  const rows = (dir: string) => (JSON.parse(readFileSync(join(dir, 'head.json'), 'utf8')) as Rows).comparison.rows;

  it('written with the name the report shows gates that kernel: the doubled copy fails in time and in share', async () => {
    const { dir, baseline, head } = await copyDoubled();
    const r = await cli(['analyze', ...head, '--baseline', baseline, '--threshold', `kernel-time:kernel:${COPY}=+0.1ms`, '--threshold', `kernel:${COPY}=1`, '--json', join(dir, 'head.json')]);
    expect(r.code).toBe(1);
    const full = rows(dir).filter((row) => row.metric.includes('direct_copy_kernel_cuda'));
    // Keyed by the full name the capture holds; both rows fail (+2.52 ms/step; 57.6 % → 73.1 % share).
    expect(full.map((row) => [row.metric.startsWith('kernel-time:') ? 'time' : 'share', row.metric.includes('gpu_kernel_impl_nocast'), row.status])).toEqual(
      expect.arrayContaining([
        ['time', true, 'fail'],
        ['share', true, 'fail'],
      ]),
    );
    expect(r.stdout.split('\n').slice(0, 4).join('\n')).toMatch(/GPU time per step .*at or beyond the \+100 µs fail threshold/);
  }, 30_000);

  it.each([`kernel-time:kernel:elementwise_kernel<direct_copy_kernel>=+0.1ms`, 'kernel:nvjet_sm90_tst_256x8=1'])('that names no kernel of either side, %s, is exit 2 listing the closest names', async (threshold) => {
    const { baseline, head } = await copyDoubled();
    const r = await cli(['analyze', ...head, '--baseline', baseline, '--threshold', threshold]);
    expect(r.code).toBe(2);
    expect(r.stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(/no kernel of either side is named .* \(by its full name or the name the report shows\); closest: /);
    if (threshold.includes('direct_copy')) expect(r.stderr).toMatch(/closest: elementwise_kernel<direct_copy_kernel_cuda>/);
  }, 30_000);

  it('with a full C++ name holding commas is one threshold per flag, and one per line of the input', async () => {
    const summary = join(ROOT, '__tests__', 'fixtures', 'nsys', 'gpukernsum_2022_gridxyz.csv');
    const norm = 'void vllm::rms_norm_kernel<c10::BFloat16>(c10::BFloat16 *, const c10::BFloat16 *, const c10::BFloat16 *, float, int, int)';
    const dir = work();
    const base = join(dir, 'base.json');
    await cli(['analyze', summary, '--json', base, '--fail-verdicts', 'none']);
    const r = await cli(['analyze', summary, '--baseline', base, '--threshold', `kernel:${norm}=10`, '--threshold', 'decode_tok_s=4', '--json', join(dir, 'head.json'), '--fail-verdicts', 'none']);
    expect(r.stderr).not.toMatch(/expected METRIC=PCT/);
    expect(r.code).toBe(0);
    const listed = await cli(['analyze', summary, '--baseline', base, '--threshold', `kernel:${norm}=10,decode_tok_s=4`, '--fail-verdicts', 'none']);
    expect(listed.code).toBe(0);
    expect(listed.stderr).not.toMatch(/expected METRIC=PCT|no kernel/);
  }, 30_000);
});

describe('a comparison that gates nothing', () => {
  /**
   * The real H200 kernel summary with its layer-norm kernel's time multiplied by `factor`; without
   * `steps`, its 16 argmax launches (the window's one step evidence) are taken out too.
   */
  function normSlower(dir: string, name: string, factor: number, steps = true): string {
    const path = join(dir, name);
    const lines = readFileSync(REPEAT_KV, 'utf8').split('\n');
    const out = lines
      .filter((l) => steps || !l.includes('at::native::reduce_kernel<'))
      .map((l) => {
        if (!l.includes('vectorized_layer_norm_kernel')) return l;
        const cells = l.split(',');
        cells[1] = String(Math.round(Number(cells[1]) * factor));
        return cells.join(',');
      });
    if (factor !== 1) expect(out).not.toEqual(lines);
    writeFileSync(path, out.join('\n'));
    return path;
  }

  it('two kernel summaries with no step evidence, the norm 30 % slower, no throughput and no threshold: "nothing gated" first, never a pass', async () => {
    const dir = work();
    const base = join(dir, 'base.json');
    expect((await cli(['analyze', normSlower(dir, 'base.csv', 1, false), '--json', base, '--fail-verdicts', 'none'])).code).toBe(0);
    const head = normSlower(dir, 'head.csv', 1.3, false);
    const r = await cli(['analyze', head, '--baseline', base]);
    const lines = r.stdout.split('\n');
    expect(lines[0]).toMatch(/: INSUFFICIENT DATA$/);
    expect(lines.slice(0, 4).find((l) => l.startsWith('  - '))).toMatch(/^ {2}- nothing gated: no throughput or latency samples on both sides and no kernels on both sides|^ {2}- nothing gated: no throughput or latency samples on both sides and no time-per-step or kernel threshold set/);
    expect(r.stdout).not.toMatch(/PASS|0 gated metrics/);
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/warning: verdict insufficient-data, which does not fail this run .*nothing gated/);
    // The workflow makes it fail by listing insufficient-data.
    expect((await cli(['analyze', head, '--baseline', base, '--fail-verdicts', 'fail,invalid,insufficient-data'])).code).toBe(1);
    // A threshold on the kernel gates it: the share row is compared (and, 30 % slower, within 1 pp it passes).
    const gated = await cli(['analyze', head, '--baseline', base, '--threshold', 'kernel:vectorized_layer_norm_kernel=1', '--fail-verdicts', 'fail,invalid,insufficient-data']);
    expect(gated.stdout.split('\n')[0]).not.toMatch(/INSUFFICIENT DATA/);
  }, 30_000);

  it('with steps on both sides (16 argmax launches) the time rows gate: the norm +30 % is +30 µs/step, under 2 % of the step, a pass that says no throughput was compared', async () => {
    const dir = work();
    const base = join(dir, 'base.json');
    expect((await cli(['analyze', normSlower(dir, 'base.csv', 1), '--json', base, '--fail-verdicts', 'none'])).code).toBe(0);
    const json = join(dir, 'head.json');
    const r = await cli(['analyze', normSlower(dir, 'head.csv', 1.3), '--baseline', base, '--json', json]);
    expect(r.stdout.split('\n')[0]).toMatch(/: PASS$/);
    expect(r.stdout).toMatch(/no throughput or latency compared, no kernel time per step grew past its threshold/);
    expect(r.stdout).not.toMatch(/0 gated metrics|nothing gated/);
    const report = JSON.parse(readFileSync(json, 'utf8')) as { comparison: { rows: { metric: string; kind: string; status: string; delta: number | null }[] } };
    const norm = report.comparison.rows.find((row) => row.metric === 'kernel-time:family:norm')!;
    expect(norm.status).toBe('pass');
    expect(norm.delta).toBeGreaterThan(0);
  }, 30_000);
});
