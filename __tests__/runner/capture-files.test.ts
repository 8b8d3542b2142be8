import { mkdirSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { deepDiveRequest, renderNcuCommand } from '../../src/diagnose/deep-dive-request.js';
import { chooseDeepDive, ncuArgv, withNcuLogFile } from '../../src/runner/deep-dive.js';
import { splitShellWords } from '../../src/runner/shell-words.js';
import { checkOutput, collectCaptures, consoleAnalysisFile, deriveProfileConsole, findBySuffix, globToRegExp, matchCaptures } from '../../src/runner/capture-files.js';
import { RECORDED_NCU_CSV, RECORDED_NSYS_STATS, tempDir } from './stand-ins.js';

const dir = tempDir('files');
function file(name: string, text: string | Buffer): string {
  const path = join(dir, name);
  mkdirSync(join(path, '..'), { recursive: true });
  writeFileSync(path, text);
  return path;
}

describe('checkOutput', () => {
  it('accepts the real shapes', async () => {
    expect(await checkOutput(RECORDED_NSYS_STATS, 'nsys-stats')).toEqual({ ok: true, bytes: readFileSync(RECORDED_NSYS_STATS).length });
    expect(await checkOutput(RECORDED_NCU_CSV, 'ncu-csv')).toMatchObject({ ok: true });
    // Each format by its importer's own sniff, on real outputs of the tools.
    const fixture = (path: string) => join(import.meta.dirname, '..', 'fixtures', path);
    expect(await checkOutput(fixture('max/generate_na.txt'), 'max-generate')).toMatchObject({ ok: true });
    expect(await checkOutput(fixture('max/benchmark_result.json'), 'max-benchmark-json')).toMatchObject({ ok: true });
    expect(await checkOutput(fixture('gpu-snapshot/dense_decode.nvml.jsonl'), 'gpu-snapshot-jsonl')).toMatchObject({ ok: true });
    expect(await checkOutput(file('t.json.gz', gzipSync('{"traceEvents": []}')), 'workload-capture')).toMatchObject({ ok: true });
  });

  it('rejects missing, empty and wrong-shaped files, saying why', async () => {
    expect(await checkOutput(join(dir, 'nope.csv'), 'nsys-stats')).toEqual({ ok: false, reason: 'was not written' });
    expect(await checkOutput(file('empty.csv', ''), 'nsys-stats')).toEqual({ ok: false, reason: 'is empty' });
    // What nsys stats prints when the capture range never opened.
    expect(await checkOutput(file('skipped.csv', "Generating SQLite file x.sqlite from x.nsys-rep\nSKIPPED: x.sqlite does not contain CUDA kernel data.\n"), 'nsys-stats')).toEqual({ ok: false, reason: 'does not look like Nsight Systems stats (nsys stats)' });
    expect(await checkOutput(file('oom.log', 'Traceback (most recent call last):\nValueError: CUDA_ERROR_OUT_OF_MEMORY\n'), 'max-generate')).toEqual({ ok: false, reason: 'does not look like MAX generate console output' });
    expect(await checkOutput(file('bad.jsonl', '{"a":1}\n{"b":\n'), 'gpu-snapshot-jsonl')).toEqual({ ok: false, reason: 'line 2 is not JSON' });
    expect(await checkOutput(file('cut.json', '{"traceEvents": [{"ph": "X"'), 'workload-capture')).toEqual({ ok: false, reason: 'is cut off (does not end a JSON document)' });
    expect(await checkOutput(file('cut.json.gz', gzipSync('{"traceEvents": []}').subarray(0, 15)), 'workload-capture')).toMatchObject({ ok: false, reason: expect.stringMatching(/^does not decompress/) });
    expect(await checkOutput(file('b2.json', '[1,2]'), 'max-benchmark-json')).toEqual({ ok: false, reason: 'does not look like MAX benchmark result JSON' });
    expect(await checkOutput(file('other.jsonl', '{"a":1}\n'), 'gpu-snapshot-jsonl')).toEqual({ ok: false, reason: 'does not look like GPU samples as JSON lines (gpu_snapshot.py, NVML)' });
  });
});

describe('deriveProfileConsole', () => {
  it('drops exactly the nine metric lines of a profiled max generate, keeping the tables', async () => {
    const console = [
      'Hello (stand-in)',
      '',
      'Prompt size: 15',
      'Output size: 5',
      'Startup time: 1.0 ms',
      'Time to first token: 15.4 ms',
      'Prompt eval throughput (context-encoding): 968.8 tokens per second',
      'Time per Output Token: 6.9 ms',
      'Eval throughput (token-generation): 144.8 tokens per second',
      'Total Latency: 43.0 ms',
      'Total Throughput: 23.2 req/s',
      '=== Top 1 GPU kernels (100.0% of GPU time, 23.96 ms total) ===',
      ' 100.0%    23.96 ms       672  gemv_split_k_bfloat16_bfloat16_bfloat16_256_f519d2c2',
    ].join('\n');
    const to = join(dir, 'derived.txt');
    expect(await deriveProfileConsole(file('profile.log', console), to)).toBe(9);
    expect(readFileSync(to, 'utf8')).toBe('Hello (stand-in)\n\n=== Top 1 GPU kernels (100.0% of GPU time, 23.96 ms total) ===\n 100.0%    23.96 ms       672  gemv_split_k_bfloat16_bfloat16_bfloat16_256_f519d2c2\n');
  });
});

describe('capture globs', () => {
  it('matches *, ? and ** the usual way', () => {
    expect(globToRegExp('traces/*.json').test('traces/a.json')).toBe(true);
    expect(globToRegExp('traces/*.json').test('traces/sub/a.json')).toBe(false);
    expect(globToRegExp('traces/**/*.json').test('traces/a.json')).toBe(true);
    expect(globToRegExp('traces/**/*.json').test('traces/x/y/a.json')).toBe(true);
    expect(globToRegExp('run-?.pt.trace.json').test('run-1.pt.trace.json')).toBe(true);
    expect(globToRegExp('a.json').test('aXjson')).toBe(false);
  });

  it('copies only the files the step wrote or rewrote, keeping relative paths', async () => {
    const work = tempDir('collect');
    const old = join(work, 'traces', 'old.json');
    const rewritten = join(work, 'traces', 'again.json');
    mkdirSync(join(work, 'traces', 'rank0'), { recursive: true });
    writeFileSync(old, '{}');
    writeFileSync(rewritten, '{}');
    utimesSync(rewritten, new Date(Date.now() - 60_000), new Date(Date.now() - 60_000));
    const before = await matchCaptures(['traces/**/*.json'], work);
    expect([...before.keys()].sort()).toEqual([rewritten, old]);
    // The step: one new file, one rewritten, one untouched, one that does not match.
    writeFileSync(join(work, 'traces', 'rank0', 'new.json'), '{}');
    writeFileSync(rewritten, '{"x":1}');
    writeFileSync(join(work, 'traces', 'notes.txt'), 'x');
    const into = join(work, 'out', 'measured-1');
    const copies = await collectCaptures(['traces/**/*.json'], work, before, into);
    expect(copies.sort()).toEqual([join(into, 'traces', 'again.json'), join(into, 'traces', 'rank0', 'new.json')]);
    expect(await findBySuffix(join(work, 'traces'), '.json')).toEqual(expect.arrayContaining([old, join(work, 'traces', 'rank0', 'new.json')]));
  });
});

describe('deep dive command', () => {
  const workload = ['max', 'generate', '--model', 'm'];
  const gemv = deepDiveRequest('gemv_split_k_bfloat16_bfloat16_bfloat16_256_f519d2c2', 672);

  it('turns a structured request into argv: clocks left alone, the kernel filter, CSV details page, then the workload', () => {
    expect(ncuArgv('/usr/local/cuda/bin/ncu', gemv, workload)).toEqual([
      '/usr/local/cuda/bin/ncu',
      '--clock-control', 'none',
      '--kernel-name', 'regex:gemv_split_k_bfloat16_bfloat16_bfloat16_256',
      '--launch-skip', '336', '--launch-count', '1',
      '--section', 'SpeedOfLight', '--section', 'Occupancy', '--section', 'LaunchStats', '--section', 'MemoryWorkloadAnalysis', '--section', 'WarpStateStats',
      '--csv', '--page', 'details',
      ...workload,
    ]);
  });

  it('runs what the command shows: the rendered command is the same argv, quoted', () => {
    const request = deepDiveRequest("void at::native::elementwise_kernel<(int)128, (int)4, void at::native::gpu_kernel_impl_nocast<at::native::direct_copy_kernel_cuda(at::TensorIteratorBase &)::[lambda() (instance 3)]>(at::TensorIteratorBase &, const T1 &)::[lambda(int) (instance 1)]>(int, T3)", 1120);
    const shown = renderNcuCommand(request, "max generate --model m");
    expect(shown).toBe("ncu --clock-control none --kernel-name regex:'(^|[^A-Za-z0-9_])elementwise_kernel<.*direct_copy_kernel_cuda' --kernel-name-base demangled --launch-skip 560 --launch-count 1 --section SpeedOfLight --section Occupancy --section LaunchStats --section MemoryWorkloadAnalysis --section WarpStateStats --csv --page details max generate --model m");
    expect(splitShellWords(shown)).toEqual(ncuArgv('ncu', request, workload));
  });

  it("sends ncu's own output to the CSV file, replacing a --log-file the command had", () => {
    expect(withNcuLogFile(['ncu', '--log-file', 'x.txt', '--csv', '--log-file=y', 'app'], '/o/ncu.csv')).toEqual(['ncu', '--log-file', '/o/ncu.csv', '--csv', 'app']);
  });

  it('chooses: the first finding that asks for a deep dive, whatever its rule; the top kernel when always; else nothing', () => {
    const finding = { id: 'copy-heavy', kernel: gemv.kernel, deepDive: gemv };
    expect(chooseDeepDive('auto', { findings: [{ id: 'host-bound' }, finding] }, 'ncu', workload)).toEqual({ run: true, argv: ncuArgv('ncu', gemv, workload), why: `the copy-heavy finding (${gemv.kernel})`, request: gemv });
    expect(chooseDeepDive('off', { findings: [finding] }, 'ncu', workload)).toEqual({ run: false, why: 'deep-dive: off' });
    expect(chooseDeepDive('auto', { findings: [{ id: 'host-bound' }], topKernel: { name: 'k', instances: 3 } }, 'ncu', workload)).toEqual({ run: false, why: 'no finding asks for a deep dive' });
    const top = chooseDeepDive('always', { findings: [], topKernel: { name: 'flash_fwd<128>', instances: 40 } }, 'ncu', workload);
    expect(top).toMatchObject({ run: true, why: 'deep-dive: always, on the top kernel flash_fwd<128>' });
    expect(top.run && top.argv).toEqual(['ncu', '--clock-control', 'none', '--kernel-name', 'regex:^flash_fwd$', '--launch-skip', '20', '--launch-count', '1', '--section', 'SpeedOfLight', '--section', 'Occupancy', '--section', 'LaunchStats', '--section', 'MemoryWorkloadAnalysis', '--section', 'WarpStateStats', '--csv', '--page', 'details', ...workload]);
  });
});

describe("a workload console that also holds the tables nsys printed into it", () => {
  it('is read for its metric lines, as before the tables: the profile step keeps its own tables', async () => {
    // A real log of `nsys profile --stats=true` runs (fixtures/h100-patterns): per run, the workload's
    // two `{"kind": "run", …}` lines and `{"metric": "profile_steps", "value": 8}`, beside nsys's tables.
    const log = join(tempDir('console-tables'), 'workload.log');
    writeFileSync(log, readFileSync(join(import.meta.dirname, '..', 'fixtures', 'h100-patterns', 'two_runs_stats.console.md')));
    const read = await consoleAnalysisFile(log);
    expect(read.ok && read.path.endsWith('workload.metrics.jsonl')).toBe(true);
    const lines = readFileSync(join(import.meta.dirname, '..', 'fixtures', 'h100-patterns', 'two_runs_stats.console.md'), 'utf8').split('\n');
    const workloadLines = lines.filter((line) => line.startsWith('{"kind": "run"') || line.startsWith('{"metric"'));
    expect(workloadLines).toHaveLength(6);
    if (read.ok) expect(readFileSync(read.path, 'utf8').split('\n').filter(Boolean)).toEqual(workloadLines);
  });
});
