import { randomBytes } from 'node:crypto';
import { inertLine } from '../report/inert-text.js';
/**
 * Where the run tells what it does. The action maps `group` to a collapsible log group, the CLI to a
 * plain header; tests keep the lines in memory. Child output is written to a log file first and only
 * streamed here line by line, never gathered whole.
 */
export interface Logger {
  info(message: string): void;
  warning(message: string): void;
  error(message: string): void;
  /** One line of a child process's output. */
  output(line: string): void;
  /** Run `fn` inside a named group (no nesting). */
  group<T>(name: string, fn: () => Promise<T>): Promise<T>;
}

/** Plain text to a writable stream, headers for groups (the CLI). */
export function createPlainLogger(write: (text: string) => void, options: { showOutput?: boolean } = {}): Logger {
  const showOutput = options.showOutput ?? true;
  return {
    // The run's own lines quote names from outside (files, kernels): printed inert (inert-text.ts).
    info: (message) => write(`${inertLine(message)}\n`),
    warning: (message) => write(`warning: ${inertLine(message)}\n`),
    error: (message) => write(`error: ${inertLine(message)}\n`),
    output: (line) => {
      if (showOutput) write(`  | ${line}\n`);
    },
    async group(name, fn) {
      write(`\n== ${inertLine(name)}\n`);
      return fn();
    },
  };
}

export interface RecordedLine {
  kind: 'info' | 'warning' | 'error' | 'output' | 'group';
  text: string;
}

/** Keeps every line in memory; for tests. */
export function createMemoryLogger(): Logger & { lines: RecordedLine[]; text(): string } {
  const lines: RecordedLine[] = [];
  return {
    lines,
    info: (text) => lines.push({ kind: 'info', text }),
    warning: (text) => lines.push({ kind: 'warning', text }),
    error: (text) => lines.push({ kind: 'error', text }),
    output: (text) => lines.push({ kind: 'output', text }),
    async group(name, fn) {
      lines.push({ kind: 'group', text: name });
      return fn();
    },
    text: () => lines.map((line) => `${line.kind}: ${line.text}`).join('\n'),
  };
}

/**
 * Untrusted lines (a workload's output) for a log that the Actions runner scans for workflow
 * commands: they are written between `::stop-commands::TOKEN` and `::TOKEN::`, the runner's own
 * way to show text without acting on it, so a printed `::add-mask::`, `::error::` or
 * `::stop-commands::` takes no effect. The token is fresh and random each time the fence opens;
 * the workload never sees it. `close` before writing trusted commands (groups, warnings).
 */
export function commandFence(write: (line: string) => void, newToken: () => string = () => randomBytes(16).toString('hex')): { line(text: string): void; close(): void } {
  let token: string | undefined;
  return {
    line(text) {
      if (token === undefined) {
        token = newToken();
        write(`::stop-commands::${token}`);
      }
      write(text);
    },
    close() {
      if (token === undefined) return;
      write(`::${token}::`);
      token = undefined;
    },
  };
}

/** A logger whose `output` lines are fenced (see commandFence) and whose other lines close the fence first. */
export function fencedLogger(base: Logger, write: (line: string) => void, newToken?: () => string): Logger {
  const fence = commandFence(write, newToken);
  const trusted =
    <A extends unknown[]>(fn: (...args: A) => void) =>
    (...args: A) => {
      fence.close();
      fn(...args);
    };
  return {
    info: trusted(base.info),
    warning: trusted(base.warning),
    error: trusted(base.error),
    output: (line) => fence.line(line),
    async group(name, fn) {
      fence.close();
      return base.group(name, async () => {
        try {
          return await fn();
        } finally {
          fence.close();
        }
      });
    },
  };
}
