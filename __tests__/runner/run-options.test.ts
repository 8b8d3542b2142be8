import { UsageError } from '../../src/errors.js';
import { DEFAULT_BENCHMARK_ARGS, parseRunOptions } from '../../src/runner/run-options.js';
import { flagValue, formatCommand, hasFlag, splitShellWords } from '../../src/runner/shell-words.js';

function errorOf(fn: () => unknown): string {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(UsageError);
    return (error as Error).message;
  }
  throw new Error('expected an error');
}

describe('parseRunOptions', () => {
  it('fills the documented defaults for engine max', () => {
    const options = parseRunOptions({ model: 'modularai/Llama-3.1-8B-Instruct-GGUF' });
    expect(options).toMatchObject({
      engine: 'max',
      mode: 'generate',
      maxArgs: [],
      maxNewTokens: 100,
      warmupRuns: 1,
      runs: 5,
      profiler: 'auto',
      captureSeconds: 10,
      deepDive: 'auto',
      timeoutMinutes: 30,
      benchmarkArgs: splitShellWords(DEFAULT_BENCHMARK_ARGS),
      allowNoGpu: false,
      ignored: [],
    });
  });

  it('reads allow-no-gpu as true or false, and names it when it is neither', () => {
    expect(parseRunOptions({ model: 'm', 'allow-no-gpu': 'True' }).allowNoGpu).toBe(true);
    expect(parseRunOptions({ model: 'm', 'allow-no-gpu': '' }).allowNoGpu).toBe(false);
    expect(() => parseRunOptions({ model: 'm', 'allow-no-gpu': 'yes' }, 'input')).toThrow(`input 'allow-no-gpu': expected true or false, got "yes"`);
  });

  it('reads action-style text: empty means unset, numbers and lists are parsed', () => {
    const options = parseRunOptions({
      engine: 'command',
      run: 'python bench.py --steps 8',
      captures: 'traces/*.json,\nlogs/**/*.json.gz',
      runs: '3',
      'warmup-runs': '0',
      'timeout-minutes': '7.5',
      profiler: '',
      'max-mode': 'generate',
    });
    expect(options.engine).toBe('command');
    expect(options.run).toBe('python bench.py --steps 8');
    expect(options.captures).toEqual(['traces/*.json', 'logs/**/*.json.gz']);
    expect(options.runs).toBe(3);
    expect(options.warmupRuns).toBe(0);
    expect(options.timeoutMinutes).toBe(7.5);
    expect(options.profiler).toBe('auto');
    expect(options.ignored).toEqual([]);
  });

  it('splits max-args like a shell', () => {
    const options = parseRunOptions({ model: 'm', 'max-args': `--max-length 2048 --prompt "two words" --x='a b'` });
    expect(options.maxArgs).toEqual(['--max-length', '2048', '--prompt', 'two words', '--x=a b']);
  });

  it('names the option in errors, in the style of the door', () => {
    expect(errorOf(() => parseRunOptions({ model: 'm', runs: 'five' }, 'cli'))).toBe('--runs: expected a whole number, got "five"');
    expect(errorOf(() => parseRunOptions({ model: 'm', runs: '0' }, 'input'))).toBe(`input 'runs': expected a whole number >= 1, got "0"`);
    expect(errorOf(() => parseRunOptions({ model: 'm', profiler: 'perf' }, 'cli'))).toBe('--profiler: expected one of auto, max, nsys, rocprofv3, torch, none, got "perf"');
    expect(errorOf(() => parseRunOptions({ model: 'm', 'capture-seconds': '-1' }, 'cli'))).toMatch(/^--capture-seconds: expected a number > 0/);
    expect(errorOf(() => parseRunOptions({ model: 'm', 'max-args': '--prompt "open' }, 'cli'))).toBe('--max-args: cannot split into arguments: unterminated " quote, got "--prompt \\"open"');
    expect(errorOf(() => parseRunOptions({ model: 'm', bogus: 'x' }, 'input'))).toMatch(/^input 'bogus': unknown option; expected one of engine, model/);
  });

  it('requires the model for max and the command for command', () => {
    expect(errorOf(() => parseRunOptions({}, 'cli'))).toBe('--model: required with engine max (a Hugging Face id or a local path)');
    expect(errorOf(() => parseRunOptions({ engine: 'command' }, 'input'))).toBe(`input 'run': required with engine command (the workload command line)`);
  });

  it('refuses port 8001 for max serve up front (the metrics port)', () => {
    expect(errorOf(() => parseRunOptions({ model: 'm', 'max-mode': 'serve', 'max-args': '--port 8001' }, 'cli'))).toMatch(/^--max-args: --port 8001 is the port MAX serves its metrics on/);
    expect(errorOf(() => parseRunOptions({ model: 'm', 'max-mode': 'serve', 'max-args': '--port=8001' }, 'cli'))).toMatch(/^--max-args: --port 8001/);
    expect(parseRunOptions({ model: 'm', 'max-mode': 'serve', 'max-args': '--port 8002' }).maxArgs).toEqual(['--port', '8002']);
  });

  it('refuses profilers that do not fit the engine', () => {
    expect(errorOf(() => parseRunOptions({ model: 'm', profiler: 'torch' }, 'cli'))).toMatch(/^--profiler: torch reads Kineto traces/);
    expect(errorOf(() => parseRunOptions({ engine: 'command', run: 'x', profiler: 'max' }, 'cli'))).toMatch(/^--profiler: max is the profiler of max generate/);
    expect(errorOf(() => parseRunOptions({ engine: 'command', run: 'x', profiler: 'torch' }, 'cli'))).toMatch(/^--captures: required with profiler torch/);
  });

  it('tells which given options do not apply, and keeps model as a label for commands', () => {
    const command = parseRunOptions({ engine: 'command', run: 'x', model: 'label', prompt: 'hi', 'max-args': '--a' });
    expect(command.model).toBe('label');
    expect(command.ignored).toEqual(['max-args', 'prompt']);
    const serve = parseRunOptions({ model: 'm', 'max-mode': 'serve', prompt: 'hi' });
    expect(serve.ignored).toEqual(['prompt']);
    expect(serve.prompt).toBeUndefined();
    const generate = parseRunOptions({ model: 'm', run: 'x', 'benchmark-args': '--num-prompts 5' });
    expect(generate.ignored).toEqual(['run', 'benchmark-args']);
  });
});

describe('shell words', () => {
  it('round-trips argv through formatCommand', () => {
    const argv = ['max', 'generate', '--prompt', "it's a test", '--x', '', 'a"b', '$HOME', 'plain/path.txt'];
    expect(splitShellWords(formatCommand(argv))).toEqual(argv);
    expect(formatCommand(['a b', 'c'])).toBe(`'a b' c`);
  });

  it('handles backslashes and escapes in double quotes', () => {
    expect(splitShellWords('a\\ b "c \\"d\\"" \'e\\f\'')).toEqual(['a b', 'c "d"', 'e\\f']);
  });

  it('finds flag values in both spellings, the last one winning', () => {
    expect(flagValue(['--port', '8000', '--port=9000'], '--port')).toBe('9000');
    expect(flagValue(['--portx', '1'], '--port')).toBeUndefined();
    expect(hasFlag(['--profile-output=x'], '--profile')).toBe(false);
    expect(hasFlag(['--profile'], '--profile')).toBe(true);
  });
});
