/**
 * A trace's text as an input file read `sizes` bytes at a time (the sizes cycling), the buffer
 * overwritten after each chunk, so that a reader keeping bytes past their chunk without a copy, or
 * reading an event split across chunks differently, shows.
 */
import { Readable } from 'node:stream';
import type { InputFile } from '../../src/ingest/common/input-file.js';

export function chunkedInput(path: string, text: string, sizes: number[]): InputFile {
  const bytes = Buffer.from(text);
  return {
    path,
    head: text.slice(0, 4096),
    gzip: false,
    sizeBytes: bytes.length,
    text: async () => text,
    stream: () => Readable.from([bytes]),
    chunks: async function* () {
      const buffer = Buffer.alloc(Math.min(Math.max(...sizes), bytes.length));
      for (let at = 0, i = 0; at < bytes.length; ) {
        const n = Math.min(sizes[i++ % sizes.length]!, bytes.length - at);
        bytes.copy(buffer, 0, at, at + n);
        at += n;
        yield buffer.subarray(0, n);
        buffer.fill(0x55, 0, n);
      }
    },
  } as unknown as InputFile;
}
