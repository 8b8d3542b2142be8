/**
 * Text captures read line by line from the byte stream (text-lines.ts, csv-records.ts): the lines are
 * the ones a whole-file read splits, whatever the encoding, compression or chunk boundaries, and CSV
 * records are the ones csv-parse reads, quoted line breaks and malformed quoting included.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { parse } from 'csv-parse/sync';
import { InputError } from '../../src/errors.js';
import { CsvRecordReader } from '../../src/ingest/common/csv-records.js';
import { cutColumns, dashedSpans } from '../../src/ingest/common/text-tables.js';
import { runImporter } from '../../src/ingest/common/importer.js';
import { openInput } from '../../src/ingest/common/input-file.js';
import nsysStats from '../../src/ingest/formats/nsys-stats.js';
import rocprofCsv from '../../src/ingest/formats/rocprof-csv.js';
import { lineBatches } from '../../src/ingest/common/text-lines.js';
import { splitLines } from '../../src/ingest/common/text-tables.js';
import { writeTempFile } from './profiler-temp-file.js';

const fixtures = fileURLToPath(new URL('../fixtures/', import.meta.url));
const healthy = readFileSync(join(fixtures, 'nsys', 'nsys_healthy_kern_sum.csv'), 'utf8');

async function linesOf(path: string): Promise<string[]> {
  const lines: string[] = [];
  for await (const batch of lineBatches(await openInput(path))) lines.push(...batch);
  return lines;
}

function writeBytes(name: string, bytes: Buffer): string {
  const path = writeTempFile(name, '');
  writeFileSync(path, bytes);
  return path;
}

const utf16be = (text: string) => Buffer.from(text, 'utf16le').swap16();

describe('lineBatches', () => {
  // A line of 1,048,570 characters puts the CRLF after it across the 1 MiB read boundary.
  const long = 'x'.repeat((1 << 20) - 6);
  const text = `a,b\r\n${long}\r\nü€😀 line\n\n  \r\nlast line without a newline`;

  test.each([
    ['plain UTF-8', Buffer.from(text)],
    ['UTF-8 with a BOM', Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(text)])],
    ['UTF-16 LE with a BOM', Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')])],
    ['UTF-16 BE with a BOM', Buffer.concat([Buffer.from([0xfe, 0xff]), utf16be(text)])],
    ['gzip', gzipSync(Buffer.from(text))],
  ])('%s: the lines of a whole-file read', async (name, bytes) => {
    const lines = await linesOf(writeBytes(`lines-${name.replace(/\W+/g, '-')}.txt`, bytes));
    expect(lines).toEqual(splitLines(text));
    // Independently: 5 line breaks, the last line unterminated.
    expect(lines).toHaveLength(6);
    expect(lines[1]).toHaveLength(long.length);
    expect(lines[2]).toBe('ü€😀 line');
  });

  test('a lone last byte of UTF-16 is dropped, as in a whole-file read', async () => {
    const body = Buffer.from('ab\ncd\n', 'utf16le');
    const path = writeBytes('odd.txt', Buffer.concat([Buffer.from([0xff, 0xfe]), body, Buffer.from([0x41])]));
    expect(await linesOf(path)).toEqual(splitLines(await (await openInput(path)).text()));
    expect(await linesOf(path)).toEqual(['ab', 'cd']);
  });

  test('a line split inside a multi-byte character at a chunk boundary decodes whole', async () => {
    // '€' is 3 bytes in UTF-8; put its first byte at the last position of the first 1 MiB chunk.
    const head = 'y'.repeat((1 << 20) - 1);
    const lines = await linesOf(writeBytes('euro.txt', Buffer.from(`${head}€z\nnext\n`)));
    expect(lines).toEqual([`${head}€z`, 'next']);
  });

  test('a truncated gzip stream is an InputError naming the file', async () => {
    const zipped = gzipSync(Buffer.from(healthy.repeat(200)));
    const path = writeBytes('cut.csv.gz', zipped.subarray(0, Math.floor(zipped.length * 0.6)));
    await expect(runImporter(nsysStats, await openInput(path))).rejects.toThrow(InputError);
    await expect(runImporter(nsysStats, await openInput(path))).rejects.toThrow(`${path}: expected a complete gzip stream`);
  });
});

describe('CsvRecordReader', () => {
  const read = (text: string) => {
    const reader = new CsvRecordReader('t.csv');
    const records = splitLines(text).flatMap((line, i) => reader.add(line, i + 1) ?? []);
    reader.end();
    return records;
  };
  const csvParse = (text: string) =>
    (parse(text, { relax_column_count: true, skip_empty_lines: true, record_delimiter: ['\r\n', '\n'] }) as string[][]).filter(
      (record) => !(record.length === 1 && record[0]!.trim() === ''),
    );

  test.each([
    ['plain', 'a,b,c\n1,2,3\n'],
    ['quoted commas and quotes', '"a, b","say ""hi""",c\n'],
    ['a quoted line break', 'name,n\n"kernel<a,\n b>",1\nk2,2\n'],
    ['a quoted blank line', 'name,n\n"k\n\nx",1\n'],
    ['blank and whitespace-only lines', 'a,b\n\n  \n""\n1,2\n'],
    ['empty fields', ',,\n"",x,\n'],
  ])('%s: the records csv-parse reads', (_, text) => {
    expect(read(text).map((r) => r.fields)).toEqual(csvParse(text));
  });

  test('a record names the line it ends on', () => {
    expect(read('name,n\n"a\nb",1\nc,2\n').map((r) => r.line)).toEqual([1, 3, 4]);
  });

  test.each([
    ['a quote inside an unquoted field', 'a,b\n1,x"y\n', 2, 'Invalid Opening Quote'],
    ['text after a closing quote', 'a,b\n1,"x"y\n', 2, 'Invalid Closing Quote'],
    ['a quote left open to the end', 'a,b\n1,"x\n2,3\n', 3, 'Quote Not Closed'],
  ])('%s: an InputError with csv-parse’s reason and the line', (_, text, line, reason) => {
    expect(() => read(text)).toThrow(new InputError('t.csv', `expected well-formed CSV (${reason})`, String(line)));
    expect(() => csvParse(text)).toThrow(reason);
  });
});

describe('nsys and rocprof CSV read as a stream', () => {
  test('an nsys kernel name quoted over two lines reads as one kernel', async () => {
    const text = 'Time (%),Total Time (ns),Instances,Name\n60.0,300,3,"kernel<a,\n b>"\n40.0,200,2,k2\n';
    const capture = await runImporter(nsysStats, await openInput(writeTempFile('two-line-name.csv', text)));
    expect(capture.kernels).toEqual([
      { name: 'kernel<a,\n b>', totalNs: 300, instances: 3 },
      { name: 'k2', totalNs: 200, instances: 2 },
    ]);
  });

  test('in one nsys table, malformed quoting is named before a short row above it', async () => {
    const lines = healthy.split('\n');
    lines[5] = lines[5]!.split(',').slice(0, 3).join(',');
    lines[8] = lines[8]!.replace(/,([^,]*)$/, ',x"$1');
    const path = writeTempFile('short-then-quote.csv', lines.join('\n'));
    await expect(runImporter(nsysStats, await openInput(path))).rejects.toThrow(`${path}:9: expected well-formed CSV (Invalid Opening Quote)`);
  });

  test('a short nsys row is named before a bad number above it in another table', async () => {
    const first = healthy.split('\n');
    first[4] = first[4]!.replace(/^([\d.]+),(\d+),/, '$1,90x51826,');
    const second = healthy.split('\n');
    second[7] = second[7]!.split(',').slice(0, 3).join(',');
    // The second copy starts on line 27: its header is line 29, its fifth row line 34.
    const path = writeTempFile('number-then-short.csv', first.join('\n') + second.join('\n'));
    await expect(runImporter(nsysStats, await openInput(path))).rejects.toThrow(`${path}:34: expected 9 fields as in the header on line 29, got 3 (a truncated or garbled row)`);
  });

  test('a gzipped, UTF-16 rocprof stats file reads like the original', async () => {
    const original = readFileSync(join(fixtures, 'rocprof', 'rocprofv3_docs_hip_api_stats.csv'), 'utf8');
    const variant = gzipSync(Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(original, 'utf16le')]));
    const a = await runImporter(rocprofCsv, await openInput(join(fixtures, 'rocprof', 'rocprofv3_docs_hip_api_stats.csv')));
    const b = await runImporter(rocprofCsv, await openInput(writeBytes('stats.csv.gz', variant)));
    expect({ ...b, source: { ...b.source, path: '' } }).toEqual({ ...a, source: { ...a.source, path: '' } });
    expect(b.apiCalls.length).toBeGreaterThan(0);
  });
});

describe('cutColumns: fixed-width rows against a dashed underline', () => {
  // Layout of nsys's cuda_gpu_kern_sum console table (fixtures/nsys/column_kern_sum_titled.txt), three columns.
  const underline = ' --------  ---------  ----';
  const spans = dashedSpans(underline);
  test('an aligned row is cut at the dashes, the last column running to the end', () => {
    expect(cutColumns('     14.5        496  nvjet_sm90 tst', spans)).toEqual({ cells: ['14.5', '496', 'nvjet_sm90 tst'], offBy: 0 });
  });
  test('a row one character left is read, and says how far off it was', () => {
    expect(cutColumns('    14.5        496  nvjet_sm90 tst', spans)).toEqual({ cells: ['14.5', '496', 'nvjet_sm90 tst'], offBy: 1 });
  });
  test('a row two characters right is read whole', () => {
    expect(cutColumns('       14.5        496  nvjet', spans)).toEqual({ cells: ['14.5', '496', 'nvjet'], offBy: 2 });
  });
  test('a value in the gap between two columns, or in none, is refused', () => {
    expect(cutColumns('     14.5         9  nvjet', spans)).toBeDefined();
    // "9" one character past the first column and one before the second: either could hold it.
    expect(cutColumns('     14.5 9         nvjet', spans)).toBeUndefined();
    // Two values run together, within two characters of neither column.
    expect(cutColumns('     14.5496       nvjet', spans)).toBeUndefined();
    // The name three characters left of its dashes.
    expect(cutColumns('  14.5       496   nvjet', spans)).toBeUndefined();
  });
});
