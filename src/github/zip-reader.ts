/**
 * Reading chosen files out of a zip archive (a downloaded workflow artifact) through its central
 * directory: stored and deflated entries, sizes capped before and while inflating, CRC-32 checked.
 * The archive is untrusted: every offset is bounds-checked, and ZIP64 and encryption are refused.
 * Inflating is node:zlib's; only the directory walk is ours, because the caps must hold per entry,
 * in total and in entry count before any byte is inflated, and the zip libraries on npm either
 * extract to disk (unzip-stream, extract-zip) or trust the declared sizes for their buffers.
 */
import { inflateRawSync } from 'node:zlib';

const END_OF_CENTRAL_DIRECTORY = 0x06054b50;
const CENTRAL_ENTRY = 0x02014b50;
const LOCAL_ENTRY = 0x04034b50;

const CRC_TABLE = (() => {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n += 1) {
    let c = n;
    for (let k = 0; k < 8; k += 1) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
})();

export function crc32(data: Uint8Array): number {
  let c = 0xffffffff;
  for (let i = 0; i < data.length; i += 1) c = CRC_TABLE[(c ^ data[i]!) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

export class ZipError extends Error {
  override name = 'ZipError';
}

export interface ZipEntry {
  name: string;
  data: Buffer;
}

function need(zip: Buffer, at: number, length: number, what: string): void {
  if (at < 0 || at + length > zip.length) throw new ZipError(`${what} at byte ${at} runs past the end of the archive (${zip.length} bytes)`);
}

/** The end-of-central-directory record: within the last 64 KiB + 22 bytes (its comment is at most 64 KiB). */
function findEnd(zip: Buffer): number {
  for (let at = zip.length - 22; at >= Math.max(0, zip.length - 22 - 0xffff); at -= 1) {
    if (zip.readUInt32LE(at) === END_OF_CENTRAL_DIRECTORY) return at;
  }
  throw new ZipError('not a zip archive: no end-of-central-directory record');
}

/** Bounds on what one untrusted archive may make us do. */
export interface ZipCaps {
  /** Entries in the central directory, wanted or not. */
  maxEntries: number;
  /** Uncompressed bytes of one wanted entry, as declared and as inflated. */
  maxEntryBytes: number;
  /** Uncompressed bytes of all wanted entries together. */
  maxTotalBytes: number;
}

/**
 * The entries whose name passes `wanted`, inflated one at a time as the caller asks for the next,
 * so at most one entry's data is held here. Every cap is checked before inflating and while
 * inflating: a small archive cannot inflate into gigabytes, and entries that share one stored
 * body (a directory of 65,000 names pointing at the same data) are refused at the second name.
 */
export function* zipEntries(zip: Buffer, wanted: (name: string) => boolean, caps: ZipCaps): Generator<ZipEntry> {
  if (zip.length < 22) throw new ZipError(`not a zip archive: ${zip.length} bytes`);
  const end = findEnd(zip);
  const count = zip.readUInt16LE(end + 10);
  let at = zip.readUInt32LE(end + 16);
  if (count === 0xffff || at === 0xffffffff) throw new ZipError('ZIP64 archives are not supported');
  if (count > caps.maxEntries) throw new ZipError(`${count} entries; expected at most ${caps.maxEntries}`);
  const bodies = new Set<number>();
  let total = 0;
  for (let i = 0; i < count; i += 1) {
    need(zip, at, 46, 'a central directory entry');
    if (zip.readUInt32LE(at) !== CENTRAL_ENTRY) throw new ZipError(`bad central directory entry at byte ${at}`);
    const flags = zip.readUInt16LE(at + 8);
    const method = zip.readUInt16LE(at + 10);
    const crc = zip.readUInt32LE(at + 16);
    const compressedSize = zip.readUInt32LE(at + 20);
    const size = zip.readUInt32LE(at + 24);
    const nameLength = zip.readUInt16LE(at + 28);
    const extraLength = zip.readUInt16LE(at + 30);
    const commentLength = zip.readUInt16LE(at + 32);
    const localAt = zip.readUInt32LE(at + 42);
    need(zip, at + 46, nameLength, 'an entry name');
    const name = zip.subarray(at + 46, at + 46 + nameLength).toString('utf8');
    at += 46 + nameLength + extraLength + commentLength;
    if (name.endsWith('/') || !wanted(name)) continue;
    if (flags & 1) throw new ZipError(`${name}: encrypted entries are not supported`);
    if (compressedSize === 0xffffffff || size === 0xffffffff) throw new ZipError(`${name}: ZIP64 entries are not supported`);
    if (size > caps.maxEntryBytes) throw new ZipError(`${name}: ${size} bytes uncompressed; expected at most ${caps.maxEntryBytes}`);
    if (total + size > caps.maxTotalBytes) throw new ZipError(`${name}: the entries read add up to more than ${caps.maxTotalBytes} bytes uncompressed; stopped reading`);
    if (bodies.has(localAt)) throw new ZipError(`${name}: shares its data at byte ${localAt} with another entry; a well-formed archive stores each file once`);
    bodies.add(localAt);
    need(zip, localAt, 30, `the local header of ${name}`);
    if (zip.readUInt32LE(localAt) !== LOCAL_ENTRY) throw new ZipError(`${name}: bad local header at byte ${localAt}`);
    const dataAt = localAt + 30 + zip.readUInt16LE(localAt + 26) + zip.readUInt16LE(localAt + 28);
    need(zip, dataAt, compressedSize, `the data of ${name}`);
    const raw = zip.subarray(dataAt, dataAt + compressedSize);
    let data: Buffer;
    if (method === 0) data = Buffer.from(raw);
    else if (method === 8) {
      try {
        data = inflateRawSync(raw, { maxOutputLength: Math.max(1, Math.min(caps.maxEntryBytes, caps.maxTotalBytes - total)) });
      } catch (error) {
        throw new ZipError(`${name}: cannot inflate it within ${Math.min(caps.maxEntryBytes, caps.maxTotalBytes - total)} bytes (${(error as Error).message})`);
      }
    } else throw new ZipError(`${name}: compression method ${method}; expected stored (0) or deflate (8)`);
    if (data.length !== size) throw new ZipError(`${name}: ${data.length} bytes inflated; the directory says ${size}`);
    if (crc32(data) !== crc) throw new ZipError(`${name}: CRC-32 mismatch; the archive is corrupt`);
    total += data.length;
    yield { name, data };
  }
}

/** Every wanted entry at once, for small archives; `maxEntryBytes` bounds each and their sum. */
export function readZipEntries(zip: Buffer, wanted: (name: string) => boolean, maxEntryBytes: number, caps: Partial<ZipCaps> = {}): ZipEntry[] {
  return [...zipEntries(zip, wanted, { maxEntries: 100_000, maxEntryBytes, maxTotalBytes: maxEntryBytes * 4, ...caps })];
}
