/**
 * python/gpu_snapshot.py, run for real with a stand-in `nvidia-smi` on PATH
 * (__tests__/fixtures/gpu-snapshot/fake-nvidia-smi.sh: a shell script printing fixed values, no GPU),
 * and with stand-in pynvml / max.profiler.gpu modules on PYTHONPATH (gpu-snapshot/stand-ins/), then
 * read back with the gpu-snapshot-jsonl importer.
 */
import { spawn, spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import gpuSnapshotJsonl from '../../src/ingest/formats/gpu-snapshot-jsonl.js';
import { runImporter } from '../../src/ingest/common/importer.js';
import { inputFromText, openInput } from '../../src/ingest/common/input-file.js';
import { OWN_FIXTURES, REPO_ROOT } from '../ingest/sniff-sweep.js';

const SCRIPT = join(REPO_ROOT, 'python/gpu_snapshot.py');
/** An absolute interpreter path, so tests can run the script with a PATH that lacks tools. */
const PYTHON = spawnSync('python3', ['-c', 'import sys; print(sys.executable)'], { encoding: 'utf8' }).stdout.trim();
/** Stand-in pynvml and max.profiler.gpu modules (fixed readings, no GPU). */
const STAND_INS = join(OWN_FIXTURES, 'gpu-snapshot/stand-ins');
let work: string;
let fakeBin: string;

beforeAll(() => {
  work = mkdtempSync(join(tmpdir(), 'gpu-snapshot-'));
  fakeBin = join(work, 'bin');
  mkdirSync(fakeBin);
  mkdirSync(join(work, 'empty'));
  copyFileSync(join(OWN_FIXTURES, 'gpu-snapshot/fake-nvidia-smi.sh'), join(fakeBin, 'nvidia-smi'));
  spawnSync('chmod', ['+x', join(fakeBin, 'nvidia-smi')]);
});
afterAll(() => rmSync(work, { recursive: true, force: true }));

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

function snapshot(args: string[], options: { path?: string; pythonPath?: string; env?: Record<string, string>; onStart?: (pid: number) => void; onStdout?: (soFar: string) => void } = {}): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(PYTHON, [SCRIPT, ...args], {
      env: {
        ...process.env,
        PYTHONDONTWRITEBYTECODE: '1', // no __pycache__ left beside the stand-in modules
        PATH: options.path ?? `${fakeBin}:${process.env['PATH']}`,
        ...(options.pythonPath ? { PYTHONPATH: options.pythonPath } : {}),
        ...options.env,
      },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      options.onStdout?.(stdout);
    });
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    options.onStart?.(child.pid!);
  });
}

const records = (text: string) => text.trim().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>);

describe('gpu_snapshot.py with the nvidia-smi stand-in', () => {
  it('records while --run runs, exits with its code, and its output imports', async () => {
    const out = join(work, 'run.jsonl');
    const run = await snapshot([
      '--backend', 'nvidia-smi', '--interval', '0.05', '--out', out,
      '--run', 'python3', '-c', 'import time, sys; time.sleep(0.5); sys.exit(3)',
    ]);
    expect(run.code).toBe(3);
    const lines = records(readFileSync(out, 'utf8'));
    expect(lines[0]).toMatchObject({
      kind: 'gpu-snapshot', version: 2, backend: 'nvidia-smi', interval_s: 0.05, processes: true, gpu_free_before: false,
      command: ['python3', '-c', 'import time, sys; time.sleep(0.5); sys.exit(3)'],
      devices: [{ index: 0, name: 'NVIDIA H200' }, { index: 1, name: 'NVIDIA H200' }], driver: '580.159.04',
    });
    const samples = lines.filter((l) => l['kind'] === 'sample');
    const end = lines[lines.length - 1]!;
    expect(end).toMatchObject({ kind: 'end', exit_code: 3, samples: samples.length });
    // 0.5 s at 50 ms: several samples per GPU even on a slow machine.
    expect(samples.filter((s) => s['device'] === 0).length).toBeGreaterThanOrEqual(2);
    expect(samples.filter((s) => s['device'] === 1).length).toBeGreaterThanOrEqual(2);
    // The stand-in's mask 0x4 is a hardware reason; 0x1 (idle) is not.
    expect(samples.find((s) => s['device'] === 0)).toMatchObject({ gpu_util: 37, reasons: ['sw_power_cap'], hw_throttle: ['sw_power_cap'], mem_used_bytes: 2048 * 1048576 });
    expect(samples.find((s) => s['device'] === 1)).toMatchObject({ gpu_util: 0, reasons: ['gpu_idle'], hw_throttle: [] });

    const capture = await runImporter(gpuSnapshotJsonl, await openInput(out));
    expect(capture.utilization).toHaveLength(samples.length);
    expect(capture.utilization.find((s) => s.device === 0)).toMatchObject({ gpuPercent: 37, memoryPercent: 12, smClockMhz: 1755, powerW: 412.25 });
    expect(capture.notices.map((n) => n.code)).toEqual(['command-failed']);
    // Sample times are the stand-in's local-time stamps, read back as epoch seconds near now.
    const started = lines[0]!['started_at'] as number;
    for (const sample of capture.utilization) expect(Math.abs(sample.t! - started)).toBeLessThan(30);
    expect(run.stderr).toMatch(/device 0: \d+ samples, mean 37\.0%/);
  });

  it('keeps samples on stdout apart from the command output, and honours --devices', async () => {
    // The command runs until a sample has reached stdout (or 60 s), not for a fixed time: on a busy
    // machine the stand-in nvidia-smi's first line can take longer than any short sleep.
    const sampled = join(work, 'sampled');
    const run = await snapshot(
      ['--backend', 'nvidia-smi', '--interval', '0.05', '--devices', '1', '--run', `sh -c "echo from-the-command; i=0; while [ ! -e ${sampled} ] && [ $i -lt 1200 ]; do sleep 0.05; i=$((i+1)); done"`],
      { onStdout: (soFar) => soFar.includes('"kind":"sample"') && !existsSync(sampled) && writeFileSync(sampled, '') },
    );
    expect(run.code).toBe(0);
    // The command line is in the header record; its printed line must not be on stdout.
    expect(run.stdout.split('\n')).not.toContain('from-the-command');
    expect(run.stderr.split('\n')).toContain('from-the-command');
    const capture = await runImporter(gpuSnapshotJsonl, inputFromText('stdout.jsonl', run.stdout));
    expect(capture.utilization.length).toBeGreaterThan(0);
    expect(new Set(capture.utilization.map((s) => s.device))).toEqual(new Set([1]));
    expect(capture.notices).toEqual([]);
  });

  it('forwards SIGTERM to the command group and exits with the command code', async () => {
    const out = join(work, 'term.jsonl');
    const ready = join(work, 'command-ready');
    let recorder = 0;
    // The command exits 7 on SIGTERM; without forwarding, it would sleep 30 s and the test time out.
    const running = snapshot(
      ['--backend', 'nvidia-smi', '--interval', '0.05', '--out', out, '--run', 'sh', '-c', `trap "exit 7" TERM; touch ${ready}; sleep 30 & wait`],
      { onStart: (pid) => (recorder = pid) },
    );
    // Wait until the command has set its trap and sampling is under way, then stop the recorder
    // as a CI job timeout would.
    for (let i = 0; i < 200; i += 1) {
      await new Promise((r) => setTimeout(r, 50));
      if (existsSync(ready) && existsSync(out) && readFileSync(out, 'utf8').includes('"kind":"sample"')) break;
    }
    process.kill(recorder, 'SIGTERM');
    const run = await running;
    expect(run.code).toBe(7);
    const lines = records(readFileSync(out, 'utf8'));
    expect(lines[lines.length - 1]).toMatchObject({ kind: 'end', exit_code: 7 });
  });

  it('records for --duration without a command and exits 0', async () => {
    const started = Date.now();
    // The in-process NVML stand-in samples as soon as the sampler starts; a stand-in nvidia-smi
    // (a shell script) can take longer than the whole 0.3 s to print its first line on a busy machine.
    const run = await snapshot(['--backend', 'nvml', '--interval', '0.05', '--duration', '0.3'], { pythonPath: STAND_INS });
    expect(run.code).toBe(0);
    expect(Date.now() - started).toBeLessThan(10000);
    const lines = records(run.stdout);
    expect(lines[0]!['command']).toBeNull();
    expect(lines[lines.length - 1]).toMatchObject({ kind: 'end', exit_code: null });
    const capture = await runImporter(gpuSnapshotJsonl, inputFromText('stdout.jsonl', run.stdout));
    expect(capture.utilization.length).toBeGreaterThan(0);
  });

  it('picks nvidia-smi on auto when neither max nor pynvml is importable here', async () => {
    const probe = spawnSync(PYTHON, ['-c', 'import importlib.util as u, sys; sys.exit(0 if (u.find_spec("pynvml") or u.find_spec("max")) else 1)']);
    if (probe.status === 0) return; // a GPU machine with pynvml/max: auto rightly picks those
    const run = await snapshot(['--interval', '0.05', '--duration', '0.2']);
    expect(records(run.stdout)[0]).toMatchObject({ backend: 'nvidia-smi' });
  });

  it('reads NVML through pynvml (stand-in module, pre-rename reasons call): mW → W, mask → names', async () => {
    const run = await snapshot(['--backend', 'nvml', '--interval', '0.05', '--duration', '0.2'], { pythonPath: STAND_INS });
    expect(run.code).toBe(0);
    const lines = records(run.stdout);
    expect(lines[0]).toMatchObject({ backend: 'nvml', vendor: 'nvidia', devices: [{ index: 0, name: 'NVIDIA H200' }], driver: '580.159.04' });
    // The stand-in reports 122990 mW and mask 0x41 = gpu_idle | hw_thermal_slowdown.
    expect(lines[1]).toMatchObject({
      kind: 'sample', device: 0, gpu_util: 55, mem_util: 20, sm_clock_mhz: 1980, power_w: 122.99,
      mem_used_bytes: 3145596928, reasons: ['gpu_idle', 'hw_thermal_slowdown'], hw_throttle: ['hw_thermal_slowdown'],
    });
  });

  it('tells the command\'s GPU processes from others\' (NVML stand-in): by session, by pid namespace, by listed before', async () => {
    // A "GPU user" outside the command (this test's child, not in the command's session), and a host
    // pid this namespace cannot see (above any pid_max), listed before the command starts.
    const mark = `gpu-user-${process.pid}`;
    const outside = spawn(PYTHON, ['-c', `import time; time.sleep(20)  # ${mark}`]);
    try {
      const env = { STAND_IN_NVML_MARK: mark, STAND_IN_NVML_HOST_PIDS: '4194999:2147483648' };
      const command = ['--run', PYTHON, '-c', `import time; time.sleep(0.6)  # ${mark}`];
      const run = await snapshot(['--backend', 'nvml', '--interval', '0.05', '--gpu-free-before', ...command], { pythonPath: STAND_INS, env });
      expect(run.code).toBe(0);
      const lines = records(run.stdout);
      expect(lines[0]).toMatchObject({ version: 2, processes: true, gpu_free_before: true });
      const samples = lines.filter((l) => l['kind'] === 'sample');
      // Once the command is listed (its own session), it counts as own, never among the others.
      const withCommand = samples.filter((s) => s['own'] === 1);
      expect(withCommand.length).toBeGreaterThanOrEqual(2);
      for (const sample of withCommand) {
        expect(sample['command_on_gpu']).toBe(true);
        expect(sample['others']).toEqual([
          { pid: outside.pid, owner: 'other', by: 'proc', sm_util: 40, mem_used_bytes: 1073741824 },
          { pid: 4194999, owner: 'other', by: 'before', sm_util: 40, mem_used_bytes: 2147483648 },
        ]);
      }
      // Without --gpu-free-before the unseen pid cannot be placed, and nothing says when the command reached the GPU.
      const unsure = records((await snapshot(['--backend', 'nvml', '--interval', '0.05', ...command], { pythonPath: STAND_INS, env })).stdout);
      const last = unsure.filter((l) => l['kind'] === 'sample').at(-1)!;
      expect(last['command_on_gpu']).toBeNull();
      expect(last['others']).toContainEqual({ pid: 4194999, owner: 'unknown', by: null, sm_util: 40, mem_used_bytes: 2147483648 });

      const capture = await runImporter(gpuSnapshotJsonl, inputFromText('nvml.jsonl', run.stdout));
      expect(capture.gpuProcesses!.neighbours.map((n) => [n.pid, n.evidence, n.maxSmPercent])).toEqual([
        [outside.pid, 'process', 40],
        [4194999, 'listed-before', 40],
      ]);
    } finally {
      outside.kill();
    }
  });

  it('--job-parent: a process the job started beside the command (a server) is the job\'s own; without it, another\'s', async () => {
    const mark = `gpu-server-${process.pid}`;
    // A shell starts the "server" on the GPU, then the sampler: both are the shell's children.
    const job = (flag: string) =>
      new Promise<string>((resolve, reject) => {
        const shell = spawn('bash', ['-c', `${PYTHON} -c 'import time; time.sleep(20)  # ${mark}' & server=$!; sleep 0.3; ${PYTHON} ${SCRIPT} --backend nvml --interval 0.05 ${flag} --run ${PYTHON} -c 'import time; time.sleep(0.4)'; kill $server`], {
          env: { ...process.env, PYTHONDONTWRITEBYTECODE: '1', PYTHONPATH: STAND_INS, STAND_IN_NVML_MARK: mark },
        });
        let out = '';
        shell.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
        shell.on('error', reject);
        shell.on('close', () => resolve(out));
      });
    const samplesOf = (text: string) => records(text).filter((l) => l['kind'] === 'sample');
    const own = samplesOf(await job('--job-parent'));
    expect(own.length).toBeGreaterThanOrEqual(2);
    for (const sample of own) expect(sample).toMatchObject({ own: 1, others: [] });
    const other = samplesOf(await job(''));
    expect(other.length).toBeGreaterThanOrEqual(2);
    for (const sample of other) expect(sample).toMatchObject({ own: 0, others: [{ owner: 'other', by: 'proc', sm_util: 40 }] });
  });

  it('lists compute apps through nvidia-smi: a host pid listed before the command is another\'s, with its memory and no SM reading', async () => {
    const out = join(work, 'apps.jsonl');
    const run = await snapshot(['--backend', 'nvidia-smi', '--interval', '0.05', '--devices', '0', '--gpu-free-before', '--out', out, '--run', 'python3', '-c', 'import time; time.sleep(0.4)'], {
      env: { FAKE_SMI_APPS: '00000000:18:00.0, 4194999, 2048;00000000:2A:00.0, 4194998, 512' },
    });
    expect(run.code).toBe(0);
    const samples = records(readFileSync(out, 'utf8')).filter((l) => l['kind'] === 'sample');
    expect(samples.length).toBeGreaterThanOrEqual(2);
    // GPU 1's process (bus 2A) is not on the recorded GPU 0.
    for (const sample of samples) expect(sample).toMatchObject({ own: 0, others: [{ pid: 4194999, owner: 'other', by: 'before', sm_util: null, mem_used_bytes: 2048 * 1048576 }], command_on_gpu: false });
  });

  it('prefers max.profiler.gpu on auto (stand-in module) and keeps its reason names', async () => {
    const run = await snapshot(['--interval', '0.05', '--duration', '0.2'], { pythonPath: STAND_INS });
    const capture = await runImporter(gpuSnapshotJsonl, inputFromText('stdout.jsonl', run.stdout));
    expect(capture.source.parts).toEqual(['gpu-snapshot', 'max']);
    expect(capture.environment).toMatchObject({ vendor: 'nvidia', gpuCount: 2 });
    expect(capture.utilization.find((s) => s.device === 0)).toMatchObject({ gpuPercent: 91, smClockMhz: 1755, memoryUsedBytes: 537919488, reasons: ['sw_power_cap'] });
    expect(capture.utilization.find((s) => s.device === 1)).toMatchObject({ gpuPercent: 0, reasons: ['gpu_idle'] });
    expect(capture.utilization.find((s) => s.device === 0)).not.toHaveProperty('powerW');
  });

  it('max.profiler.gpu lists no processes: NVML lists them beside it, for the GPUs NVML knows', async () => {
    const run = await snapshot(['--interval', '0.05', '--duration', '0.2', '--gpu-free-before'], { pythonPath: STAND_INS, env: { STAND_IN_NVML_HOST_PIDS: '4194999:1024' } });
    const lines = records(run.stdout);
    expect(lines[0]).toMatchObject({ backend: 'max', processes: true, gpu_free_before: true });
    const samples = lines.filter((l) => l['kind'] === 'sample');
    // Nothing was started (no --run): the listed pid was there before, so it is another's.
    expect(samples.find((s) => s['device'] === 0)).toMatchObject({ own: 0, others: [{ pid: 4194999, owner: 'other', by: 'before', sm_util: 40, mem_used_bytes: 1024 }], command_on_gpu: false });
    // The stand-in NVML has one GPU: the max backend's second has no listing.
    expect(samples.find((s) => s['device'] === 1)).toMatchObject({ own: null, others: null, command_on_gpu: null });
  });

  it('fails with exit code 2 and says why when no backend is available', async () => {
    const run = await snapshot(['--backend', 'nvidia-smi', '--duration', '0.2'], { path: join(work, 'empty') });
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toMatch(/no GPU sampling backend is available \(nvidia-smi: /);
  });

  it('rejects bad arguments with exit code 2', async () => {
    expect((await snapshot(['--interval', '0'])).code).toBe(2);
    expect((await snapshot(['--devices', 'a,b'])).code).toBe(2);
    expect((await snapshot(['--run'])).code).toBe(2);
  });
});
