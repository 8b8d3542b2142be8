import { crc32, readZipEntries, ZipError, zipEntries } from '../../src/github/zip-reader.js';
import { deflatedZip, writeZip } from '../helpers/fake-github-zip.js';

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
    // The first byte of the entry's data (after the 30-byte local header and the name); readUInt8 throws past the end.
    const dataAt = 30 + 'report.json'.length;
    flipped.writeUInt8(flipped.readUInt8(dataAt) ^ 0xff, dataAt);
    expect(() => readZipEntries(flipped, isReport, 1000)).toThrow(/CRC-32 mismatch/);
    expect(() => readZipEntries(zip.subarray(0, 20), isReport, 1000)).toThrow(/not a zip archive/);
    expect(() => readZipEntries(Buffer.from('PK not really a zip, just text that is long enough'), isReport, 1000)).toThrow(/no end-of-central-directory/);
    const badOffset = Buffer.from(zip);
    badOffset.writeUInt32LE(zip.length + 100, zip.length - 22 + 16);
    expect(() => readZipEntries(badOffset, isReport, 1000)).toThrow(/runs past the end/);
  });
});

describe('zipEntries: caps on the whole archive', () => {
  const caps = { maxEntries: 100, maxEntryBytes: 1 << 20, maxTotalBytes: 3 << 20 };
  const files = Object.fromEntries(Array.from({ length: 6 }, (_, i) => [`leg-${i}/report.json`, Buffer.alloc(1 << 20, 0x30 + i)]));

  it('stops when the entries read add up past the total cap, having handed over the ones before', () => {
    const seen: string[] = [];
    expect(() => {
      for (const entry of zipEntries(deflatedZip(files), isReport, caps)) seen.push(entry.name);
    }).toThrow(/leg-3\/report\.json: the entries read add up to more than 3145728 bytes uncompressed/);
    expect(seen).toEqual(['leg-0/report.json', 'leg-1/report.json', 'leg-2/report.json']);
  });

  it('refuses a directory with more entries than the cap before reading any', () => {
    expect(() => [...zipEntries(deflatedZip(files), isReport, { ...caps, maxEntries: 5 })]).toThrow(/^6 entries; expected at most 5$/);
  });

  it('refuses two names for one stored body', () => {
    const zip = writeZip({ 'a/report.json': '{"a":1}', 'b/report.json': '{"a":1}' });
    // Point the second central entry at the first local header.
    const second = zip.indexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02]), zip.indexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02])) + 4);
    zip.writeUInt32LE(0, second + 42);
    expect(() => [...zipEntries(zip, isReport, caps)]).toThrow(/b\/report\.json: shares its data at byte 0 with another entry/);
  });

  it('hands over one entry at a time', () => {
    const iterator = zipEntries(deflatedZip(files), isReport, { ...caps, maxTotalBytes: 10 << 20 });
    expect(iterator.next().value!.name).toBe('leg-0/report.json');
    expect(iterator.next().value!.name).toBe('leg-1/report.json');
  });
});
