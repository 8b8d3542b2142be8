/**
 * A text capture read line by line from its byte stream (gzip, UTF-16 and BOMs already undone by
 * input-file.ts), so that a table of 100,000 rows is never held whole, nor split into an array of
 * every line: one batch of lines per chunk read. Lines end at `\n` or `\r\n`, as splitLines splits
 * them, and each line is decoded on its own, so a cell kept from it keeps only its line alive.
 */
import { InputError } from '../../errors.js';
import { MAX_TEXT_BYTES, type InputFile } from './input-file.js';

const LF = 0x0a;
const CR = 0x0d;

function decodeLine(bytes: Buffer, start: number, end: number, terminated: boolean): string {
  const stop = terminated && end > start && bytes[end - 1] === CR ? end - 1 : end;
  return bytes.toString('utf8', start, stop);
}

/**
 * The file's lines, in batches; the same lines `splitLines(await file.text())` gives, under the same
 * size limit. A broken gzip stream is an InputError.
 */
export async function* lineBatches(file: InputFile): AsyncGenerator<string[]> {
  if (!file.gzip && file.sizeBytes > MAX_TEXT_BYTES) {
    throw new InputError(file.path, `file is ${file.sizeBytes} bytes; text formats are read up to ${MAX_TEXT_BYTES} bytes`);
  }
  // The start of a line that runs past the end of its chunk.
  let partial: Buffer[] = [];
  let bytesRead = 0;
  const source = file.stream() as AsyncIterable<Buffer>;
  const iterator = source[Symbol.asyncIterator]();
  try {
    for (;;) {
      let step: IteratorResult<Buffer>;
      try {
        step = await iterator.next();
      } catch (error) {
        const reason = (error as Error).message;
        throw new InputError(file.path, file.gzip ? `expected a complete gzip stream (${reason})` : `cannot read the file (${reason})`);
      }
      if (step.done) break;
      const chunk = step.value;
      bytesRead += chunk.length;
      if (bytesRead > MAX_TEXT_BYTES) {
        throw new InputError(file.path, `expected at most ${MAX_TEXT_BYTES} bytes of text once decompressed; text formats are read up to ${MAX_TEXT_BYTES} bytes`);
      }
      const lines: string[] = [];
      let start = 0;
      let newline = chunk.indexOf(LF);
      if (newline >= 0 && partial.length > 0) {
        partial.push(chunk.subarray(0, newline));
        const joined = Buffer.concat(partial);
        lines.push(decodeLine(joined, 0, joined.length, true));
        partial = [];
        start = newline + 1;
        newline = chunk.indexOf(LF, start);
      }
      for (; newline >= 0; newline = chunk.indexOf(LF, start)) {
        lines.push(decodeLine(chunk, start, newline, true));
        start = newline + 1;
      }
      if (start < chunk.length) partial.push(chunk.subarray(start));
      if (lines.length > 0) yield lines;
    }
    if (partial.length > 0) {
      const joined = Buffer.concat(partial);
      if (joined.length > 0) yield [decodeLine(joined, 0, joined.length, false)];
    }
  } finally {
    // Closes the file when the reader stops early (a bad row); a stream that failed may refuse.
    await iterator.return?.().catch(() => undefined);
  }
}
