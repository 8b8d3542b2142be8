/**
 * JSON lines of GPU samples, in two shapes:
 * 1. `python/gpu_snapshot.py` (version 1 or 2): a header `{"kind":"gpu-snapshot","version":2,"backend":…,
 *    "interval_s":…,"command":[…]|null,"devices":[{"index":0,"name":…}],"driver":…,"vendor":…,
 *    "started_at":…,"processes":true|false,"gpu_free_before":true|false}`, then
 *    `{"kind":"sample","t":…,"device":0,"gpu_util":…,"mem_util":…,"sm_clock_mhz":…,"power_w":…,
 *    "mem_used_bytes":…,"reasons":[…],"hw_throttle":[…]}` records, `{"kind":"warning","message":…}`,
 *    and a last `{"kind":"end","exit_code":…,"samples":N}`. Version 2 adds, where the header says
 *    `"processes": true`, each sample's GPU processes: `"own"` (the command's, counted), `"others"`
 *    (`[{"pid","owner":"other"|"unknown","by":"proc"|"before"|null,"sm_util","mem_used_bytes"}]`, null
 *    when the listing failed) and `"command_on_gpu"` (true|false|null); these are read strictly (a
 *    field of the wrong shape is an error naming the line), into the capture's `gpuProcesses`.
 * 2. A plain NVML sampler's lines `{"t":…,"gpu":<util %>,"mem_util":…,"mem_used":<bytes>,
 *    "sm_clock":<MHz>,"power_mw":…,"temp":…,"reasons":<NVML clocks-event bitmask>}` (`device` optional).
 * Both map onto utilization samples; reasons keep gpu_idle (the model filters hardware ones).
 * Limits: a recording without its end record (the recorder was killed) is read and counted as such;
 * a cut-off last line is dropped and counted.
 */
import { InputError } from '../../errors.js';
import type { CaptureInput, GpuNeighbour, GpuProcesses, Notice, UtilSample } from '../../model/capture.js';
import { reasonsFromMask } from '../../model/throttle.js';
import { defineImporter, type ImportContext } from '../common/importer.js';
import { isRecord, numberFrom, percentFrom } from '../common/json-values.js';

type Shape = 'snapshot' | 'nvml';

function shapeOf(record: unknown): Shape | null {
  if (!isRecord(record)) return null;
  if (record['kind'] === 'gpu-snapshot') return 'snapshot';
  const nvml = typeof record['t'] === 'number' && typeof record['gpu'] === 'number';
  return nvml && ['sm_clock', 'power_mw', 'reasons', 'mem_util'].some((key) => key in record) ? 'nvml' : null;
}

interface Line {
  record: Record<string, unknown>;
  line: number;
}

function readLines(path: string, text: string, ctx: ImportContext): Line[] {
  const raw = text.split(/\r?\n/);
  let last = raw.length - 1;
  while (last >= 0 && raw[last]!.trim() === '') last -= 1;
  const lines: Line[] = [];
  for (let i = 0; i <= last; i += 1) {
    const body = raw[i]!.trim();
    if (body === '') continue;
    let record: unknown;
    try {
      record = JSON.parse(body);
    } catch (error) {
      if (i === last && i > 0) {
        ctx.count('truncated-last-line', 'data-loss', `line ${i + 1} is cut off (the writer stopped mid-line)`);
        break;
      }
      throw new InputError(path, `expected one JSON object per line (${(error as Error).message})`, String(i + 1));
    }
    if (!isRecord(record)) throw new InputError(path, 'expected one JSON object per line', String(i + 1));
    lines.push({ record, line: i + 1 });
  }
  return lines;
}

function optional<K extends keyof UtilSample>(sample: UtilSample, key: K, value: UtilSample[K] | undefined): void {
  if (value !== undefined) sample[key] = value;
}

function nvmlSample({ record }: Line, ctx: ImportContext): UtilSample | null {
  const gpuPercent = percentFrom(record['gpu']);
  if (gpuPercent === undefined) {
    ctx.count('sample-without-utilization', 'data-loss', '"gpu" missing or not 0..100');
    return null;
  }
  const sample: UtilSample = { device: numberFrom(record['device'] ?? record['index']) ?? 0, gpuPercent, reasons: [] };
  optional(sample, 't', numberFrom(record['t']));
  optional(sample, 'memoryPercent', percentFrom(record['mem_util']));
  optional(sample, 'smClockMhz', numberFrom(record['sm_clock']));
  const powerMw = numberFrom(record['power_mw']);
  if (powerMw !== undefined) sample.powerW = powerMw / 1000;
  optional(sample, 'memoryUsedBytes', numberFrom(record['mem_used']));
  const mask = record['reasons'];
  if (typeof mask === 'number' && Number.isInteger(mask) && mask >= 0) sample.reasons = reasonsFromMask(mask);
  else if (mask !== undefined && mask !== null) ctx.count('unreadable-reasons', 'data-loss', '"reasons" is not an NVML bitmask integer');
  return sample;
}

function snapshotSample({ record, line }: Line, ctx: ImportContext): UtilSample | null {
  const gpuPercent = percentFrom(record['gpu_util']);
  if (gpuPercent === undefined) {
    ctx.count('sample-without-utilization', 'data-loss', `"gpu_util" missing or not 0..100 (first at line ${line})`);
    return null;
  }
  const device = numberFrom(record['device']);
  const sample: UtilSample = { device: device !== undefined && Number.isInteger(device) ? device : 0, gpuPercent, reasons: [] };
  optional(sample, 't', numberFrom(record['t']));
  optional(sample, 'memoryPercent', percentFrom(record['mem_util']));
  optional(sample, 'smClockMhz', numberFrom(record['sm_clock_mhz']));
  optional(sample, 'powerW', numberFrom(record['power_w']));
  optional(sample, 'memoryUsedBytes', numberFrom(record['mem_used_bytes']));
  const names = (value: unknown): string[] => (Array.isArray(value) ? value.filter((r): r is string => typeof r === 'string') : []);
  sample.reasons = [...new Set([...names(record['reasons']), ...names(record['hw_throttle'])])];
  return sample;
}

/**
 * NVML averages utilization over up to the last second, so a sample taken sooner after the recording
 * started may still hold the end of the job's previous run: busy-before counts only later samples.
 */
export const BUSY_BEFORE_AFTER_SECONDS = 1;

/** One listed process of a version-2 sample, checked field by field. */
interface Other {
  pid: number;
  owner: 'other' | 'unknown';
  by: 'proc' | 'before' | null;
  smUtil: number | null;
  memoryBytes: number | null;
}

function processesOf(path: string, { record, line }: Line): { own: number | null; others: Other[] | null; onGpu: boolean | null } {
  const fail = (what: string): never => {
    throw new InputError(path, `expected ${what} in a gpu-snapshot version 2 sample`, String(line));
  };
  const own = record['own'];
  if (own !== null && !(typeof own === 'number' && Number.isInteger(own) && own >= 0)) fail('"own": a whole number of processes or null');
  const onGpu = record['command_on_gpu'];
  if (onGpu !== null && typeof onGpu !== 'boolean') fail('"command_on_gpu": true, false or null');
  const list = record['others'];
  if (list === null) return { own: own as number | null, others: null, onGpu: onGpu as boolean | null };
  if (!Array.isArray(list)) return fail('"others": a list of processes or null');
  const others = list.map((item): Other => {
    if (!isRecord(item)) return fail('"others": objects {"pid","owner","by","sm_util","mem_used_bytes"}');
    const { pid, owner, by, sm_util: sm, mem_used_bytes: memory } = item;
    if (!(typeof pid === 'number' && Number.isInteger(pid) && pid >= 0)) fail('"others[].pid": a whole number');
    if (owner !== 'other' && owner !== 'unknown') fail('"others[].owner": "other" or "unknown"');
    if (by !== 'proc' && by !== 'before' && by !== null) fail('"others[].by": "proc", "before" or null');
    if (sm !== null && !(typeof sm === 'number' && sm >= 0 && sm <= 100)) fail('"others[].sm_util": 0..100 or null');
    if (memory !== null && !(typeof memory === 'number' && memory >= 0)) fail('"others[].mem_used_bytes": bytes or null');
    return { pid: pid as number, owner: owner as Other['owner'], by: by as Other['by'], smUtil: sm as number | null, memoryBytes: memory as number | null };
  });
  return { own: own as number | null, others, onGpu: onGpu as boolean | null };
}

const higher = (a: number | null, b: number | null): number | null => (a === null ? b : b === null ? a : Math.max(a, b));

/**
 * The recording's neighbours from its version-2 samples (in file order). On a machine of several
 * GPUs, only the GPUs the command used count: those that listed a process of its own, or a pid
 * first seen after it started (possibly its own); when none did, every recorded GPU.
 */
function gpuProcessesOf(path: string, sampleLines: Line[], startedAt: number | undefined): GpuProcesses {
  const seen = new Map<string, GpuNeighbour>();
  const unknown = new Set<number>();
  const used = new Set<number>();
  let listed = 0;
  const note = (key: string, neighbour: Omit<GpuNeighbour, 'samples'>) => {
    const was = seen.get(key);
    if (!was) seen.set(key, { ...neighbour, samples: 1 });
    else seen.set(key, { ...was, samples: was.samples + 1, maxSmPercent: higher(was.maxSmPercent, neighbour.maxSmPercent), maxMemoryBytes: higher(was.maxMemoryBytes, neighbour.maxMemoryBytes) });
  };
  for (const entry of sampleLines) {
    const { own, others, onGpu } = processesOf(path, entry);
    const device = numberFrom(entry.record['device']) ?? 0;
    if (own !== null && own > 0) used.add(device);
    if (others !== null) {
      listed += 1;
      for (const other of others) {
        if (other.owner === 'unknown') {
          unknown.add(other.pid);
          used.add(device);
          continue;
        }
        const evidence = other.by === 'before' ? 'listed-before' : 'process';
        note(`${device}:${other.pid}:${evidence}`, { pid: other.pid, evidence, device, maxSmPercent: other.smUtil, maxMemoryBytes: other.memoryBytes });
      }
    }
    const t = numberFrom(entry.record['t']);
    const util = percentFrom(entry.record['gpu_util']);
    const settled = startedAt !== undefined && t !== undefined && t - startedAt >= BUSY_BEFORE_AFTER_SECONDS;
    if (onGpu === false && settled && util !== undefined && util > 0) {
      note(`${device}:busy-before`, { pid: null, evidence: 'busy-before', device, maxSmPercent: util, maxMemoryBytes: null });
    }
  }
  const neighbours = [...seen.values()].filter((n) => used.size === 0 || used.has(n.device));
  return { listedSamples: listed, samples: sampleLines.length, neighbours, unknownPids: [...unknown].sort((a, b) => a - b), jobDevices: [...used].sort((a, b) => a - b) };
}

function readSnapshot(path: string, lines: Line[], ctx: ImportContext): CaptureInput {
  const header = lines[0]!.record;
  const version = header['version'];
  if (version !== 1 && version !== 2) {
    throw new InputError(path, `expected gpu-snapshot version 1 or 2, got ${JSON.stringify(version)}`, String(lines[0]!.line));
  }
  const listsProcesses = version === 2 ? header['processes'] : false;
  if (typeof listsProcesses !== 'boolean') {
    throw new InputError(path, `expected "processes": true or false in a gpu-snapshot version 2 header, got ${JSON.stringify(listsProcesses)}`, String(lines[0]!.line));
  }
  const samples: UtilSample[] = [];
  const sampleLines: Line[] = [];
  const notices: Notice[] = [];
  let end: Line | undefined;
  for (const entry of lines.slice(1)) {
    const kind = entry.record['kind'];
    if (end) throw new InputError(path, 'expected nothing after the "end" record', String(entry.line));
    if (kind === 'sample') {
      sampleLines.push(entry);
      const sample = snapshotSample(entry, ctx);
      if (sample) samples.push(sample);
    } else if (kind === 'end') {
      end = entry;
    } else if (kind === 'warning') {
      notices.push({ code: 'gpu-snapshot-warning', severity: 'warning', message: String(entry.record['message'] ?? '') });
    } else {
      ctx.count('unknown-record', 'info', `records of kind ${JSON.stringify(kind)} are skipped`);
    }
  }
  if (!end) {
    ctx.count('no-end-record', 'data-loss', 'the recording has no end record: the recorder stopped before it finished');
  } else {
    const written = numberFrom(end.record['samples']);
    const sampleLines = lines.filter((l) => l.record['kind'] === 'sample').length;
    if (written !== undefined && written !== sampleLines) {
      ctx.count('missing-samples', 'data-loss', `the end record counts ${written} samples, the file holds ${sampleLines}`);
    }
    const exitCode = end.record['exit_code'];
    if (typeof exitCode === 'number' && exitCode !== 0) {
      notices.push({ code: 'command-failed', severity: 'warning', message: `the recorded command exited with code ${exitCode}` });
    }
  }
  if (samples.length === 0) {
    notices.push({ code: 'no-gpu-samples', severity: 'warning', message: 'the recording holds no GPU samples (was the run shorter than the interval?)' });
  }
  const devices = Array.isArray(header['devices']) ? header['devices'].filter(isRecord) : [];
  const names = [...new Set(devices.map((d) => d['name']).filter((n): n is string => typeof n === 'string'))];
  const backend = typeof header['backend'] === 'string' ? header['backend'] : undefined;
  const vendor = header['vendor'] === 'amd' || backend === 'rocm-smi' ? 'amd' : header['vendor'] === 'nvidia' || backend === 'nvml' || backend === 'nvidia-smi' ? 'nvidia' : undefined;
  const driver = typeof header['driver'] === 'string' ? header['driver'] : undefined;
  const gpuProcesses = listsProcesses ? gpuProcessesOf(path, sampleLines, numberFrom(header['started_at'])) : undefined;
  return {
    source: { path, format: 'gpu-snapshot-jsonl', parts: ['gpu-snapshot', ...(backend ? [backend] : [])], tool: 'gpu_snapshot.py' },
    utilization: samples,
    ...(gpuProcesses ? { gpuProcesses } : {}),
    notices,
    environment: {
      ...(vendor ? { vendor } : {}),
      ...(names.length ? { gpuName: names.join(', ') } : {}),
      ...(driver ? { driver } : {}),
      gpuCount: devices.length || new Set(samples.map((s) => s.device)).size,
    },
  };
}

export default defineImporter({
  id: 'gpu-snapshot-jsonl',
  label: 'GPU samples as JSON lines (gpu_snapshot.py, NVML)',
  capabilities: { utilization: true },
  sniff(head) {
    const first = head.trimStart().split(/\r?\n/, 1)[0] ?? '';
    if (!first.startsWith('{') || !first.endsWith('}')) return false;
    try {
      return shapeOf(JSON.parse(first)) !== null;
    } catch {
      return false;
    }
  },
  async read(file, ctx): Promise<CaptureInput> {
    const lines = readLines(file.path, await file.text(), ctx);
    if (lines.length === 0) throw new InputError(file.path, 'expected JSON lines of GPU samples, the file is blank', '1');
    const shape = shapeOf(lines[0]!.record);
    if (!shape) {
      throw new InputError(file.path, 'expected a {"kind":"gpu-snapshot",…} header or an NVML sample {"t":…,"gpu":…} first', String(lines[0]!.line));
    }
    if (shape === 'snapshot') return readSnapshot(file.path, lines, ctx);
    const samples = lines.map((line) => nvmlSample(line, ctx)).filter((s): s is UtilSample => s !== null);
    if (samples.length === 0) throw new InputError(file.path, 'expected at least one sample with a "gpu" utilization, found none', '1');
    return {
      source: { path: file.path, format: 'gpu-snapshot-jsonl', parts: ['nvml'], tool: 'NVML' },
      utilization: samples,
      environment: { vendor: 'nvidia', gpuCount: new Set(samples.map((s) => s.device)).size },
    };
  },
});
