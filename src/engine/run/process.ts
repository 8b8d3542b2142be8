/**
 * Starting and stopping the workload's processes. Each child leads its own process group
 * (spawn detached = setsid), so it and everything it starts can be stopped together with a signal to
 * -pgid: SIGTERM, then SIGKILL after a grace period. Only groups started here are ever signalled,
 * never a process found by name. Output is streamed line by line to a file and a callback.
 * Depends on node built-ins only (the process tests load this file on its own).
 */
import { spawn } from 'node:child_process';
import { createWriteStream, mkdirSync, readdirSync, readFileSync, type WriteStream } from 'node:fs';
import { dirname } from 'node:path';
import { createInterface } from 'node:readline';

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
}

export interface RunningProcess {
  readonly pid: number | undefined;
  readonly done: Promise<ProcessOutcome>;
  /** Stop the whole group (SIGTERM, then SIGKILL after the grace period). */
  stop(): Promise<void>;
  exited(): boolean;
}

const TAIL_LINES = 20;

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
  private readonly groups = new Set<number>();
  private cancelled = false;

  constructor(options: { graceMs?: number } = {}) {
    this.graceMs = options.graceMs ?? 3000;
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

    const child = spawn(spec.argv[0]!, spec.argv.slice(1), {
      cwd: spec.cwd,
      env: { ...childEnvironment(process.env), ...(spec.env ?? {}) },
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const pgid = child.pid;
    if (pgid !== undefined) this.groups.add(pgid);

    const stop = async () => {
      if (pgid !== undefined) await this.stopGroup(pgid);
    };

    const streamClosed = (stream: NodeJS.ReadableStream | null, name: 'stdout' | 'stderr', target: WriteStream) =>
      new Promise<void>((resolve) => {
        if (!stream) return resolve();
        const lines = createInterface({ input: stream, crlfDelay: Infinity });
        lines.on('line', (line) => {
          target.write(`${line}\n`);
          tail.push(line);
          if (tail.length > TAIL_LINES) tail.shift();
          spec.onLine?.(line, name);
        });
        lines.on('close', () => resolve());
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
   * after the grace period, run `beforeExit`, then exit with 128+signal. A second signal kills at once.
   */
  forwardSignals(options: { beforeExit?: (signal: NodeJS.Signals) => Promise<void> | void; exit?: (code: number) => void } = {}): () => void {
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
