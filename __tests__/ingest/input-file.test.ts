/**
 * The plain file's chunks (InputFile.chunks): read one ahead into reused buffers, the next read on
 * the thread pool while the reader works on the chunk it was given.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { openInput, readAheadChunks, readAt } from '../../src/ingest/common/input-file.js';
import { writeTempFile } from './profiler-temp-file.js';

/** 20,000 bytes of a JSON object, each byte's value telling its offset apart from its neighbours'. */
function sampleFile(): string {
  const path = writeTempFile('sample.json', '');
  const text = `{"a": "${Array.from({ length: 19_991 }, (_, k) => String.fromCharCode(97 + (k % 26))).join('')}"}`;
  writeFileSync(path, text);
  return path;
}

describe('input file chunks', () => {
  test('each read is asked for one chunk ahead, into the buffer given for it, and the chunks are the file', async () => {
    const path = sampleFile();
    const file = await openInput(path);
    const buffers = [Buffer.alloc(4096), Buffer.alloc(4096)];
    let asked = 0;
    const into = () => buffers[asked++ % 2]!;
    const askedAtEach: number[] = [];
    const chunks: Buffer[] = [];
    for await (const chunk of file.chunks!(into)) {
      askedAtEach.push(asked);
      expect(chunk.buffer).toBe(buffers[(chunks.length % 2)]!.buffer);
      chunks.push(Buffer.from(chunk));
    }
    // 20,000 bytes in reads of 4,096: five chunks. When chunk k is given, the read of chunk k + 1
    // has been asked for; after the last, one more read finds the end.
    expect(chunks.map((c) => c.length)).toEqual([4096, 4096, 4096, 4096, 3616]);
    expect(askedAtEach).toEqual([2, 3, 4, 5, 6]);
    expect(Buffer.concat(chunks).equals(readFileSync(path))).toBe(true);
  });

  test('a reader that stops early is answered only once the read in flight is over', async () => {
    const path = sampleFile();
    const reads: Array<{ buffer: Buffer; position: number; finish: () => void }> = [];
    // The first read at once; the next waits until the test lets it finish.
    const readChunk = (fd: number, buffer: Buffer, position: number): Promise<number> => {
      if (reads.length === 0) {
        reads.push({ buffer, position, finish: () => undefined });
        return readAt(fd, buffer, position);
      }
      return new Promise<number>((resolve) => reads.push({ buffer, position, finish: () => void readAt(fd, buffer, position).then(resolve) }));
    };
    const chunks = readAheadChunks(path, () => Buffer.alloc(4096), readChunk);
    const first = await chunks.next();
    expect((first.value as Buffer).length).toBe(4096);
    expect(reads.map((r) => r.position)).toEqual([0, 4096]);
    let returned = false;
    const stopped = chunks.return(undefined).then(() => (returned = true));
    for (let turn = 0; turn < 5; turn++) await new Promise<void>((resolve) => setImmediate(resolve));
    expect(returned).toBe(false);
    reads[1]!.finish();
    await stopped;
    expect(returned).toBe(true);
    // The read in flight ran to its end (into its buffer) before the file was closed.
    expect(reads[1]!.buffer.equals(readFileSync(path).subarray(4096, 8192))).toBe(true);
  });

  test('a read that fails is told to the reader at the chunk it was for', async () => {
    const path = sampleFile();
    let made = 0;
    const readChunk = (fd: number, buffer: Buffer, position: number): Promise<number> =>
      ++made === 3 ? Promise.reject(new Error('EIO: i/o error, read')) : readAt(fd, buffer, position);
    const seen: number[] = [];
    const reading = (async () => {
      for await (const chunk of readAheadChunks(path, () => Buffer.alloc(4096), readChunk)) seen.push(chunk.length);
    })();
    await expect(reading).rejects.toThrow('EIO: i/o error, read');
    expect(seen).toEqual([4096, 4096]);
  });
});
