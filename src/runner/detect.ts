/**
 * What the box has: GPU vendor, name, driver, CUDA/ROCm, the MAX version and which profilers exist.
 * All probing goes through `Probe` (short commands, small outputs), so tests can inject a box; the
 * parsers are pure. Nothing here fails: what is missing is recorded and the plan decides.
 */
import { execFile } from 'node:child_process';
import { access, open, readdir } from 'node:fs/promises';
import { constants } from 'node:fs';
import { delimiter, join } from 'node:path';
import type { Environment } from '../model/capture.js';
import { compareNatural } from '../model/text-order.js';

export interface ProbeResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

export interface Probe {
  /** Run a short command; null when it cannot be started. */
  run(command: string, args: readonly string[], timeoutMs?: number): Promise<ProbeResult | null>;
  /** The executable's path on PATH, or null. */
  which(name: string): Promise<string | null>;
  /** Paths matching a pattern whose `*` stand for one directory name each. */
  glob(pattern: string): Promise<string[]>;
  readText(path: string): Promise<string | null>;
}

export interface DetectedTools {
  max?: string;
  nsys?: string;
  ncu?: string;
  rocprofv3?: string;
  /** The python that runs `max` (from its #! line), else python3: runs the preflight checker. */
  python: string;
}

export interface DetectedEnvironment {
  vendor: 'nvidia' | 'amd' | null;
  gpus: string[];
  driver?: string;
  cuda?: string;
  rocm?: string;
  maxVersion?: string;
  tools: DetectedTools;
  /** Where detection fell short, in words (shown with the plan). */
  notes: string[];
}

/** Where Nsight tools live when they are installed but not on PATH (newest version wins). */
export const KNOWN_NSYS_PATHS = [
  '/opt/nvidia/nsight-systems/*/bin/nsys',
  '/opt/nvidia/nsight-compute/*/host/target-linux-x64/nsys',
  '/usr/local/cuda/bin/nsys',
];
export const KNOWN_NCU_PATHS = ['/usr/local/cuda/bin/ncu', '/opt/nvidia/nsight-compute/*/ncu'];
export const KNOWN_ROCPROFV3_PATHS = ['/opt/rocm/bin/rocprofv3'];

/** `nvidia-smi --query-gpu=name,driver_version --format=csv,noheader`: one `name, driver` line per GPU. */
export function parseNvidiaSmiQuery(text: string): { gpus: string[]; driver?: string } {
  const gpus: string[] = [];
  let driver: string | undefined;
  for (const line of text.split(/\r?\n/)) {
    const cells = line.split(',').map((cell) => cell.trim());
    if (cells.length < 2 || !cells[0]) continue;
    gpus.push(cells[0]);
    driver ??= cells[1];
  }
  return { gpus, ...(driver ? { driver } : {}) };
}

/** The banner of plain `nvidia-smi` says `CUDA Version: 13.0`. */
export function parseCudaVersion(text: string): string | undefined {
  return /CUDA Version:\s*([\d.]+)/.exec(text)?.[1];
}

/** `rocm-smi --showproductname --showdriverversion --json`: cards plus a `system` entry. */
export function parseRocmSmi(text: string): { gpus: string[]; driver?: string } {
  let data: unknown;
  try {
    data = JSON.parse(text.slice(text.indexOf('{')));
  } catch {
    return { gpus: [] };
  }
  if (!data || typeof data !== 'object') return { gpus: [] };
  const gpus: string[] = [];
  let driver: string | undefined;
  for (const [key, value] of Object.entries(data as Record<string, Record<string, string>>)) {
    if (!value || typeof value !== 'object') continue;
    const field = (prefix: string) => Object.entries(value).find(([name]) => name.toLowerCase().startsWith(prefix))?.[1];
    if (/^card\d+$/i.test(key)) gpus.push(field('card series') ?? field('card model') ?? field('device name') ?? key);
    driver ??= field('driver version');
  }
  return { gpus, ...(driver ? { driver } : {}) };
}

/** `max --version` prints `MAX <version>`. */
export function parseMaxVersion(text: string): string | undefined {
  return /\bMAX\s+v?(\d+\.\d+[\w.+-]*)/i.exec(text)?.[1];
}

/** True when this MAX has `max generate --profile` (first shipped in 26.4). */
export function maxHasProfileFlag(version: string | undefined): boolean {
  const match = /^(\d+)\.(\d+)/.exec(version ?? '');
  if (!match) return false;
  const [major, minor] = [Number(match[1]), Number(match[2])];
  return major > 26 || (major === 26 && minor >= 4);
}

/** The interpreter named on a script's #! line (`/usr/bin/env python3` gives python3). */
export function interpreterFromShebang(firstLine: string): string | undefined {
  const match = /^#!\s*(\S+)(?:\s+(\S+))?/.exec(firstLine);
  if (!match) return undefined;
  const [, program, argument] = match;
  const interpreter = program!.endsWith('/env') ? argument : program;
  return interpreter && /python/.test(interpreter) ? interpreter : undefined;
}

async function firstExisting(probe: Probe, name: string, patterns: readonly string[]): Promise<string | undefined> {
  const onPath = await probe.which(name);
  if (onPath) return onPath;
  for (const pattern of patterns) {
    const found = (await probe.glob(pattern)).sort(compareVersionedPaths);
    if (found.length) return found[found.length - 1];
  }
  return undefined;
}

/** Order paths so that `2025.10.1` sorts after `2025.3.1`. */
function compareVersionedPaths(a: string, b: string): number {
  return compareNatural(a, b);
}

export async function detectEnvironment(probe: Probe, options: { needMax: boolean }): Promise<DetectedEnvironment> {
  const notes: string[] = [];
  const detected: DetectedEnvironment = { vendor: null, gpus: [], tools: { python: 'python3' }, notes };

  const smi = await probe.run('nvidia-smi', ['--query-gpu=name,driver_version', '--format=csv,noheader']);
  if (smi && smi.code === 0) {
    const parsed = parseNvidiaSmiQuery(smi.stdout);
    if (parsed.gpus.length) {
      detected.vendor = 'nvidia';
      detected.gpus = parsed.gpus;
      if (parsed.driver) detected.driver = parsed.driver;
      const banner = await probe.run('nvidia-smi', []);
      const cuda = banner ? parseCudaVersion(banner.stdout) : undefined;
      if (cuda) detected.cuda = cuda;
    }
  } else if (smi) {
    notes.push(`nvidia-smi exited ${smi.code}: ${(smi.stderr || smi.stdout).trim().split('\n')[0] ?? ''}`);
  }
  if (!detected.vendor) {
    const rocm = await probe.run('rocm-smi', ['--showproductname', '--showdriverversion', '--json']);
    if (rocm && rocm.code === 0) {
      const parsed = parseRocmSmi(rocm.stdout);
      if (parsed.gpus.length) {
        detected.vendor = 'amd';
        detected.gpus = parsed.gpus;
        if (parsed.driver) detected.driver = parsed.driver;
        const version = (await probe.readText('/opt/rocm/.info/version'))?.trim();
        if (version) detected.rocm = version;
      }
    }
  }
  if (!detected.vendor) notes.push('no GPU found (neither nvidia-smi nor rocm-smi listed one)');

  if (detected.vendor === 'nvidia') {
    const nsys = await firstExisting(probe, 'nsys', KNOWN_NSYS_PATHS);
    if (nsys) detected.tools.nsys = nsys;
    const ncu = await firstExisting(probe, 'ncu', KNOWN_NCU_PATHS);
    if (ncu) detected.tools.ncu = ncu;
  }
  if (detected.vendor === 'amd') {
    const rocprofv3 = await firstExisting(probe, 'rocprofv3', KNOWN_ROCPROFV3_PATHS);
    if (rocprofv3) detected.tools.rocprofv3 = rocprofv3;
  }

  if (options.needMax) {
    const max = await probe.which('max');
    if (max) {
      detected.tools.max = max;
      const version = await probe.run(max, ['--version'], 60_000);
      const parsed = version ? parseMaxVersion(`${version.stdout}\n${version.stderr}`) : undefined;
      if (parsed) detected.maxVersion = parsed;
      else notes.push(`max --version printed no "MAX <version>" line`);
      const firstLine = (await probe.readText(max))?.split('\n', 1)[0] ?? '';
      const python = interpreterFromShebang(firstLine);
      if (python) detected.tools.python = python;
    }
  }
  return detected;
}

/** The fingerprint recorded in the report. */
export function environmentFingerprint(detected: DetectedEnvironment, engine: string, model?: string): Environment {
  return {
    ...(detected.gpus.length ? { gpuName: detected.gpus[0], gpuCount: detected.gpus.length } : {}),
    ...(detected.vendor ? { vendor: detected.vendor } : {}),
    ...(detected.driver ? { driver: detected.driver } : {}),
    ...(detected.cuda ? { cuda: detected.cuda } : {}),
    ...(detected.rocm ? { rocm: detected.rocm } : {}),
    engine,
    ...(engine === 'max' && detected.maxVersion ? { engineVersion: detected.maxVersion } : {}),
    ...(model ? { model } : {}),
  };
}

async function isExecutable(path: string): Promise<boolean> {
  try {
    await access(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

async function globSegments(base: string, segments: string[]): Promise<string[]> {
  if (segments.length === 0) return [base];
  const [head, ...rest] = segments;
  if (!head!.includes('*')) return globSegments(join(base, head!), rest);
  const pattern = new RegExp(`^${head!.split('*').map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&')).join('[^/]*')}$`);
  let entries: string[];
  try {
    entries = await readdir(base);
  } catch {
    return [];
  }
  const results: string[] = [];
  for (const entry of entries.filter((name) => pattern.test(name))) results.push(...(await globSegments(join(base, entry), rest)));
  return results;
}

/** The real box: short commands with a time limit and a capped output. */
export function createSystemProbe(): Probe {
  return {
    run: (command, args, timeoutMs = 20_000) =>
      new Promise((resolve) => {
        // The environment given explicitly: the one `which` searched (an embedding host may swap process.env).
        execFile(command, [...args], { env: process.env, timeout: timeoutMs, maxBuffer: 4 * 1024 * 1024, encoding: 'utf8' }, (error, stdout, stderr) => {
          const code = (error as NodeJS.ErrnoException | null)?.code;
          if (code === 'ENOENT' || code === 'EACCES') return resolve(null);
          const exitCode = error ? (typeof (error as { code?: unknown }).code === 'number' ? ((error as { code: number }).code) : null) : 0;
          resolve({ code: exitCode, stdout, stderr });
        });
      }),
    async which(name) {
      for (const dir of (process.env.PATH ?? '').split(delimiter)) {
        if (!dir) continue;
        const candidate = join(dir, name);
        if (await isExecutable(candidate)) return candidate;
      }
      return null;
    },
    async glob(pattern) {
      const found = await globSegments('/', pattern.split('/').filter(Boolean));
      const executable: string[] = [];
      for (const path of found) if (await isExecutable(path)) executable.push(path);
      return executable;
    },
    async readText(path) {
      try {
        const file = await open(path, 'r');
        try {
          const buffer = Buffer.alloc(64 * 1024);
          const { bytesRead } = await file.read(buffer, 0, buffer.length, 0);
          return buffer.subarray(0, bytesRead).toString('utf8');
        } finally {
          await file.close();
        }
      } catch {
        return null;
      }
    },
  };
}
