/**
 * The mistakes of a first hour with the CLI, each answered by one line that says what went wrong and
 * what to do: a flag typo, a path typo, a capture or a folder given as the baseline, a report given
 * as a capture, an nsys per-launch trace, a workload that prints its throughput for people only; and
 * `-` meaning stdout and nothing else.
 */
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cli, runCli } from '../helpers/cli.js';
import { ROOT } from '../helpers/fake-github-runner.js';
import { ProcessGroups } from '../../src/runner/process-group.js';
import { EXIT_RUN_FAILED } from '../../src/errors.js';
import { FORMAT_IDS } from '../../src/model/capture.js';
import type { Report } from '../../src/model/report.js';
import { standInProbe, standInPythonDir, tempDir } from '../runner/stand-ins.js';

const SAMPLES = join(ROOT, 'samples');
const KERN_SUM = join(ROOT, '__tests__', 'fixtures', 'h200-stacks', 'repeat_kv', 'repeatkv_node.kern_sum.csv');

/** stderr is one line: no stack, no second message. */
function oneLine(stderr: string): string {
  expect(stderr.endsWith('\n')).toBe(true);
  expect(stderr.trimEnd().split('\n')).toHaveLength(1);
  return stderr.trimEnd();
}

describe('a flag typo', () => {
  it('names the flag given and the one meant', async () => {
    const { code, stderr } = await cli(['analyze', '--basline', 'base.json', KERN_SUM]);
    expect(code).toBe(2);
    expect(oneLine(stderr)).toBe('profile-gate: analyze: unknown option --basline; did you mean --baseline? (profile-gate analyze --help lists its options)');
    // Not the parser's own advice, with its unbalanced quote.
    expect(stderr).not.toMatch(/positional|'/);
  });

  it('guesses nothing when no flag is near, and says so for run too', async () => {
    const far = await cli(['analyze', '--frobnicate', KERN_SUM]);
    expect(oneLine(far.stderr)).toBe('profile-gate: analyze: unknown option --frobnicate (profile-gate analyze --help lists its options)');
    const run = await cli(['run', '--modle', 'x', '--dry-run']);
    expect(run.code).toBe(2);
    expect(oneLine(run.stderr)).toBe('profile-gate: run: unknown option --modle; did you mean --model? (profile-gate run --help lists its options)');
  });

  it('a flag without its value', async () => {
    const { code, stderr } = await cli(['analyze', KERN_SUM, '--baseline']);
    expect(code).toBe(2);
    expect(oneLine(stderr)).toBe('profile-gate: analyze: --baseline takes a value (profile-gate analyze --help lists its options)');
  });

  it('a flag of one value given twice with two values is refused, whatever the command; the same value twice is one', async () => {
    const twice = await cli(['analyze', '--fail-verdicts', 'fail', KERN_SUM, '--fail-verdicts', 'none']);
    expect(twice.code).toBe(2);
    expect(oneLine(twice.stderr)).toBe('profile-gate: analyze: --fail-verdicts is given twice ("fail", then "none"); give it once (profile-gate analyze --help lists its options)');
    const baseline = await cli(['report', '--out', 'a', '--out', 'b', KERN_SUM]);
    expect(oneLine(baseline.stderr)).toBe('profile-gate: report: --out is given twice ("a", then "b"); give it once (profile-gate report --help lists its options)');
    const run = await cli(['run', '--runs', '3', '--runs', '5', '--dry-run']);
    expect(oneLine(run.stderr)).toBe('profile-gate: run: --runs is given twice ("3", then "5"); give it once (profile-gate run --help lists its options)');
    // The same value twice, a switch twice, and a repeatable flag are no contradiction.
    expect((await cli(['analyze', '--json', '-', '--fail-verdicts', 'fail', '--fail-verdicts', 'fail', '--strict', '--strict', '--threshold', 'decode_tok_s=3', '--threshold', 'ttft_ms=5', KERN_SUM])).code).not.toBe(2);
  });

  it('a value that starts with a dash: says how to give it, in words of our own', async () => {
    const { code, stderr } = await cli(['analyze', '--timeout', '-5', KERN_SUM]);
    expect(code).toBe(2);
    expect(oneLine(stderr)).toBe(
      'profile-gate: analyze: --timeout is followed by a word that starts with a dash, read as another option; a value that starts with one is written --timeout=VALUE (profile-gate analyze --help lists its options)',
    );
    // Given so, the value itself is judged.
    const judged = await cli(['analyze', '--timeout=-5', KERN_SUM]);
    expect(oneLine(judged.stderr)).toBe('profile-gate: --timeout: expected a positive number of seconds, got "-5"');
  });
});

describe('a path typo', () => {
  it('points to the path meant, not to a policy that lets an empty capture pass', async () => {
    const { code, stderr } = await cli(['analyze', join(SAMPLES, 'curent')]);
    expect(code).toBe(2);
    const line = oneLine(stderr);
    expect(line).toBe(`profile-gate: no capture files: ${join(SAMPLES, 'curent')} (missing); did you mean ${join(SAMPLES, 'current')}?`);
    expect(line).not.toContain('--if-no-captures');
  });

  it('a glob left unexpanded (quoted, or the action\'s captures input) says to name the folder', async () => {
    // One letter from a file there (x.jsonl): a glob is never guessed as a typo of it.
    const folder = mkdtempSync(join(tmpdir(), 'pg-glob-'));
    writeFileSync(join(folder, 'x.jsonl'), '{"metric": "decode_tok_s", "value": 1}\n');
    const near = await cli(['analyze', join(folder, '*.jsonl')]);
    expect(oneLine(near.stderr)).not.toContain('did you mean');
    const glob = join(SAMPLES, 'current', '*.jsonl');
    const { code, stderr } = await cli(['analyze', glob]);
    expect(code).toBe(2);
    expect(oneLine(stderr)).toBe(
      `profile-gate: no capture files: ${glob} (missing; a glob, and paths are not expanded here: name the folder that holds the files, ${join(SAMPLES, 'current')}); check the path and that the profiling step wrote its files (--if-no-captures: warn or ignore lets an empty capture pass)`,
    );
  });

  it('a path with nothing near it still names the policy', async () => {
    const { stderr } = await cli(['analyze', join(SAMPLES, 'nothing-like-it')]);
    expect(oneLine(stderr)).toMatch(/\(missing\); check the path and that the profiling step wrote its files \(--if-no-captures: warn or ignore/);
  });
});

describe('the wrong file as --baseline', () => {
  it('a capture: says what it is and what --baseline takes', async () => {
    const { code, stderr } = await cli(['analyze', '--baseline', join(SAMPLES, 'baseline', 'healthy_timed.stdout.jsonl'), join(SAMPLES, 'current')]);
    expect(code).toBe(2);
    const line = oneLine(stderr);
    expect(line).toBe(
      `profile-gate: ${join(SAMPLES, 'baseline', 'healthy_timed.stdout.jsonl')}: a capture (workload-metrics-jsonl), not a report; a baseline is the report.json of an earlier analysis: profile-gate analyze --json baseline.json BASELINE_CAPTURES..., then give baseline.json`,
    );
    expect(line).not.toMatch(/position \d+/);
  });

  it('a gzipped trace too', async () => {
    const { stderr } = await cli(['analyze', '--baseline', join(SAMPLES, 'baseline', 'healthy.trace.json.gz'), join(SAMPLES, 'current')]);
    expect(oneLine(stderr)).toContain('healthy.trace.json.gz: a capture (kineto-json), not a report;');
  });

  it('a folder: one line, no errno', async () => {
    const { code, stderr } = await cli(['analyze', '--baseline', join(SAMPLES, 'baseline'), join(SAMPLES, 'current')]);
    expect(code).toBe(2);
    const line = oneLine(stderr);
    expect(line).toBe(`profile-gate: ${join(SAMPLES, 'baseline')}: a folder; expected one profile-gate report.json file (analyze --json FILE and run --out DIR write one)`);
    expect(line).not.toContain('EISDIR');
  });

  it('a folder that holds a report: names the file', async () => {
    const dir = tempDir('first-hour');
    const made = await cli(['analyze', '--json', join(dir, 'report.json'), KERN_SUM]);
    expect(made.code).toBe(0);
    const { stderr } = await cli(['analyze', '--baseline', dir, KERN_SUM]);
    expect(oneLine(stderr)).toBe(`profile-gate: ${dir}: a folder; expected one profile-gate report.json file (this folder holds ${join(dir, 'report.json')})`);
  });
});

describe('inputs that are not captures', () => {
  it("profile-gate's own report: says it is a report and where it goes", async () => {
    const dir = tempDir('first-hour');
    await cli(['analyze', '--json', join(dir, 'report.json'), KERN_SUM]);
    const { code, stderr } = await cli(['analyze', join(dir, 'report.json')]);
    expect(code).toBe(2);
    expect(oneLine(stderr)).toBe(
      `profile-gate: ${join(dir, 'report.json')}:1: a profile-gate report.json, not a capture; give it as the baseline (analyze --baseline FILE), or merge reports with profile-gate report --out DIR FILE...`,
    );
  });

  it('an nsys cuda_gpu_trace CSV: asks for the kernel summary', async () => {
    const dir = tempDir('first-hour');
    // The header nsys stats --report cuda_gpu_trace --format csv writes, and one launch.
    const trace = join(dir, 'trace_cuda_gpu_trace.csv');
    writeFileSync(trace, 'Start (ns),Duration (ns),CorrId,GrdX,GrdY,GrdZ,BlkX,BlkY,BlkZ,Reg/Trd,StcSMem (MB),DymSMem (MB),Bytes (MB),Throughput (MBps),SrcMemKd,DstMemKd,Device,Ctx,GreenCtx,Strm,Name\n1000,2000,5,1,1,1,128,1,1,32,0.000,0.000,,,,,NVIDIA H200 (0),1,,7,void foo_kernel(int)\n');
    const { code, stderr } = await cli(['analyze', trace]);
    expect(code).toBe(2);
    expect(oneLine(stderr)).toBe(`profile-gate: ${trace}:1: an nsys cuda_gpu_trace CSV (one row per launch); export the kernel summary instead: nsys stats --report cuda_gpu_kern_sum --format csv --output PREFIX x.nsys-rep`);
  });

  it('an unknown format: does not list every id, and is never cut inside a word', async () => {
    const dir = tempDir('first-hour');
    const notes = join(dir, 'notes.txt');
    writeFileSync(notes, `${'hello world '.repeat(40)}\n`);
    const { code, stderr } = await cli(['analyze', notes]);
    expect(code).toBe(2);
    const line = oneLine(stderr);
    expect(line).toMatch(/unrecognized capture format \(starts with "hello world hello world.*"\); expected a capture of one of the \d+ formats analyze --help lists \(references\/formats\.md shows each\), or pass --format NAME$/);
    expect(FORMAT_IDS.filter((id) => line.includes(id))).toEqual([]);
  });

  it('a skipped file in a folder: the verdict line names it without the list of ids', async () => {
    const dir = tempDir('first-hour');
    copyFileSync(KERN_SUM, join(dir, 'kern_sum.csv'));
    writeFileSync(join(dir, 'notes.json'), '{"hello": "world"}\n');
    const { code, stdout } = await cli(['analyze', dir]);
    expect(code).toBe(0);
    const first = stdout.split('\n').find((l) => l.includes('notes.json'))!;
    expect(first).toBeDefined();
    expect(FORMAT_IDS.filter((id) => first.includes(id))).toEqual([]);
    expect(first).not.toMatch(/\w…/);
  });
});

describe('- is stdout, and only the document', () => {
  it('demo --json - writes the report alone on stdout; the words around it go to stderr', async () => {
    const { code, stdout, stderr } = await cli(['demo', '--json', '-']);
    expect(code).toBe(0);
    const report = JSON.parse(stdout) as { verdict: string };
    expect(report.verdict).toBe('fail');
    expect(stderr).toContain('Demo: ');
    expect(stderr).toContain('In CI this verdict fails the job (exit code 1); the demo exits 0.');
  }, 60_000);

  it('demo --markdown - writes the summary alone on stdout', async () => {
    const { code, stdout, stderr } = await cli(['demo', '--markdown', '-']);
    expect(code).toBe(0);
    expect(stdout).not.toContain('Demo: ');
    expect(stdout).not.toContain('the demo exits 0');
    expect(stderr).toContain('profile-gate analyze --baseline base.json CAPTURES...');
    // No CI job here: no artifact, no workflow run, no job's report directory to speak of.
    expect(stdout).not.toMatch(/Artifacts|artifact|of the job/);
  }, 60_000);
});

describe('the demo', () => {
  it('ends with the next command to try on your own data', async () => {
    const { stdout } = await cli(['demo']);
    const tail = stdout.trimEnd().split('\n').slice(-4).join('\n');
    expect(tail).toBe(
      [
        'Next, on your own captures (an nsys kernel summary, a PyTorch profiler trace, metric lines):',
        '  profile-gate analyze --json base.json BASELINE_CAPTURES...',
        '  profile-gate analyze --baseline base.json CAPTURES...',
        'Every input format, with a minimal file of each: references/formats.md',
      ].join('\n'),
    );
  }, 60_000);
});

describe('run: a workload that prints its throughput for people only', () => {
  it('says that no metric line was found, and shows the line to print', async () => {
    const work = tempDir('first-hour');
    mkdirSync(join(work, 'bin'), { recursive: true });
    const { code, stdout, stderr } = await runCli(
      ['--engine', 'command', '--run', 'echo "decode throughput: 100 tok/s"', '--profiler', 'none', '--allow-no-gpu', '--runs', '1', '--warmup-runs', '0', '--deep-dive', 'off', '--out', 'o', '--quiet'],
      { probe: standInProbe({ vendor: 'none' }), pythonDir: standInPythonDir({ snapshot: false }), cwd: work, groups: new ProcessGroups({ graceMs: 300 }) },
    );
    expect(code).toBe(EXIT_RUN_FAILED);
    expect(stdout).toMatch(/^run failed in /m);
    expect(oneLine(stderr)).toBe(
      'profile-gate: run failed: every step finished but no capture file was produced for the analysis: the workload\'s console holds no {"metric": …, "value": …} line: it prints "decode throughput: 100 tok/s", which is for people; print the number as a metric line too, e.g. {"metric": "decode_tok_s", "value": 100}',
    );
  }, 60_000);
});

describe('run: a measured run that printed no metric line', () => {
  it('is named in a warning with the runs that count, not passed over as a generic note', async () => {
    const work = tempDir('first-hour');
    // The second of three measured runs prints its throughput for people only.
    const command = `n=$(cat n 2>/dev/null || echo 0); n=$((n+1)); echo $n > n; if [ $n -eq 2 ]; then echo "done"; else echo '{"metric": "decode_tok_s", "value": 10'$n'}'; fi`;
    const { code, stdout } = await runCli(
      ['--engine', 'command', '--run', command, '--profiler', 'none', '--allow-no-gpu', '--runs', '3', '--warmup-runs', '0', '--deep-dive', 'off', '--out', 'o', '--quiet'],
      { probe: standInProbe({ vendor: 'none' }), pythonDir: standInPythonDir({ snapshot: false }), cwd: work, groups: new ProcessGroups({ graceMs: 300 }) },
    );
    expect(code).toBe(0);
    const report = JSON.parse(readFileSync(join(work, 'o', 'report.json'), 'utf8')) as Report;
    expect(report.metrics.find((m) => m.name === 'decode_tok_s')!.samples).toEqual([101, 103]);
    const unread = report.notices.filter((n) => n.code === 'workload-console-unread');
    expect(unread).toEqual([
      {
        code: 'workload-console-unread',
        severity: 'warning',
        message: 'measured-2 gave no sample: its console holds no {"metric": …, "value": …} line, unlike the other measured runs; 2 of 3 measured runs count',
      },
    ]);
    expect(stdout).toContain('warning: measured-2 gave no sample');
  }, 60_000);
});

describe('run: the workload\'s own profiler traces (--profiler torch, --captures) that no measured run wrote', () => {
  const runWith = async (extra: string[] = []) => {
    const work = tempDir('first-hour');
    const result = await runCli(
      ['--engine', 'command', '--run', `echo '{"metric": "decode_tok_s", "value": 100}'`, '--profiler', 'torch', '--captures', 'traces/*.json', '--allow-no-gpu', '--runs', '3', '--warmup-runs', '0', '--deep-dive', 'off', '--out', 'o', '--quiet', ...extra],
      { probe: standInProbe({ vendor: 'none' }), pythonDir: standInPythonDir({ snapshot: false }), cwd: work, groups: new ProcessGroups({ graceMs: 300 }) },
    );
    return { ...result, work };
  };

  it('are a planned capture not made: named in the verdict\'s first line, and --strict fails on it', async () => {
    const { code, work } = await runWith();
    expect(code).toBe(0);
    const report = JSON.parse(readFileSync(join(work, 'o', 'report.json'), 'utf8')) as Report;
    expect(report.skippedInputs).toEqual([
      { path: 'traces/*.json', reason: 'planned capture not made, so no kernel comparison, per-step time or kernel findings: no measured run wrote a file matching captures traces/*.json' },
    ]);
    const strict = await runWith(['--strict']);
    expect(strict.code).toBe(EXIT_RUN_FAILED);
    expect(strict.stderr).toMatch(/^profile-gate: --strict: traces\/\*\.json: planned capture not made/);
  }, 60_000);
});

describe('run: the workload named and families of your own, as analyze takes them', () => {
  const runWith = async (extra: string[]) => {
    const work = tempDir('first-hour');
    writeFileSync(join(work, 'families.json'), JSON.stringify({ families: [{ family: 'kv-repeat', pattern: 'direct_copy_kernel_cuda' }] }));
    // The workload: one metric line, and the kernel summary of a real H200 capture as its own profile.
    const command = `mkdir -p traces && cp ${KERN_SUM} traces/kern_sum.csv && echo '{"metric": "decode_tok_s", "value": 100}'`;
    const result = await runCli(
      ['--engine', 'command', '--run', command, '--profiler', 'torch', '--captures', 'traces/*.csv', '--allow-no-gpu', '--runs', '1', '--warmup-runs', '0', '--deep-dive', 'off', '--out', 'o', '--quiet', ...extra],
      { probe: standInProbe({ vendor: 'none' }), pythonDir: standInPythonDir({ snapshot: false }), cwd: work, groups: new ProcessGroups({ graceMs: 300 }) },
    );
    if (result.code === 2) throw new Error(result.stderr);
    const read = (name: string) => JSON.parse(readFileSync(join(work, 'o', name), 'utf8')) as Record<string, unknown>;
    return { ...result, report: read('report.json') as unknown as Report, runJson: read('run.json'), markdown: readFileSync(join(work, 'o', 'report.md'), 'utf8') };
  };

  it('--workload names the report, --families classifies its kernels', async () => {
    const { code, stderr, report, markdown } = await runWith(['--workload', 'llama-decode-bs1', '--families', 'families.json']);
    expect(stderr).toBe('');
    expect(code).toBe(0);
    expect(report.run.workload).toBe('llama-decode-bs1');
    expect(report.kernels.find((k) => k.name.includes('direct_copy_kernel_cuda'))!.family).toBe('kv-repeat');
    expect(markdown.split('\n').find((l) => l.startsWith('#'))).toMatch(/· llama\\-decode\\-bs1$/);
  }, 60_000);

  it('unnamed, a command workload is titled by its command, not by the folder of its logs; run.json lists no MAX option', async () => {
    const { report, runJson, markdown } = await runWith([]);
    expect(report.run.workload).toMatch(/^mkdir -p traces && cp /);
    const title = markdown.split('\n').find((l) => l.startsWith('#'))!;
    expect(title).not.toMatch(/· logs|· captures/);
    const options = runJson['options'] as Record<string, unknown>;
    expect(options['engine']).toBe('command');
    expect(Object.keys(options).filter((key) => ['mode', 'maxArgs', 'prompt', 'maxNewTokens', 'customArchitectures', 'benchmarkArgs', 'captureSeconds'].includes(key))).toEqual([]);
    expect(options['run']).toMatch(/^mkdir -p traces/);
  }, 60_000);
});

describe('the plan on a box without a GPU', () => {
  it('does not contradict itself: no sampling said to be off and then needed, no utilization promised', async () => {
    const { code, stdout } = await runCli(['--engine', 'command', '--run', 'python x.py', '--dry-run'], { probe: standInProbe({ vendor: 'none' }), pythonDir: standInPythonDir({ snapshot: true }), cwd: tempDir('first-hour') });
    expect(code).toBe(2);
    const head = stdout.slice(0, stdout.indexOf('\nSteps'));
    expect(head).toContain('  GPU         none found\n');
    expect(head).toContain('  profiler    none: throughput only (asked: auto; no GPU found)\n');
    expect(head).toContain('  sampling    not possible: no GPU found\n');
    expect(head).not.toMatch(/utilization|sampling {4}off/);
    // The problem names what needs a GPU, which the lines above say there is none for.
    expect(stdout).toMatch(/no GPU found \(nvidia-smi and rocm-smi list none\), but profiler auto and GPU sampling need one/);
  });
});

describe("the terminal's time per step", () => {
  it('families and kernels under sub-headers, aligned, each with its relative change; one spelling of µs', async () => {
    const { stdout } = await cli(['demo']);
    const block = stdout.slice(stdout.indexOf('Time per step (GPU kernel time)'), stdout.indexOf('\nDiagnosis'));
    const lines = block.split('\n');
    const family = lines.indexOf('  by family');
    const kernel = lines.indexOf('  by kernel');
    expect(family).toBeGreaterThan(0);
    expect(kernel).toBeGreaterThan(family);
    const rows = lines.slice(family).filter((l) => l.startsWith('    '));
    expect(rows.length).toBe(10);
    // The arrow of every row, and of the column header, in one column.
    const header = lines[family - 1]!;
    expect(header).toMatch(/baseline → current +change$/);
    expect(new Set([header, ...rows].map((l) => l.indexOf(' → '))).size).toBe(1);
    const ns = (text: string) => {
      const [value, unit] = text.split(' ');
      return Number(value) * { ns: 1, 'µs': 1e3, ms: 1e6 }[unit as 'ns' | 'µs' | 'ms'];
    };
    for (const row of rows) {
      const m = /^ {4}(.+?) +(\S+ (?:ns|µs|ms)) → (\S+ (?:ns|µs|ms)) +([+−]\S+ (?:ns|µs|ms)) {2}(new|gone|[+−][\d.]+ %)$/.exec(row);
      expect({ row, parsed: m !== null }).toEqual({ row, parsed: true });
      const [base, current, rel] = [ns(m![2]!), ns(m![3]!), m![5]!];
      if (base === 0) expect(rel).toBe('new');
      else if (current === 0) expect(rel).toBe('gone');
      // From the row's own rounded numbers, within their rounding.
      else expect(Math.abs(Number(rel.replace('−', '-').replace(' %', '')) - ((current - base) / base) * 100)).toBeLessThan(2);
    }
    // Copy / layout: 60.6 µs → 419 µs is +591 % of the baseline's time.
    expect(rows.find((r) => r.includes('Copy / layout'))).toMatch(/\+59\d %$/);
    expect(stdout).not.toMatch(/\d us\b/);
    expect(stdout).toMatch(/\d µs/);
  }, 60_000);
});
