/**
 * The custom-architecture pre-flight: python/preflight_custom_arch.py run for real against module
 * trees written here, including a fake `max` package (a stand-in exposing only what the checker
 * reads), and the mapping of its JSON to messages with fixes.
 */
import { execFile } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parsePreflightOutput, preflightMessages, type PreflightReport } from '../../src/runner/preflight.js';
import { PYTHON, REPO, tempDir } from './stand-ins.js';

const SCRIPT = join(REPO, 'python', 'preflight_custom_arch.py');

function write(path: string, text: string): void {
  mkdirSync(join(path, '..'), { recursive: true });
  writeFileSync(path, text);
}

function runChecker(args: string[], env: Record<string, string>, cwd: string): Promise<{ code: number; report: PreflightReport; stdout: string }> {
  return new Promise((resolve, reject) => {
    execFile(PYTHON, [SCRIPT, ...args], { cwd, env: { PATH: process.env.PATH ?? '', HOME: cwd, ...env } }, (error, stdout) => {
      const report = parsePreflightOutput(stdout);
      if (!report) return reject(new Error(`no JSON from the checker: ${stdout} ${error?.message ?? ''}`));
      resolve({ code: error ? Number((error as { code?: number }).code ?? 1) : 0, report, stdout });
    });
  });
}

const check = (report: PreflightReport, id: string) => report.checks.filter((c) => c.id === id);

describe('preflight_custom_arch.py', () => {
  const root = tempDir('preflight');
  // A fake MAX: just enough surface for the checker (its built-in architecture list and task enum).
  const fakeMax = join(root, 'fake-site');
  write(join(fakeMax, 'max', '__init__.py'), '');
  write(join(fakeMax, 'max', 'pipelines', '__init__.py'), '');
  write(
    join(fakeMax, 'max', 'pipelines', 'architectures', '__init__.py'),
    'class _Arch:\n    def __init__(self, name, task="TEXT_GENERATION"):\n        self.name, self.task = name, task\narchitectures = [_Arch("LlamaForCausalLM"), _Arch("Qwen2ForCausalLM")]\n',
  );
  const arch = (name: string, task = 'PipelineTask.TEXT_GENERATION') => `class A:\n    name = ${JSON.stringify(name)}\n    task = ${JSON.stringify(task)}\n`;
  // The user's modules.
  write(join(root, 'work', 'archs', 'good_arch', '__init__.py'), `${arch('MyLlamaForCausalLM')}ARCHITECTURES = [A()]\nprint("imported good_arch")\n`);
  write(join(root, 'work', 'archs', 'no_list', '__init__.py'), `${arch('X')}\n`);
  write(join(root, 'work', 'archs', 'clash', '__init__.py'), `${arch('LlamaForCausalLM')}ARCHITECTURES = [A()]\n`);
  write(join(root, 'work', 'archs', 'embed', '__init__.py'), `${arch('MyBertModel', 'PipelineTask.EMBEDDINGS_GENERATION')}ARCHITECTURES = [A()]\n`);
  // Named like a module Python already has: MAX appends the parent to sys.path, so the other one wins.
  write(join(root, 'work', 'archs', 'json', '__init__.py'), `${arch('J')}ARCHITECTURES = [A()]\n`);
  write(join(root, 'work', 'archs', 'drift', '__init__.py'), 'from max.pipelines.lib import SupportedArchitecture\nARCHITECTURES = []\n');
  // The PYTHONPATH trap: a file inside the package named like the package.
  write(join(root, 'work', 'archs', 'trap', '__init__.py'), `${arch('TrapArch')}ARCHITECTURES = [A()]\n`);
  write(join(root, 'work', 'archs', 'trap', 'trap.py'), 'VALUE = 1\n');
  // A local model folder whose tokenizer has no chat template.
  write(join(root, 'work', 'base-model', 'tokenizer_config.json'), JSON.stringify({ model_max_length: 2048 }));
  const cwd = join(root, 'work');

  it('reports "max not importable" cleanly when there is no MAX, and still checks what needs no MAX', async () => {
    const { code, report } = await runChecker(['--spec', 'archs/good_arch', '--spec', 'archs/missing', '--spec', 'a:b:c', '--model', 'org/model'], {}, cwd);
    expect(code).toBe(0);
    expect(report.max).toEqual({ importable: false, error: "ModuleNotFoundError: No module named 'max'" });
    expect(check(report, 'max-not-importable')).toEqual([{ id: 'max-not-importable', status: 'skip', detail: "ModuleNotFoundError: No module named 'max'" }]);
    expect(check(report, 'import')).toEqual([]);
    expect(check(report, 'spec-path')[0]).toMatchObject({ status: 'fail', spec: 'archs/missing' });
    expect(check(report, 'spec-form')[0]).toMatchObject({ status: 'fail', detail: 'Custom module spec contains too many colons' });
    expect(check(report, 'chat-template')[0]).toMatchObject({ status: 'skip' });
    const messages = preflightMessages(report, { mode: 'generate' });
    expect(messages.map((m) => [m.severity, m.check])).toEqual([
      ['warning', 'max-not-importable'],
      ['error', 'spec-path'],
      ['error', 'spec-form'],
    ]);
  });

  it('imports modules the way MAX does and finds each failure mode', async () => {
    const specs = ['archs/good_arch', 'archs/no_list', 'archs/clash', 'archs/embed', 'archs/drift', 'archs/trap', 'archs/json'].flatMap((s) => ['--spec', s]);
    const { report, stdout } = await runChecker([...specs, '--mode', 'serve', '--model', join(cwd, 'base-model')], { PYTHONPATH: `${fakeMax}:${join(cwd, 'archs', 'trap')}` }, cwd);
    expect(report.max).toMatchObject({ importable: true });
    // good_arch prints on import; only the JSON reaches stdout.
    expect(stdout.trim().split('\n')).toHaveLength(1);
    expect(check(report, 'shadowed')).toEqual([{ id: 'shadowed', status: 'fail', spec: 'archs/json', module: 'json', file: expect.stringMatching(/\/json\/__init__\.py$/), expected: join(cwd, 'archs', 'json') }]);
    expect(check(report, 'shadowed')[0]!.file).not.toContain(cwd);
    expect(check(report, 'import').map((c) => [c.spec, c.status, c.kind ?? null])).toEqual([
      ['archs/good_arch', 'ok', null],
      ['archs/no_list', 'ok', null],
      ['archs/clash', 'ok', null],
      ['archs/embed', 'ok', null],
      ['archs/drift', 'fail', 'import-drift'],
    ]);
    // The fake MAX has no max.pipelines.lib: the module was written for another MAX (import drift).
    expect(check(report, 'import')[4]!.error).toBe("ModuleNotFoundError: No module named 'max.pipelines.lib'");
    expect(check(report, 'architectures-list').map((c) => [c.spec, c.status])).toEqual([
      ['archs/good_arch', 'ok'],
      ['archs/no_list', 'fail'],
      ['archs/clash', 'ok'],
      ['archs/embed', 'ok'],
    ]);
    expect(check(report, 'name-collision').filter((c) => c.status === 'warn')).toEqual([{ id: 'name-collision', status: 'warn', spec: 'archs/clash', names: ['LlamaForCausalLM'] }]);
    expect(check(report, 'embeddings-serve')).toEqual([{ id: 'embeddings-serve', status: 'warn', spec: 'archs/embed', names: ['MyBertModel'] }]);
    expect(check(report, 'pythonpath-trap')).toEqual([{ id: 'pythonpath-trap', status: 'fail', spec: 'archs/trap', module: 'trap', entry: join(cwd, 'archs', 'trap') }]);
    expect(check(report, 'chat-template')[0]).toMatchObject({ status: 'warn', detail: join(cwd, 'base-model', 'tokenizer_config.json') });

    const messages = preflightMessages(report, { mode: 'serve', maxVersion: '26.4.0' });
    const byCheck = Object.fromEntries(messages.map((m) => [m.check, m]));
    expect(messages.map((m) => m.check).sort()).toEqual(['architectures-list', 'chat-template', 'embeddings-serve', 'import', 'name-collision', 'pythonpath-trap', 'shadowed'].sort());
    expect(byCheck['shadowed']!.fix).toBe('rename the package, or remove the other json from sys.path (PYTHONPATH, the working directory, an installed package of that name)');
    expect(byCheck['pythonpath-trap']).toMatchObject({ severity: 'error', fix: `remove ${join(cwd, 'archs', 'trap')} from PYTHONPATH; MAX adds its parent directory itself` });
    expect(byCheck['architectures-list']!.message).toContain('Custom model imported, but did not expose an `ARCHITECTURES` list.');
    expect(byCheck['name-collision']).toMatchObject({ severity: 'warning' });
    expect(byCheck['embeddings-serve']).toMatchObject({ severity: 'error', fix: 'use MAX 26.5 or newer for max serve, or measure the model with max-mode generate / the Python API' });
    expect(byCheck['chat-template']).toMatchObject({ severity: 'error' });
    expect(byCheck['chat-template']!.fix).toContain('--chat-template');
    expect(byCheck['import']!.message).toContain('does not import against MAX 26.4.0');
  });

  it('the version decides: embeddings under serve only warn on 26.5, and generate on 26.5 needs no chat template', () => {
    const report: PreflightReport = {
      checks: [
        { id: 'embeddings-serve', status: 'warn', spec: 'e', names: ['M'] },
        { id: 'chat-template', status: 'warn', detail: 'x' },
      ],
    };
    expect(preflightMessages(report, { mode: 'serve', maxVersion: '26.5.0' }).map((m) => m.severity)).toEqual(['warning', 'error']);
    expect(preflightMessages(report, { mode: 'generate', maxVersion: '26.5.0' }).map((m) => m.check)).toEqual(['embeddings-serve']);
    expect(preflightMessages(report, { mode: 'generate', maxVersion: '26.3.0' }).map((m) => [m.check, m.severity])).toEqual([
      ['embeddings-serve', 'error'],
      ['chat-template', 'warning'],
    ]);
  });

  it('takes the last JSON line of the output, and nothing from garbage', () => {
    expect(parsePreflightOutput('noise\n{"checks": []}\n')).toEqual({ checks: [] });
    expect(parsePreflightOutput('{"not": "a report"}')).toBeUndefined();
    expect(parsePreflightOutput('')).toBeUndefined();
  });
});
