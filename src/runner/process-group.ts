/**
 * Starting and stopping the workload's processes. Each child leads its own process group
 * (spawn detached = setsid), so it and everything it starts can be stopped together with a signal to
 * -pgid: SIGTERM, then SIGKILL after a grace period. Only groups started here are ever signalled,
 * never a process found by name; a cancel signal to us is passed on to them. Output goes through
 * process-output.ts, /proc is read through proc-stat.ts and process-table.ts, the environment comes
 * from child-env.ts. Depends on node built-ins and those modules only (the process tests load them on
 * their own).
 */
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { workloadEnvironment, TRACKING_VARIABLE } from './child-env.js';
import { stillRunning, type ProcStat } from './proc-stat.js';
import { ProcessOutput, type OutputSpec } from './process-output.js';
import { commandLine, escapedDescendants, groupMembers, processesWithMarker } from './process-table.js';

export interface ProcessSpec extends OutputSpec {
  argv: readonly string[];
  cwd?: string;
  /** Added to (not replacing) this process's environment. */
  env?: Readonly<Record<string, string>>;
  timeoutMs?: number;
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

export interface TrackedProcess {
  pid: number;
  command: string;
}

const SIGNAL_NUMBERS: Record<string, number> = { SIGINT: 2, SIGTERM: 15 };

/** How long the output of an exited child is waited on (a grandchild may hold its pipes open). */
const DRAIN_MS = 2000;

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

function signalProcess(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(pid, signal);
  } catch {
    // already gone
  }
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
    const signal = (entry: ProcStat, name: NodeJS.Signals) => {
      if (stillRunning(entry)) signalProcess(entry.pid, name);
    };
    for (const entry of found) signal(entry, 'SIGTERM');
    const deadline = Date.now() + this.graceMs;
    while (Date.now() < deadline && found.some(stillRunning)) await sleep(50);
    for (const entry of found) signal(entry, 'SIGKILL');
    for (let i = 0; i < 20 && found.some(stillRunning); i += 1) await sleep(25);
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
    // the group may be gone already; escaped descendants may remain
    signalProcess(-pgid, first);
    const remaining = () => groupMembers(pgid).length + escaped.filter(stillRunning).length;
    const deadline = Date.now() + this.graceMs;
    while (Date.now() < deadline && remaining() > 0) await sleep(50);
    if (remaining() > 0) {
      escaped.push(...escapedDescendants(pgid).filter((entry) => !escaped.some((known) => known.pid === entry.pid)));
      signalProcess(-pgid, 'SIGKILL');
      for (const entry of escaped.filter(stillRunning)) signalProcess(entry.pid, 'SIGKILL');
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
    const output = new ProcessOutput(spec);
    const environment = workloadEnvironment(spec.env ?? {}, this.trackingId);
    const child = spawn(spec.argv[0]!, spec.argv.slice(1), {
      cwd: spec.cwd,
      env: environment.env,
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const pgid = child.pid;
    if (pgid !== undefined) this.groups.add(pgid);
    output.attach(child.stdout, child.stderr);

    let exited = false;
    let timedOut = false;
    let cancelledHere = false;
    const stop = async () => {
      if (pgid !== undefined) await this.stopGroup(pgid);
    };
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
        const leftovers = await this.afterExit(pgid, output, environment.remove);
        await output.close(startError);
        const cancelled = cancelledHere || this.cancelled;
        resolve({ exitCode, signal, timedOut, cancelled, ...(startError ? { startError } : {}), durationMs: Date.now() - started, tail: output.tail, leftovers, ...output.cut() });
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
   * Once the main process has exited: stops what is left of its group (returns how many were
   * left), waits for its output to drain and removes its throwaway files.
   */
  private async afterExit(pgid: number | undefined, output: ProcessOutput, removeFiles: () => void): Promise<number> {
    let leftovers = 0;
    if (pgid !== undefined) {
      leftovers = groupMembers(pgid).length;
      if (leftovers > 0) await this.stopGroup(pgid);
      this.groups.delete(pgid);
    }
    await output.drain(DRAIN_MS);
    removeFiles();
    return leftovers;
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
        for (const pgid of this.active()) signalProcess(-pgid, 'SIGKILL');
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
