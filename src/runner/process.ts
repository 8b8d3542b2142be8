/**
 * Starting and stopping the workload's processes. Each child leads its own process group
 * (spawn detached = setsid), so it and everything it starts can be stopped together with a signal to
 * -pgid: SIGTERM, then SIGKILL after a grace period. Only groups started here are ever signalled,
 * never a process found by name. Output is streamed line by line to a file and a callback.
 * Depends on node built-ins only (the process tests load this file on its own).
 */
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { createWriteStream, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync, type WriteStream } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

export interface ProcessSpec {
  argv: readonly string[];
  cwd?: string;
  /** Added to (not replacing) this process's environment. */
  env?: Readonly<Record<string, string>>;
  /** Both streams go here, line by line, unless `stdoutFile` takes stdout. */
  logFile: string;
  /** When set, stdout goes to this file (a CSV a tool prints) and only stderr to the log. */
  stdoutFile?: string;
  timeoutMs?: number;
  onLine?: (line: string, stream: 'stdout' | 'stderr') => void;
}

export interface ProcessOutcome {
  exitCode: number | null;
  signal: string | null;
  timedOut: boolean;
  /** Stopped because the run was cancelled (a signal to us, or stopAll). */
  cancelled: boolean;
  /** Why the command could not start at all (not installed, not executable). */
  startError?: string;
  durationMs: number;
  /** The last lines of output, for the error message. */
  tail: string[];
  /** Processes of the group still alive after the main process exited (they were stopped). */
  leftovers: number;
  /** Output lines longer than MAX_LINE_BYTES: how many, and the bytes dropped from them. */
  cutLines: number;
  cutBytes: number;
}

export interface RunningProcess {
  readonly pid: number | undefined;
  readonly done: Promise<ProcessOutcome>;
  /** Stop the whole group (SIGTERM, then SIGKILL after the grace period). */
  stop(): Promise<void>;
  exited(): boolean;
}

const TAIL_LINES = 20;

/** Longest output line kept (log file, callback); the rest of a longer line is dropped and counted. */
export const MAX_LINE_BYTES = 1 << 20;

/**
 * The environment variable every process a run starts carries, with the run's own id as value (the
 * Actions runner tags job processes with RUNNER_TRACKING_ID the same way). A daemon that left the
 * process group and session is still found by it at the end.
 */
export const TRACKING_VARIABLE = 'PROFILE_GATE_TRACKING_ID';

/**
 * The runner's file commands. A workload that appends to them could set the action's outputs
 * (`verdict=pass`), rewrite the job summary, or change later steps' environment; it gets empty
 * throwaway files instead, removed when it exits.
 */
const FILE_COMMANDS = ['GITHUB_OUTPUT', 'GITHUB_STEP_SUMMARY', 'GITHUB_ENV', 'GITHUB_PATH', 'GITHUB_STATE'] as const;

/**
 * Splits a byte stream into lines (\n, \r\n or a lone \r, as readline does) with a bounded buffer:
 * a line longer than `maxBytes` is kept to its first `maxBytes` and the rest dropped and counted.
 */
export class LineSplitter {
  private parts: Buffer[] = [];
  private held = 0;
  private dropped = 0;
  private lastWasCR = false;
  cutLines = 0;
  cutBytes = 0;

  constructor(
    private readonly onLine: (line: string, droppedBytes: number) => void,
    private readonly maxBytes = MAX_LINE_BYTES,
  ) {}

  push(chunk: Buffer): void {
    let start = 0;
    // The next \n and \r, found natively (a 1 GB line must not be walked byte by byte in JS).
    let lf = chunk.indexOf(0x0a);
    let cr = chunk.indexOf(0x0d);
    while (lf >= 0 || cr >= 0) {
      const at = lf < 0 ? cr : cr < 0 ? lf : Math.min(lf, cr);
      const isCR = at === cr;
      if (!isCR && this.lastWasCR && at === start && this.held === 0 && this.dropped === 0) {
        // the \n of a \r\n whose \r ended the previous line
        this.lastWasCR = false;
      } else {
        this.keep(chunk.subarray(start, at));
        this.emit();
        this.lastWasCR = isCR;
      }
      start = at + 1;
      if (at === lf) lf = chunk.indexOf(0x0a, start);
      if (at === cr) cr = chunk.indexOf(0x0d, start);
    }
    if (start < chunk.length) {
      this.lastWasCR = false;
      this.keep(chunk.subarray(start));
    }
  }

  /** The last line, when the stream ended without a newline. */
  end(): void {
    if (this.held > 0 || this.dropped > 0) this.emit();
  }

  private keep(bytes: Buffer): void {
    const room = this.maxBytes - this.held;
    if (bytes.length <= room) {
      if (bytes.length) this.parts.push(Buffer.from(bytes));
      this.held += bytes.length;
      return;
    }
    if (room > 0) this.parts.push(Buffer.from(bytes.subarray(0, room)));
    this.held += Math.max(room, 0);
    this.dropped += bytes.length - Math.max(room, 0);
  }

  private emit(): void {
    const line = Buffer.concat(this.parts, this.held).toString('utf8');
    const dropped = this.dropped;
    if (dropped > 0) {
      this.cutLines += 1;
      this.cutBytes += dropped;
    }
    this.parts = [];
    this.held = 0;
    this.dropped = 0;
    this.onLine(line, dropped);
  }
}

/** Empty stand-ins for the file commands this process was given, in a folder of their own. */
function throwawayFileCommands(env: NodeJS.ProcessEnv): { env: Record<string, string>; remove: () => void } {
  const present = FILE_COMMANDS.filter((name) => env[name]);
  if (present.length === 0) return { env: {}, remove: () => undefined };
  const dir = mkdtempSync(join(tmpdir(), 'profile-gate-workload-'));
  const replaced: Record<string, string> = {};
  for (const name of present) {
    replaced[name] = join(dir, name.toLowerCase());
    writeFileSync(replaced[name], '');
  }
  return { env: replaced, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

export interface TrackedProcess {
  pid: number;
  command: string;
}

/**
 * Our environment less what is ours alone: the action's inputs (the token among them) and the
 * runner's tokens for the artifact service and OIDC. A workload that prints its environment into a
 * log must not put them into the uploaded artifact, and it has no business with them.
 */
const WITHHELD_ENV = /^(INPUT_.*|ACTIONS_RUNTIME_TOKEN|ACTIONS_ID_TOKEN_REQUEST_TOKEN|ACTIONS_ID_TOKEN_REQUEST_URL)$/i;

export function childEnvironment(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  return Object.fromEntries(Object.entries(env).filter(([name]) => !WITHHELD_ENV.test(name)));
}
const SIGNAL_NUMBERS: Record<string, number> = { SIGINT: 2, SIGTERM: 15 };

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

interface ProcEntry {
  pid: number;
  ppid: number;
  pgid: number;
  /** Start time in clock ticks since boot: tells a process from a later one with the same pid. */
  start: string;
}

/** Live (not zombie) processes from /proc; empty where there is no /proc. */
function processTable(): ProcEntry[] {
  const table: ProcEntry[] = [];
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return table;
  }
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
    } catch {
      continue;
    }
    // Fields after the command name, which may hold spaces and parentheses: state ppid pgrp …
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    if (fields[0] === 'Z' || fields[0] === 'X') continue;
    table.push({ pid: Number(entry), ppid: Number(fields[1]), pgid: Number(fields[2]), start: fields[19] ?? '' });
  }
  return table;
}

/** Live (not zombie) members of a process group. Linux reads /proc; elsewhere kill(-pgid, 0). */
export function groupMembers(pgid: number): number[] {
  if (process.platform !== 'linux') {
    try {
      process.kill(-pgid, 0);
      return [pgid];
    } catch {
      return [];
    }
  }
  return processTable()
    .filter((entry) => entry.pgid === pgid)
    .map((entry) => entry.pid);
}

/**
 * Processes descended from a member of the group that moved to a group of their own (setsid, or a
 * wrapper such as gpu_snapshot.py that runs its command in a new group). Still ours to stop.
 */
function escapedDescendants(pgid: number): ProcEntry[] {
  const table = processTable();
  const children = new Map<number, ProcEntry[]>();
  for (const entry of table) children.set(entry.ppid, [...(children.get(entry.ppid) ?? []), entry]);
  const found: ProcEntry[] = [];
  const queue = table.filter((entry) => entry.pgid === pgid);
  const seen = new Set(queue.map((entry) => entry.pid));
  while (queue.length) {
    for (const child of children.get(queue.shift()!.pid) ?? []) {
      if (seen.has(child.pid)) continue;
      seen.add(child.pid);
      if (child.pgid !== pgid) found.push(child);
      queue.push(child);
    }
  }
  return found;
}

/** The command line of a process, arguments joined by spaces (empty when it cannot be read). */
function commandLine(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0+$/, '').split('\0').join(' ');
  } catch {
    return '';
  }
}

/**
 * Live processes of this user whose environment carries `marker` (NAME=value). Reads
 * /proc/<pid>/environ, which holds the environment a process was started with.
 */
function processesWithMarker(marker: string): ProcEntry[] {
  const uid = process.getuid?.();
  const needle = Buffer.from(`\0${marker}\0`);
  const first = Buffer.from(`${marker}\0`);
  return processTable().filter((entry) => {
    if (entry.pid === process.pid) return false;
    try {
      if (uid !== undefined && statSync(`/proc/${entry.pid}`).uid !== uid) return false;
      const environ = readFileSync(`/proc/${entry.pid}/environ`);
      return environ.subarray(0, first.length).equals(first) || environ.includes(needle);
    } catch {
      return false;
    }
  });
}

function stillAlive(entry: ProcEntry): boolean {
  try {
    const stat = readFileSync(`/proc/${entry.pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return fields[0] !== 'Z' && fields[0] !== 'X' && (fields[19] ?? '') === entry.start;
  } catch {
    return false;
  }
}

function openStream(path: string): WriteStream {
  mkdirSync(dirname(path), { recursive: true });
  return createWriteStream(path, { flags: 'w' });
}

function closeStream(stream: WriteStream): Promise<void> {
  return new Promise((resolve) => stream.end(() => resolve()));
}

export class ProcessGroups {
  readonly graceMs: number;
  /** The value of TRACKING_VARIABLE in every process started here. */
  readonly trackingId: string;
  private readonly groups = new Set<number>();
  private cancelled = false;

  constructor(options: { graceMs?: number } = {}) {
    this.graceMs = options.graceMs ?? 3000;
    this.trackingId = randomUUID();
  }

  /**
   * Stop every process that carries this run's tracking marker, wherever it went (a daemon that
   * double-forked into a session of its own): SIGTERM, SIGKILL after the grace period. Returns
   * them by pid and command. Linux only (elsewhere there is no /proc to read: none are found).
   */
  async sweepTracked(): Promise<TrackedProcess[]> {
    if (process.platform !== 'linux') return [];
    const found = processesWithMarker(`${TRACKING_VARIABLE}=${this.trackingId}`);
    const tracked = found.map((entry) => ({ pid: entry.pid, command: commandLine(entry.pid) }));
    const signal = (entry: ProcEntry, name: NodeJS.Signals) => {
      if (!stillAlive(entry)) return;
      try {
        process.kill(entry.pid, name);
      } catch {
        // gone
      }
    };
    for (const entry of found) signal(entry, 'SIGTERM');
    const deadline = Date.now() + this.graceMs;
    while (Date.now() < deadline && found.some(stillAlive)) await sleep(50);
    for (const entry of found) signal(entry, 'SIGKILL');
    for (let i = 0; i < 20 && found.some(stillAlive); i += 1) await sleep(25);
    return tracked;
  }

  /** Process-group ids started here and not yet seen gone. */
  active(): number[] {
    return [...this.groups];
  }

  isCancelled(): boolean {
    return this.cancelled;
  }

  /**
   * Signal one of our groups, wait up to the grace period, then SIGKILL what is left of it and of
   * the processes it started in groups of their own.
   */
  async stopGroup(pgid: number, first: NodeJS.Signals = 'SIGTERM'): Promise<void> {
    if (!this.groups.has(pgid) || pgid <= 1) return;
    const escaped = escapedDescendants(pgid);
    try {
      process.kill(-pgid, first);
    } catch {
      // the group is gone; escaped descendants may remain
    }
    const remaining = () => groupMembers(pgid).length + escaped.filter(stillAlive).length;
    const deadline = Date.now() + this.graceMs;
    while (Date.now() < deadline && remaining() > 0) await sleep(50);
    if (remaining() > 0) {
      escaped.push(...escapedDescendants(pgid).filter((entry) => !escaped.some((known) => known.pid === entry.pid)));
      try {
        process.kill(-pgid, 'SIGKILL');
      } catch {
        // already gone
      }
      for (const entry of escaped.filter(stillAlive)) {
        try {
          process.kill(entry.pid, 'SIGKILL');
        } catch {
          // already gone
        }
      }
      for (let i = 0; i < 20 && remaining() > 0; i += 1) await sleep(25);
    }
    this.groups.delete(pgid);
  }

  /** Stop every group started here (cancellation). */
  async stopAll(first: NodeJS.Signals = 'SIGTERM'): Promise<void> {
    this.cancelled = true;
    await Promise.all(this.active().map((pgid) => this.stopGroup(pgid, first)));
  }

  start(spec: ProcessSpec): RunningProcess {
    const started = Date.now();
    const tail: string[] = [];
    const log = openStream(spec.logFile);
    const stdoutFile = spec.stdoutFile ? openStream(spec.stdoutFile) : undefined;
    let exited = false;
    let timedOut = false;
    let cancelledHere = false;

    let fileCommands: ReturnType<typeof throwawayFileCommands> = { env: {}, remove: () => undefined };
    try {
      fileCommands = throwawayFileCommands(process.env);
    } catch {
      // no temporary folder: the workload gets no file commands at all (see below)
    }
    const env: NodeJS.ProcessEnv = { ...childEnvironment(process.env), ...(spec.env ?? {}), ...fileCommands.env, [TRACKING_VARIABLE]: this.trackingId };
    for (const name of FILE_COMMANDS) if (!(name in fileCommands.env)) delete env[name];
    const child = spawn(spec.argv[0]!, spec.argv.slice(1), {
      cwd: spec.cwd,
      env,
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const pgid = child.pid;
    if (pgid !== undefined) this.groups.add(pgid);

    const stop = async () => {
      if (pgid !== undefined) await this.stopGroup(pgid);
    };

    const splitters: LineSplitter[] = [];
    const streamClosed = (stream: NodeJS.ReadableStream | null, name: 'stdout' | 'stderr', target: WriteStream) =>
      new Promise<void>((resolve) => {
        if (!stream) return resolve();
        const lines = new LineSplitter((line, dropped) => {
          target.write(dropped > 0 ? `${line}… [profile-gate: line cut at ${MAX_LINE_BYTES} bytes, ${dropped} bytes dropped]\n` : `${line}\n`);
          tail.push(line.length > 1000 ? `${line.slice(0, 1000)}…` : line);
          if (tail.length > TAIL_LINES) tail.shift();
          spec.onLine?.(line, name);
        });
        splitters.push(lines);
        let ended = false;
        const close = () => {
          if (ended) return;
          ended = true;
          lines.end();
          resolve();
        };
        stream.on('data', (chunk: Buffer) => lines.push(chunk));
        stream.on('end', close);
        stream.on('close', close);
        stream.on('error', close);
      });
    const outputDone = Promise.all([
      streamClosed(child.stdout, 'stdout', stdoutFile ?? log),
      streamClosed(child.stderr, 'stderr', log),
    ]);

    const timer =
      spec.timeoutMs !== undefined
        ? setTimeout(() => {
            timedOut = true;
            void stop();
          }, spec.timeoutMs)
        : undefined;

    const done = new Promise<ProcessOutcome>((resolve) => {
      const finish = async (exitCode: number | null, signal: string | null, startError?: string) => {
        if (timer) clearTimeout(timer);
        exited = true;
        let leftovers = 0;
        if (pgid !== undefined) {
          leftovers = groupMembers(pgid).length;
          if (leftovers > 0) await this.stopGroup(pgid);
          this.groups.delete(pgid);
        }
        // A grandchild that left the group could hold the pipes open; do not wait on it forever.
        let drainTimer: NodeJS.Timeout | undefined;
        await Promise.race([outputDone, new Promise<void>((resolve) => (drainTimer = setTimeout(resolve, 2000)))]);
        clearTimeout(drainTimer);
        child.stdout?.destroy();
        child.stderr?.destroy();
        fileCommands.remove();
        if (startError) log.write(`${startError}\n`);
        await Promise.all([closeStream(log), stdoutFile ? closeStream(stdoutFile) : Promise.resolve()]);
        resolve({
          exitCode,
          signal,
          timedOut,
          cancelled: cancelledHere || this.cancelled,
          ...(startError ? { startError } : {}),
          durationMs: Date.now() - started,
          tail,
          leftovers,
          cutLines: splitters.reduce((sum, lines) => sum + lines.cutLines, 0),
          cutBytes: splitters.reduce((sum, lines) => sum + lines.cutBytes, 0),
        });
      };
      child.once('error', (error: NodeJS.ErrnoException) => {
        if (exited) return;
        const reason = error.code === 'ENOENT' ? 'not found' : error.code === 'EACCES' ? 'not executable' : error.message;
        void finish(null, null, `cannot start ${spec.argv[0]}: ${reason}`);
      });
      child.once('exit', (code, signal) => {
        if (this.cancelled) cancelledHere = true;
        void finish(code, signal);
      });
    });

    return { pid: pgid, done, stop, exited: () => exited };
  }

  /**
   * On SIGINT/SIGTERM to this process: pass the same signal to every group started here, SIGKILL
   * after the grace period, wait for `settle` (the run writing its record of what finished, up to
   * `settleMs`), run `beforeExit`, then exit with 128+signal. A second signal kills at once.
   */
  forwardSignals(
    options: { beforeExit?: (signal: NodeJS.Signals) => Promise<void> | void; settle?: () => Promise<unknown>; settleMs?: number; exit?: (code: number) => void } = {},
  ): () => void {
    const exit = options.exit ?? ((code: number) => process.exit(code));
    let handling = false;
    const handler = (signal: NodeJS.Signals) => {
      if (handling) {
        for (const pgid of this.active()) {
          try {
            process.kill(-pgid, 'SIGKILL');
          } catch {
            // gone
          }
        }
        return;
      }
      handling = true;
      void (async () => {
        await this.stopAll(signal);
        try {
          // The Actions runner waits 7.5 s after SIGINT before it sends SIGTERM.
          if (options.settle) await Promise.race([options.settle().catch(() => undefined), sleep(options.settleMs ?? 5000)]);
        } catch {
          // the record is best effort; exit regardless
        }
        try {
          await Promise.race([options.beforeExit?.(signal), sleep(1000)]);
        } finally {
          exit(128 + (SIGNAL_NUMBERS[signal] ?? 15));
        }
      })();
    };
    process.on('SIGINT', handler);
    process.on('SIGTERM', handler);
    return () => {
      process.off('SIGINT', handler);
      process.off('SIGTERM', handler);
    };
  }
}
