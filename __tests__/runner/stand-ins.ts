/**
 * Test scaffolding for the run engine: a box made of stand-ins. The stand-in `max` and the stand-in
 * nsys / ncu / gpu_snapshot.py (in __tests__/helpers/stand-in-max) replay recorded real-format output;
 * the probe answers nvidia-smi like an H200 box. Nothing here measures a GPU.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, symlinkSync, mkdirSync, readFileSync, readdirSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createSystemProbe, type Probe } from '../../src/runner/detect.js';

export const REPO = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const STAND_IN_DIR = join(REPO, '__tests__', 'helpers', 'stand-in-max');
export const STAND_IN_MAX = join(STAND_IN_DIR, 'max');
export const STAND_IN_TOOLS = join(STAND_IN_DIR, 'stand_in_nvidia_tools.py');
export const RECORDED_NSYS_STATS = join(STAND_IN_DIR, 'recorded', 'nsys_healthy_kern_sum.csv');
export const RECORDED_NCU_CSV = join(STAND_IN_DIR, 'recorded', 'llama_decode_ncu_details.csv');
export const TINY_WORKLOAD = join(REPO, 'python', 'workloads', 'tiny_command_workload.py');

/** The interpreter itself (python3 may be a slow shim). */
export const PYTHON = execFileSync('python3', ['-c', 'import sys; print(sys.executable)'], { encoding: 'utf8' }).trim();

export function tempDir(prefix: string): string {
  return mkdtempSync(join(tmpdir(), `pg-${prefix}-`));
}

/** A folder with links named nsys and ncu to the stand-in tools. */
export function standInToolsDir(): { dir: string; nsys: string; ncu: string } {
  const dir = tempDir('tools');
  symlinkSync(STAND_IN_TOOLS, join(dir, 'nsys'));
  symlinkSync(STAND_IN_TOOLS, join(dir, 'ncu'));
  return { dir, nsys: join(dir, 'nsys'), ncu: join(dir, 'ncu') };
}

/**
 * A python folder whose gpu_snapshot.py is the stand-in, next to the real pre-flight checker.
 * Without the snapshot the plan samples nothing (one process less per run, for quicker tests).
 */
export function standInPythonDir(options: { snapshot?: boolean } = {}): string {
  const dir = tempDir('python');
  if (options.snapshot ?? true) symlinkSync(STAND_IN_TOOLS, join(dir, 'gpu_snapshot.py'));
  symlinkSync(join(REPO, 'python', 'preflight_custom_arch.py'), join(dir, 'preflight_custom_arch.py'));
  return dir;
}

export interface StandInBox {
  vendor: 'nvidia' | 'none';
  nsys?: string;
  ncu?: string;
}

/**
 * The system probe (so `max --version` really runs the stand-in on PATH), except that nvidia-smi
 * answers like one H200 and the Nsight tools are the stand-ins given.
 */
export function standInProbe(box: StandInBox): Probe {
  const system = createSystemProbe();
  return {
    async run(command, args, timeoutMs) {
      if (command === 'nvidia-smi') {
        if (box.vendor !== 'nvidia') return null;
        return args.length ? { code: 0, stdout: 'NVIDIA H200, 580.159.04\n', stderr: '' } : { code: 0, stdout: '| NVIDIA-SMI 580.159.04   Driver Version: 580.159.04   CUDA Version: 13.0 |\n', stderr: '' };
      }
      if (command === 'rocm-smi') return null;
      return system.run(command, args, timeoutMs);
    },
    async which(name) {
      if (name === 'nsys') return box.nsys ?? null;
      if (name === 'ncu') return box.ncu ?? null;
      if (name === 'rocprofv3') return null;
      return system.which(name);
    },
    glob: async () => [],
    readText: system.readText,
  };
}

/**
 * Put the stand-in `max` first on PATH for the duration of a test file, with `python3` linked to
 * the interpreter itself (a version-manager shim costs half a second per start).
 */
export function useStandInMaxOnPath(): () => void {
  const before = process.env.PATH;
  const fastPython = tempDir('python3');
  symlinkSync(PYTHON, join(fastPython, 'python3'));
  process.env.PATH = `${STAND_IN_DIR}:${fastPython}:${before ?? ''}`;
  return () => {
    process.env.PATH = before;
  };
}

/** Live (not zombie) processes in a process group, read from /proc. */
export function liveInGroup(pgid: number): number[] {
  const live: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (Number(fields[2]) === pgid && fields[0] !== 'Z' && fields[0] !== 'X') live.push(Number(entry));
    } catch {
      // gone
    }
  }
  return live;
}

export function isAlive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const state = stat.slice(stat.lastIndexOf(')') + 2).split(' ')[0];
    return state !== 'Z' && state !== 'X';
  } catch {
    return false;
  }
}

export async function waitFor(check: () => boolean, timeoutMs: number): Promise<boolean> {
  const end = Date.now() + timeoutMs;
  while (Date.now() < end) {
    if (check()) return true;
    await new Promise((r) => setTimeout(r, 25));
  }
  return check();
}

export function readJson<T>(path: string): T {
  return JSON.parse(readFileSync(path, 'utf8')) as T;
}

export function ensureDir(path: string): string {
  if (!existsSync(path)) mkdirSync(path, { recursive: true });
  return path;
}
