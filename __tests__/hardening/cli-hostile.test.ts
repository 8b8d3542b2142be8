/**
 * Hostile files through the committed CLI bundle, as a user runs it: `node dist/cli/index.js analyze
 * FILE` exits 2 with exactly one line on stderr that names the file, never a stack trace or an
 * "internal error". The cases are the kinds the parser fuzzing found or guards against.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';

const ROOT = resolve(import.meta.dirname, '..', '..');
const CLI = join(ROOT, 'dist', 'cli', 'index.js');
const FIXTURES = join(ROOT, '__tests__', 'fixtures');
const dir = mkdtempSync(join(tmpdir(), 'pg-hostile-'));

beforeAll(() => {
  if (!existsSync(CLI)) throw new Error(`${CLI} is missing: run 'npm run build' first`);
});

function analyze(...args: string[]) {
  return spawnSync(process.execPath, [CLI, 'analyze', ...args], { encoding: 'utf8', env: { PATH: process.env['PATH'] ?? '' }, timeout: 60_000 });
}

function file(name: string, content: string | Buffer): string {
  const path = join(dir, name);
  writeFileSync(path, content);
  return path;
}

const kernSum = readFileSync(join(FIXTURES, 'nsys', 'nsys_healthy_kern_sum.csv'), 'utf8');
/** Line 4 of the fixture is its first kernel row: `28.6,12183455,256,…`. */
const withFirstRow = (row: string) => kernSum.split('\n').map((line, i) => (i === 3 ? row : line)).join('\n');
const kinetoGz = readFileSync(join(FIXTURES, 'kineto', 'healthy_graph_decode.trace.json.gz'));
/** A deterministic stand-in for random bytes. */
const noise = Buffer.from(Array.from({ length: 4096 }, (_, i) => (i * 2654435761) >>> 24));

const cases: Array<[string, () => string, RegExp]> = [
  ['an empty file', () => file('empty.csv', ''), /: the file is empty; expected a capture$/],
  ['random bytes', () => file('noise.bin', noise), /:1: unrecognized capture format \(starts with .*\); expected a capture of one of the \d+ formats /],
  ['a gzip trace cut short', () => file('cut.trace.json.gz', kinetoGz.subarray(0, Math.floor(kinetoGz.length / 2))), /: expected a complete gzip stream, got ".*" after \d+ bytes of JSON$/],
  ['a total of 1e309 ns (Infinity)', () => file('inf.csv', withFirstRow('28.6,1e309,256,47591.6,47519.5,44704,50784,1247.3,nvjet_sm90_tst_256x8_64x6_4x1_v_bz_NNT')), /:4: expected a number in column "Total Time \(ns\)" \(a time\), got "1e309"$/],
  [
    'two kernels of 1e308 ns (a sum that overflows)',
    () => file('huge.csv', withFirstRow('28.6,1e308,256,47591.6,47519.5,44704,50784,1247.3,a\n28.6,1e308,256,47591.6,47519.5,44704,50784,1247.3,b')),
    /: expected finite values up to 9007199254740991, got 1e\+308 at kernels\[0\] \("a"\)\.totalNs$/,
  ],
  [
    'a GPU index of 2^53 + 1',
    () => file('index.csv', readFileSync(join(FIXTURES, 'nvidia-smi', 'openad_2xA6000_query_gpu_loop_trimmed.csv'), 'utf8').replace(/\n(\d{4}\/\d\d\/\d\d [\d:.]+), 0,/, '\n$1, 9007199254740993,')),
    /: expected finite values up to 9007199254740991, got 9007199254740992 at utilization\[\d+\]\.device$/,
  ],
  ['a JSON syntax error a few lines in', () => file('bench.json', '{\n  "request_throughput": 4.2,\n  "median_ttft_ms": ]\n}\n'), /: expected valid JSON \(.*\)$/],
  ['a line of 300,000 quotes in an ncu CSV', () => file('quotes.csv', `${readFileSync(join(FIXTURES, 'ncu', 'llama_decode_ncu_raw_built.csv'), 'utf8')}\n${'"'.repeat(300_000)}\n`), /:\d+: expected .*…$/],
  ['a megabyte of one line', () => file('line.txt', 'x'.repeat(1_000_000)), /:1: unrecognized capture format \(starts with "x{60}"\)/],
  ['min above max in an nsys row', () => file('minmax.csv', withFirstRow('28.6,12183455,256,47591.6,47519.5,50784,44704,1247.3,nvjet_sm90_tst_256x8_64x6_4x1_v_bz_NNT')), /:4: expected the minimum at most the maximum, got 50784 ns > 44704 ns \(a garbled row\)$/],
  ['a special file', () => '/dev/null', /: expected a file, found a directory or special file$/],
];

describe('node dist/cli/index.js analyze HOSTILE-FILE', () => {
  it.each(cases)('%s: exit 2, one line naming the file', (_name, make, message) => {
    const path = make();
    const result = analyze(path);
    expect({ status: result.status, stdout: result.stdout }).toEqual({ status: 2, stdout: '' });
    expect(result.stderr.endsWith('\n')).toBe(true);
    expect(result.stderr.split('\n')).toHaveLength(2);
    expect(result.stderr.startsWith(`profile-gate: ${path}`)).toBe(true);
    expect(result.stderr).not.toMatch(/internal error|\n\s+at |ZodError/);
    expect(result.stderr.length).toBeLessThan(1000);
    expect(result.stderr.trimEnd()).toMatch(message);
  });
});

describe('valid files saved by other tools read as the original', () => {
  it('a Kineto trace re-saved as UTF-16LE with a BOM (Windows PowerShell) and as UTF-8 with a BOM', () => {
    const text = gunzipSync(kinetoGz).toString('utf8');
    const original = analyze('--json', '-', file('trace.json', text));
    expect(original.status).toBe(0);
    const kernels = (out: string) => (JSON.parse(out) as { kernels: unknown[]; totalKernelNs: number }).totalKernelNs;
    for (const [name, bytes] of [
      ['utf16.json', Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')])],
      ['bom.json.gz', gzipSync(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(text)]))],
    ] as const) {
      const variant = analyze('--json', '-', file(name, bytes));
      expect({ name, status: variant.status, stderr: variant.stderr }).toEqual({ name, status: 0, stderr: '' });
      expect(kernels(variant.stdout)).toBe(kernels(original.stdout));
    }
  });
});
