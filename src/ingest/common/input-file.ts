/**
 * One input file as the importers see it: decoded text (gzip and UTF-16/BOM handled), a head for
 * sniffing, and a byte stream for the formats that must be streamed (Kineto traces over V8's string limit).
 */
import { closeSync, createReadStream, openSync, readSync, statSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { Readable } from 'node:stream';
import { createGunzip, gunzipSync } from 'node:zlib';
import { InputError, systemErrorText } from '../../errors.js';

export const SNIFF_BYTES = 64 * 1024;
/** Files above this are never read whole into one string; streaming importers must be used. */
export const MAX_TEXT_BYTES = 256 * 1024 * 1024;

export interface InputFile {
  path: string;
  /** Decoded text of the first SNIFF_BYTES (after gunzip). */
  head: string;
  gzip: boolean;
  sizeBytes: number;
  /** The whole file as text; throws InputError when it is too large for that. */
  text(): Promise<string>;
  /** The (decompressed) bytes as a stream. */
  stream(): Readable;
  /**
   * The same bytes read into one reused buffer, where the file allows it (plain UTF-8 on disk): each
   * chunk is valid only until the next is asked for, so a reader keeps a copy of what it needs
   * later. Fresh buffers per chunk are freed only by a later garbage collection, which lets a
   * gigabyte of input hold tens of MB of dead chunks at a time. `into`: the buffer to read into
   * (the reader's own memory, so that it need not copy the bytes there), or a function that gives
   * it before each read (a reader that puts each chunk after bytes it kept); 1 MiB when not given.
   */
  chunks?(into?: Buffer | (() => Buffer)): AsyncIterable<Buffer>;
  /** The whole (decompressed) file as bytes, for binary formats (SQLite). */
  bytes?(): Promise<Uint8Array>;
}

type Encoding = 'utf8' | 'utf16le' | 'utf16be';

function detectEncoding(bytes: Uint8Array): { encoding: Encoding; bomLength: number } {
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return { encoding: 'utf8', bomLength: 3 };
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return { encoding: 'utf16le', bomLength: 2 };
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return { encoding: 'utf16be', bomLength: 2 };
  // UTF-16 without a BOM: every other byte of ASCII text is zero.
  if (bytes.length >= 4 && bytes[1] === 0 && bytes[3] === 0 && bytes[0] !== 0) return { encoding: 'utf16le', bomLength: 0 };
  if (bytes.length >= 4 && bytes[0] === 0 && bytes[2] === 0 && bytes[1] !== 0) return { encoding: 'utf16be', bomLength: 0 };
  return { encoding: 'utf8', bomLength: 0 };
}

export function decodeBytes(bytes: Uint8Array): string {
  const { encoding, bomLength } = detectEncoding(bytes);
  const body = bytes.subarray(bomLength);
  if (encoding === 'utf16be') {
    const swapped = Buffer.from(body.subarray(0, body.length - (body.length % 2)));
    swapped.swap16();
    return swapped.toString('utf16le');
  }
  return Buffer.from(body.buffer, body.byteOffset, body.byteLength).toString(encoding);
}

/**
 * The bytes as UTF-8 without a BOM, as the streaming importers expect them: a trace saved by a
 * Windows tool (UTF-16, or UTF-8 with a BOM) reads like the original. Offsets in errors are then
 * offsets into the UTF-8 text.
 */
async function* asUtf8(source: AsyncIterable<Buffer>, encoding: Encoding, bomLength: number): AsyncGenerator<Buffer> {
  const decoder = encoding === 'utf8' ? undefined : new TextDecoder(encoding === 'utf16le' ? 'utf-16le' : 'utf-16be', { ignoreBOM: true });
  let skip = bomLength;
  let bytes = 0;
  for await (const chunk of source) {
    let piece = chunk;
    if (skip > 0) {
      const n = Math.min(skip, piece.length);
      piece = piece.subarray(n);
      skip -= n;
    }
    if (!decoder) {
      if (piece.length) yield piece;
      continue;
    }
    bytes += piece.length;
    const text = decoder.decode(piece, { stream: true });
    if (text) yield Buffer.from(text, 'utf8');
  }
  // A lone last byte of UTF-16 is dropped, as decodeBytes drops it, not read as U+FFFD.
  const rest = bytes % 2 === 1 ? undefined : decoder?.decode();
  if (rest) yield Buffer.from(rest, 'utf8');
}

export function isGzip(bytes: Uint8Array): boolean {
  return bytes[0] === 0x1f && bytes[1] === 0x8b;
}

/** The first `length` bytes of a file (fewer when it is shorter). */
export async function readPrefix(path: string, length: number): Promise<Buffer> {
  const handle = await open(path, 'r');
  try {
    const buffer = Buffer.alloc(length);
    const { bytesRead } = await handle.read(buffer, 0, length, 0);
    return buffer.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}

/** First `length` decompressed bytes of a gzip file, without inflating the rest. */
async function gunzipPrefix(path: string, length: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let total = 0;
  const source = createReadStream(path).pipe(createGunzip());
  try {
    for await (const chunk of source as AsyncIterable<Buffer>) {
      chunks.push(chunk);
      total += chunk.length;
      if (total >= length) break;
    }
  } catch (error) {
    if (total === 0) throw new InputError(path, `expected a readable gzip file (${(error as Error).message})`);
  } finally {
    source.destroy();
  }
  return Buffer.concat(chunks).subarray(0, length);
}

/** A file that exists but cannot be read (no permission, an I/O error): one line naming it. */
function unreadable(path: string, error: unknown): InputError {
  return new InputError(path, `cannot read the file (${systemErrorText(error)}); expected a capture file that this user may read`);
}

export async function openInput(path: string): Promise<InputFile> {
  let sizeBytes: number;
  try {
    const info = statSync(path);
    if (!info.isFile()) throw new InputError(path, 'expected a file, found a directory or special file');
    sizeBytes = info.size;
  } catch (error) {
    if (error instanceof InputError) throw error;
    throw new InputError(path, `cannot read the file (${systemErrorText(error)})`);
  }
  let prefix: Buffer;
  try {
    prefix = await readPrefix(path, SNIFF_BYTES);
  } catch (error) {
    throw unreadable(path, error);
  }
  const gzip = isGzip(prefix);
  const headBytes = gzip ? await gunzipPrefix(path, SNIFF_BYTES) : prefix;
  const head = decodeBytes(headBytes);
  const { encoding, bomLength } = detectEncoding(headBytes);
  return {
    path,
    head,
    gzip,
    sizeBytes,
    async bytes() {
      const { readFile } = await import('node:fs/promises');
      const raw = await readFile(path);
      if (!gzip) return raw;
      try {
        return gunzipSync(raw, { maxOutputLength: 2 * MAX_TEXT_BYTES });
      } catch (error) {
        throw new InputError(path, `expected a complete gzip stream (${(error as Error).message})`);
      }
    },
    async text() {
      if (!gzip && sizeBytes > MAX_TEXT_BYTES) {
        throw new InputError(path, `file is ${sizeBytes} bytes; text formats are read up to ${MAX_TEXT_BYTES} bytes`);
      }
      const { readFile } = await import('node:fs/promises');
      const raw = await readFile(path).catch((error: unknown) => {
        throw unreadable(path, error);
      });
      let bytes: Buffer;
      if (gzip) {
        try {
          bytes = gunzipSync(raw, { maxOutputLength: MAX_TEXT_BYTES });
        } catch (error) {
          throw new InputError(path, `expected a complete gzip stream (${(error as Error).message})`);
        }
      } else {
        bytes = raw;
      }
      return decodeBytes(bytes);
    },
    ...(!gzip && encoding === 'utf8' && bomLength === 0 ? { chunks: (into?: Buffer | (() => Buffer)) => reusedChunks(path, into) } : {}),
    stream() {
      const raw = createReadStream(path, { highWaterMark: 1 << 20 });
      let bytes: Readable = raw;
      if (gzip) {
        const gunzip = createGunzip({ chunkSize: 1 << 20 });
        raw.on('error', (error) => gunzip.destroy(error));
        bytes = raw.pipe(gunzip);
      }
      if (encoding === 'utf8' && bomLength === 0) return gzip ? Readable.from(bytes) : raw;
      return Readable.from(asUtf8(bytes, encoding, bomLength));
    },
  };
}

/**
 * How long reading goes on without letting timers run (the analyze time budget's among them): reads
 * are synchronous, so the event loop turns only when the reader yields to it.
 */
const YIELD_EVERY_MS = 10;

/**
 * The file's bytes read 1 MiB (or `into`'s length) at a time into one buffer (InputFile.chunks).
 * Synchronous reads: a reader that consumes each chunk before asking for the next cannot overlap
 * them with its work, and an asynchronous read only adds a trip through the thread pool and an
 * idle main thread per chunk. Every YIELD_EVERY_MS the reading yields to the event loop, so that
 * a timer (the analysis budget aborting its signal) still stops it within a chunk or two.
 */
async function* reusedChunks(path: string, into?: Buffer | (() => Buffer)): AsyncGenerator<Buffer> {
  const fd = openSync(path, 'r');
  try {
    const own = typeof into === 'function' ? undefined : (into ?? Buffer.allocUnsafe(1 << 20));
    let yielded = performance.now();
    for (;;) {
      const buffer = own ?? (into as () => Buffer)();
      const bytesRead = readSync(fd, buffer, 0, buffer.length, null);
      if (bytesRead === 0) return;
      yield buffer.subarray(0, bytesRead);
      if (performance.now() - yielded >= YIELD_EVERY_MS) {
        await new Promise<void>((resolve) => setImmediate(resolve));
        yielded = performance.now();
      }
    }
  } finally {
    closeSync(fd);
  }
}

/** An in-memory input, for tests and for stdin. */
export function inputFromText(path: string, text: string): InputFile {
  return {
    path,
    head: text.slice(0, SNIFF_BYTES),
    gzip: false,
    sizeBytes: Buffer.byteLength(text),
    text: async () => text,
    stream: () => Readable.from([Buffer.from(text)]),
    bytes: async () => Buffer.from(text),
  };
}
