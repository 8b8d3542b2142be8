/**
 * A child's output: both streams split into lines, written to the log (stdout to a file of its own
 * when asked), handed to a callback, and the last lines kept for the error message. Depends on node
 * built-ins and line-splitter.ts only (the process tests load the process modules on their own).
 */
import { createWriteStream, mkdirSync, type WriteStream } from 'node:fs';
import { dirname } from 'node:path';
import type { Readable } from 'node:stream';
import { LineSplitter, MAX_LINE_BYTES } from './line-splitter.js';

const TAIL_LINES = 20;

export interface OutputSpec {
  /** Both streams go here, line by line, unless `stdoutFile` takes stdout. */
  logFile: string;
  /** When set, stdout goes to this file (a CSV a tool prints) and only stderr to the log. */
  stdoutFile?: string;
  onLine?: (line: string, stream: 'stdout' | 'stderr') => void;
}

function openStream(path: string): WriteStream {
  mkdirSync(dirname(path), { recursive: true });
  return createWriteStream(path, { flags: 'w' });
}

function closeStream(stream: WriteStream): Promise<void> {
  return new Promise((resolve) => stream.end(() => resolve()));
}

export class ProcessOutput {
  /** The last lines of output, both streams, for the error message. */
  readonly tail: string[] = [];
  private readonly log: WriteStream;
  private readonly stdoutFile: WriteStream | undefined;
  private readonly splitters: LineSplitter[] = [];
  private ended: Promise<unknown> = Promise.resolve();
  private streams: Readable[] = [];

  /** Opens the files (before the child starts: a folder that cannot be made stops the start). */
  constructor(private readonly spec: OutputSpec) {
    this.log = openStream(spec.logFile);
    this.stdoutFile = spec.stdoutFile ? openStream(spec.stdoutFile) : undefined;
  }

  /** Reads the child's streams from now on. */
  attach(stdout: Readable | null, stderr: Readable | null): void {
    this.streams = [stdout, stderr].filter((stream): stream is Readable => stream !== null);
    this.ended = Promise.all([this.follow(stdout, 'stdout', this.stdoutFile ?? this.log), this.follow(stderr, 'stderr', this.log)]);
  }

  /**
   * Waits for both streams to end, at most `ms`: a grandchild that left the group could hold the
   * pipes open, and is not waited on forever. Then lets go of the streams.
   */
  async drain(ms: number): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([this.ended, new Promise<void>((resolve) => (timer = setTimeout(resolve, ms)))]);
    clearTimeout(timer);
    for (const stream of this.streams) stream.destroy();
  }

  /** Lines longer than MAX_LINE_BYTES, both streams: how many, and the bytes dropped from them. */
  cut(): { cutLines: number; cutBytes: number } {
    return {
      cutLines: this.splitters.reduce((sum, lines) => sum + lines.cutLines, 0),
      cutBytes: this.splitters.reduce((sum, lines) => sum + lines.cutBytes, 0),
    };
  }

  /** Closes the files, with a last line in the log when there is one (why the child did not start). */
  async close(lastLogLine?: string): Promise<void> {
    if (lastLogLine) this.log.write(`${lastLogLine}\n`);
    await Promise.all([closeStream(this.log), this.stdoutFile ? closeStream(this.stdoutFile) : Promise.resolve()]);
  }

  private follow(stream: Readable | null, name: 'stdout' | 'stderr', target: WriteStream): Promise<void> {
    return new Promise<void>((resolve) => {
      if (!stream) return resolve();
      const lines = new LineSplitter((line, dropped) => {
        target.write(dropped > 0 ? `${line}… [profile-gate: line cut at ${MAX_LINE_BYTES} bytes, ${dropped} bytes dropped]\n` : `${line}\n`);
        this.tail.push(line.length > 1000 ? `${line.slice(0, 1000)}…` : line);
        if (this.tail.length > TAIL_LINES) this.tail.shift();
        this.spec.onLine?.(line, name);
      });
      this.splitters.push(lines);
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
  }
}
