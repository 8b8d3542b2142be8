import { deflateRawSync } from 'node:zlib';
import { crc32, readZipEntries, ZipError } from '../../src/engine/zip-reader.js';
import { writeZip } from '../helpers/fake-github-zip.js';

/** A zip with deflated entries, as upload-artifact writes them (the fake's writer only stores). */
function deflatedZip(files: Record<string, Buffer>, lie?: { size?: number }): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const [name, data] of Object.entries(files)) {
    const packed = deflateRawSync(data);
    const nameBytes = Buffer.from(name);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(8, 8);
    local.writeUInt32LE(crc32(data), 14);
    local.writeUInt32LE(packed.length, 18);
    local.writeUInt32LE(lie?.size ?? data.length, 22);
    local.writeUInt16LE(nameBytes.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(8, 10);
    central.writeUInt32LE(crc32(data), 16);
    central.writeUInt32LE(packed.length, 20);
    central.writeUInt32LE(lie?.size ?? data.length, 24);
    central.writeUInt16LE(nameBytes.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(local, nameBytes, packed);
    centrals.push(central, nameBytes);
    offset += 30 + nameBytes.length + packed.length;
  }
  const size = centrals.reduce((n, b) => n + b.length, 0);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(Object.keys(files).length, 8);
  end.writeUInt16LE(Object.keys(files).length, 10);
  end.writeUInt32LE(size, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, ...centrals, end]);
}

const isReport = (name: string) => name === 'report.json' || name.endsWith('/report.json');

describe('readZipEntries', () => {
  it('computes the standard CRC-32', () => {
    // The check value of CRC-32/ISO-HDLC for "123456789" is 0xCBF43926.
    expect(crc32(Buffer.from('123456789'))).toBe(0xcbf43926);
  });

  it('reads stored and deflated entries, only the ones asked for', () => {
    const report = Buffer.from(JSON.stringify({ hello: 'x'.repeat(5000) }));
    const stored = readZipEntries(writeZip({ 'report.json': report, 'trace.json': 'big' }), isReport, 1 << 20);
    expect(stored).toEqual([{ name: 'report.json', data: report }]);
    const deflated = readZipEntries(deflatedZip({ 'profile-gate/report.json': report, 'profile-gate/report.md': Buffer.from('# r') }), isReport, 1 << 20);
    expect(deflated.map((e) => e.name)).toEqual(['profile-gate/report.json']);
    expect(deflated[0]!.data.equals(report)).toBe(true);
  });

  it('refuses an entry larger than the cap, as declared or as inflated (a zip bomb)', () => {
    const big = Buffer.alloc(200_000, 0x20);
    expect(() => readZipEntries(deflatedZip({ 'report.json': big }), isReport, 100_000)).toThrow(/200000 bytes uncompressed; expected at most 100000/);
    // The directory claims 10 bytes; inflating stops at the cap instead of producing 200 kB.
    expect(() => readZipEntries(deflatedZip({ 'report.json': big }, { size: 10 }), isReport, 100_000)).toThrow(ZipError);
  });

  it('refuses corrupt data, truncated archives and non-zips with a reason', () => {
    const zip = writeZip({ 'report.json': '{"a":1}' });
    const flipped = Buffer.from(zip);
    flipped[30 + 'report.json'.length] ^= 0xff;
    expect(() => readZipEntries(flipped, isReport, 1000)).toThrow(/CRC-32 mismatch/);
    expect(() => readZipEntries(zip.subarray(0, 20), isReport, 1000)).toThrow(/not a zip archive/);
    expect(() => readZipEntries(Buffer.from('PK not really a zip, just text that is long enough'), isReport, 1000)).toThrow(/no end-of-central-directory/);
    const badOffset = Buffer.from(zip);
    badOffset.writeUInt32LE(zip.length + 100, zip.length - 22 + 16);
    expect(() => readZipEntries(badOffset, isReport, 1000)).toThrow(/runs past the end/);
  });
});
