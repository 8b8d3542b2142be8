/**
 * Splitting a byte stream into lines with a bounded buffer. Bytes are held until a line ends and
 * decoded then, so a character split across two chunks arrives whole. Depends on node built-ins
 * only (the process tests load the process modules on their own).
 */

/** Longest output line kept (log file, callback); the rest of a longer line is dropped and counted. */
export const MAX_LINE_BYTES = 1 << 20;

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
