/**
 * The WebAssembly event tape (kineto/tape.ts) against the JavaScript event reader it stands in for:
 * every event it takes must read as EventFields.read() reads it, and every event it cannot read the
 * same way must be left, at its `{`, to the JavaScript scanner. Whole traces read both ways are
 * compared by bench/kineto-same.mjs; here, the single events at the edges of what the tape takes.
 */
import { categoryOf, CAT_CPU_OP, CAT_KERNEL, CAT_PYTHON, CAT_SKIP } from '../../src/ingest/formats/kineto/categories.js';
import { EventFields, recordDurNs, recordName, recordShape } from '../../src/ingest/formats/kineto/event-reader.js';
import * as T from '../../src/ingest/formats/kineto/tape.js';
import { EventTape, S_CATEGORY, S_END, S_NAME_ID, S_START, SLOTS } from '../../src/ingest/formats/kineto/tape.js';

/** One event's record in the tape's layout, with the bytes its ranges index into. */
interface EventRecord {
  records: Float64Array;
  bytes: Buffer;
  cat?: string;
}

/** The events of `texts` as one traceEvents array's elements, run through the tape from the first `{`. */
function scanAll(texts: string[]): { bytes: Buffer; records: Array<{ category: number; start: number; end: number; fields: EventRecord }>; left: number[] } {
  const bytes = Buffer.from(`[${texts.join(',\n  ')}]`);
  const tape = new EventTape();
  tape.load(bytes);
  const records: Array<{ category: number; start: number; end: number; fields: EventRecord }> = [];
  const left: number[] = [];
  let p = 1;
  while (bytes[p] === 0x7b) {
    const stop = tape.scan(p);
    for (let k = 0; k < tape.count; k++) {
      const at = k * tape.slots;
      // A copy: the next scan writes over the tape's records.
      const fields = { records: tape.records.slice(at, at + SLOTS), bytes };
      records.push({ category: tape.records[at + S_CATEGORY]!, start: tape.records[at + S_START]!, end: tape.records[at + S_END]!, fields });
    }
    if (tape.stoppedAfterEvent) break;
    // Left to JavaScript: note its start, move past it with the reader, and go on.
    left.push(stop);
    p = new EventFields().read(bytes, stop, bytes.length, true);
    while (bytes[p] === 0x2c || bytes[p] === 0x20 || bytes[p] === 0x0a) p++;
  }
  return { bytes, records, left };
}

/** What the JavaScript reader reads of the event at `start`, as the summary sees it (a record of the tape's layout). */
function readByJs(bytes: Buffer, start: number, wantArgs: boolean): { end: number; fields: EventRecord } {
  const reader = new EventFields();
  const end = reader.read(bytes, start, bytes.length, false, wantArgs);
  const records = new Float64Array(SLOTS);
  reader.write(records, 0);
  return { end, fields: { records, bytes, cat: reader.cat } };
}

function fieldsOf({ records: r, bytes, cat }: EventRecord): Record<string, unknown> {
  const shape = new Float64Array(6);
  recordShape(r, 0, shape);
  return {
    ph: r[T.S_PH],
    cat,
    name: recordName(r, 0, bytes),
    pid: r[T.S_PID],
    tid: r[T.S_TID],
    ts: r[T.S_HAS_TS] === 1 ? [r[T.S_TS_US], r[T.S_TS_FRAC]] : undefined,
    durNs: r[T.S_HAS_DUR] === 1 ? recordDurNs(r, 0) : undefined,
    device: r[T.S_DEVICE],
    stream: r[T.S_STREAM],
    correlation: r[T.S_CORRELATION],
    externalId: r[T.S_EXTERNAL_ID],
    bytes: r[T.S_BYTES],
    inputDims: r[T.S_DIMS_START]! < 0 ? undefined : bytes.toString('utf8', r[T.S_DIMS_START]!, r[T.S_DIMS_END]!),
    shape: [...shape],
  };
}

const KERNEL =
  '{"ph": "X", "cat": "kernel", "name": "void gemm<128, 4>(float*)", "pid": 0, "tid": 7, "ts": 5155819497601.6789, "dur": 464.6, "args": {"External id": 329731, "queued": 0, "device": 0, "stream": 7, "correlation": 4078231, "blocks per SM": 0.121212, "grid": [16,1,1], "block": [256, 1, 1], "est. achieved occupancy %": 2}}';

describe('kineto event tape', () => {
  it('reads each event it takes as the JavaScript reader does, field by field', () => {
    const texts = [
      KERNEL,
      '{"ph": "X", "cat": "cpu_op", "name": "aten::mm", "pid": 469, "tid": 469, "ts": 5155819510721.158, "dur": 34.069, "args": {"External id": 330646, "Input Dims": [[32, 4096], [4096, 4096]], "Ev Idx": 917}}',
      '{"ph": "X", "cat": "python_function", "name": "torch/nn/modules/linear.py(125): forward", "pid": 469, "tid": 469, "ts": 12.5, "dur": 7, "args": {"Python parent id": 811, "device": 3}}',
      '{"ph": "X", "cat": "gpu_memcpy", "name": "Memcpy HtoD (Pageable -> Device)", "pid": 0, "tid": 7, "ts": 100.0005, "dur": 2.9999, "args": {"device": 0, "stream": 7, "correlation": 12, "bytes": 4096, "memory bandwidth (GB/s)": 1.5}}',
      '{"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 469, "tid": 469, "ts": 1, "dur": 0.328, "args": {"External id": 1, "cbid": 211, "correlation": 4078228}}',
      '{"ph": "X", "cat": "user_annotation", "name": "ProfilerStep#3", "pid": 469, "tid": 469, "ts": 1.0, "dur": 1000}',
      '{\n    "ph": "X", "cat": "Kernel", "name": "k\\"quoted\\\\", "pid": 0, "tid": 7, "ts": 1., "dur": 3\n  }',
      // grid and block that are not three numbers: the reader keeps what it read of them.
      '{"ph": "X", "cat": "kernel", "name": "odd dims", "ts": 2, "dur": 3, "args": {"grid": [4, "x", 1], "block": [1, 2, 3, 4]}}',
      // A second name, a ts that is not a number, a dur with many fraction digits, no pid.
      '{"ph": "X", "cat": "kernel", "name": "first", "name": "second", "ts": "late", "dur": 0.12345678, "tid": 7}',
      '{"cat": "cpu_op", "ph": "B", "name": "aten::add", "args": {}}',
      '{"ph": "X", "cat": "cuda_driver", "name": "cuLaunchKernel", "ts": 1, "dur": 1, "args": {"nested": {"a": [1, {"b": "]"}]}, "correlation": 9}}',
      '{"ph": "X", "cat": "gpu_user_annotation", "name": "", "ts": 0, "dur": 0}',
      // Digit runs of every length from 1 to 20, where doubles stop holding every integer.
      ...Array.from({ length: 20 }, (_, k) => {
        const digits = '98765432109876543210'.slice(0, k + 1);
        return `{"ph": "X", "cat": "kernel", "name": "digits", "pid": ${digits}, "tid": 0${digits}, "ts": ${digits}.${digits}, "dur": ${digits}, "args": {"correlation": ${digits}, "grid": [${digits}, 1, 1]}}`;
      }),
      // grid and block as PyTorch writes them (eight digits at most, `,` or `, ` between) and written otherwise.
      '{"ph": "X", "cat": "kernel", "name": "dims", "ts": 1, "dur": 1, "args": {"grid": [12345678, 87654321, 1], "block": [0, 00, 000]}}',
      '{"ph": "X", "cat": "kernel", "name": "dims", "ts": 1, "dur": 1, "args": {"grid": [1,2,3], "block": [1, 2, 3 ]}}',
      '{"ph": "X", "cat": "kernel", "name": "dims", "ts": 1, "dur": 1, "args": {"grid": [1, 2, 3, 4], "block": [5, 6]}}',
      '{"ph": "X", "cat": "kernel", "name": "dims", "ts": 1, "dur": 1, "args": {"grid": [1, 2,  3], "block": [7, 8,9]}}',
      '{"ph": "X", "cat": "kernel", "name": "dims", "ts": 1, "dur": 1, "args": {"grid": [12345678,87654321,12345678], "block": [123456789,1,1]}}',
      '{"ph": "X", "cat": "kernel", "name": "dims", "ts": 1, "dur": 1, "args": {"grid": [1,2, 3], "block": [1 ,2,3]}}',
    ];
    const { bytes, records, left } = scanAll(texts);
    expect(left).toEqual([]);
    expect(records.map((r) => r.category)).toEqual([CAT_KERNEL, CAT_CPU_OP, CAT_PYTHON, 3, 5, 7, CAT_KERNEL, CAT_KERNEL, CAT_KERNEL, CAT_CPU_OP, 6, 8, ...Array<number>(26).fill(CAT_KERNEL)]);
    for (const record of records) {
      const expected = readByJs(bytes, record.start, record.category !== CAT_PYTHON);
      expect(record.end).toBe(expected.end);
      expect(fieldsOf(record.fields)).toEqual(fieldsOf(expected.fields));
    }
    // The values the reader gives, written from the text: the µs fraction's fourth digit rounds.
    expect(fieldsOf(records[0]!.fields)).toMatchObject({ ts: [5155819497601, 679], durNs: 464600, shape: [16, 1, 1, 256, 1, 1], correlation: 4078231, externalId: 329731 });
    expect(fieldsOf(records[2]!.fields)).toMatchObject({ device: NaN, durNs: 7000 }); // a Python event's args are not read
    expect(fieldsOf(records[7]!.fields)).toMatchObject({ shape: [4, NaN, NaN, 1, 2, 3] });
    expect(fieldsOf(records[8]!.fields)).toMatchObject({ name: 'second', ts: undefined, durNs: 123, pid: NaN, tid: 7 });
    expect(fieldsOf(records[19]!.fields)).toMatchObject({ pid: 98765432, tid: 98765432, ts: [98765432, 988], correlation: 98765432 });
    expect(fieldsOf(records[31]!.fields)).toMatchObject({ pid: 98765432109876540000 });
    expect(fieldsOf(records[32]!.fields)).toMatchObject({ shape: [12345678, 87654321, 1, 0, 0, 0] });
    expect(fieldsOf(records[33]!.fields)).toMatchObject({ shape: [1, 2, 3, 1, 2, 3] });
    expect(fieldsOf(records[36]!.fields)).toMatchObject({ shape: [12345678, 87654321, 12345678, 123456789, 1, 1] });
    expect(fieldsOf(records[37]!.fields)).toMatchObject({ shape: [1, 2, 3, 1, 2, 3] });
  });

  it('leaves an event to JavaScript wherever the two could read it differently', () => {
    const odd = [
      '{"ph": "X", "cat": "kernel", "name": "negative ts", "ts": -5.5, "dur": 1}',
      '{"ph": "X", "cat": "kernel", "name": "exponent", "ts": 1e3, "dur": 1}',
      '{"ph": "X", "cat": "kernel", "name": "float pid", "pid": 1.5, "ts": 1, "dur": 1}',
      '{"ph": "X", "c\\u0061t": "kernel", "name": "escaped key", "ts": 1, "dur": 1}',
      '{"ph": "X", "args": {"device": 0}, "cat": "kernel", "name": "args before cat", "ts": 1, "dur": 1}',
      '{"ph": "X", "cat": "ac2g", "cat": "kernel", "name": "two categories", "ts": 1, "dur": 1}',
      '{"ph": "X", "cat": 7, "name": "category not a string", "ts": 1, "dur": 1}',
      '{"ph": "X", "cat": "ac2g", "name": "mismatched brackets", "args": {"a": [1}}}',
      '{"ph": "M", "name": "process_name", "pid": 1, "args": {"name": "no category, args"}}',
      // The reader takes this token whole; the scanner would open a string at its quote.
      '{"ph": "X", "cat": "ac2g", "v": ab"c, "name": "a quote in a token"}',
    ];
    const plain = '{"ph": "X", "cat": "kernel", "name": "plain", "ts": 1, "dur": 1}';
    const texts = odd.flatMap((text) => [plain, text]);
    // The reader must be able to read past each (so the mismatched brackets are balanced for it).
    const { bytes, records, left } = scanAll(texts);
    expect(left.map((at) => bytes.toString('utf8', at, at + 20))).toEqual(odd.map((text) => text.slice(0, 20)));
    expect(records.map((r) => recordName(r.fields.records, 0, r.fields.bytes))).toEqual(odd.map(() => 'plain'));
  });

  it('reads events whose members follow in a learned order as it reads the first of them, and leaves those that depart from it', () => {
    // The tape learns the bytes between one member and the next from the events it reads, then
    // takes them on one compare: events of a repeated shape, then ones that depart from it at one
    // member, after the shape is learned.
    const cpuOp = (i: number, name = 'aten::mm'): string =>
      `{\n    "ph": "X", "cat": "cpu_op", "name": "${name}", "pid": 469, "tid": 469, "ts": 5155819510721.${i % 10}58, "dur": ${i}.069,\n    "args": {\n      "External id": ${330646 + i}, "Record function id": 0, "Ev Idx": ${i}\n    }\n  }`;
    const kernel = (i: number): string =>
      `{\n    "ph": "X", "cat": "kernel", "name": "void gemm<${i}>(float*)", "pid": 0, "tid": 7, "ts": ${1000 + i}.5, "dur": 1.${i},\n    "args": {\n      "External id": ${i}, "device": 0, "stream": 7, "correlation": ${4078231 + i}, "grid": [${i}, 1, 1], "block": [256, 1, 1]\n    }\n  }`;
    const flow = (i: number): string => `{\n    "ph": "f", "id": ${i}, "pid": 0, "tid": 7, "ts": ${i}.5, "cat": "ac2g", "name": "ac2g", "bp": "e"\n  }`;
    const shapes = Array.from({ length: 30 }, (_, i) => [cpuOp(i), kernel(i), flow(i)]).flat();
    const taken = [
      // The same shape, spaced otherwise, or with another key where a learned one stood.
      cpuOp(1).replace('"pid": 469', '"pid":   469').replace('"tid": ', '"tid":'),
      cpuOp(2).replace('"pid"', '"pix"'),
      cpuOp(3).replace('"Ev Idx": 3\n    }', '"Ev Idx": 3, "device": 5\n    }'),
      kernel(4).replace('"stream": 7, ', '').replace('"grid": [4, 1, 1]', '"grid": [4, 2]'),
      cpuOp(5).replace(', "dur": 5.069', ''),
      kernel(6).replace('"cat": "kernel"', '"cat": "gpu_memcpy"').replace('"device": 0', '"bytes": 4096'),
      cpuOp(7, 'k\\"x'),
    ];
    const left = [
      cpuOp(8).replace('"ts": 5155819510721.858', '"ts": -5155819510721.858'),
      cpuOp(9).replace('"pid": 469', '"pid": 4.69'),
      cpuOp(10).replace('"name": "aten::mm"', '"cat": "kernel"'),
      cpuOp(11).replace('"tid"', '"t\\u0069d"'),
      kernel(12).replace('"correlation": 4078243', '"correlation": 4078243e0'),
      flow(13).replace('"ts": 13.5, ', '"args": {"a": 1}, "ts": 13.5, '),
    ];
    const texts = [...shapes, ...taken.flatMap((text, i) => [text, ...shapes.slice(3 * i, 3 * i + 3)]), ...left.flatMap((text, i) => [text, ...shapes.slice(3 * i, 3 * i + 3)])];
    const result = scanAll(texts);
    expect(result.left.map((at) => result.bytes.toString('utf8', at, at + 120))).toEqual(left.map((text) => text.slice(0, 120)));
    const kept = texts.filter((text) => !text.includes('"ac2g"') && !left.includes(text));
    expect(result.records).toHaveLength(kept.length);
    for (const record of result.records) {
      const expected = readByJs(result.bytes, record.start, true);
      expect(record.end).toBe(expected.end);
      expect(fieldsOf(record.fields)).toEqual(fieldsOf(expected.fields));
    }
    // Values written from the text of the departing events.
    const byName = (name: string) => result.records.map((r) => fieldsOf(r.fields)).filter((fields) => fields['name'] === name);
    expect(byName('aten::mm')).toContainEqual(expect.objectContaining({ pid: 469, tid: 469, externalId: 330647 }));
    expect(byName('aten::mm')).toContainEqual(expect.objectContaining({ pid: NaN, tid: 469, externalId: 330648 }));
    expect(byName('aten::mm')).toContainEqual(expect.objectContaining({ device: 5, externalId: 330649 }));
    expect(byName('aten::mm')).toContainEqual(expect.objectContaining({ durNs: undefined, externalId: 330651 }));
    expect(byName('void gemm<4>(float*)')).toContainEqual(expect.objectContaining({ stream: NaN, shape: [4, 2, NaN, 256, 1, 1] }));
    expect(byName('void gemm<6>(float*)')).toContainEqual(expect.objectContaining({ device: NaN, bytes: 4096 }));
    expect(byName('k"x')).toEqual([expect.objectContaining({ externalId: 330653 })]);
  });

  it('takes what follows a member over more than 32 bytes (PyTorch spaces its kernel args so) only where every byte of it matches', () => {
    // 38 bytes from a value's end to the next value: `,` 22 spaces `"correlation": `. Learned from
    // the first kernels, then taken where all 38 match, and not where a byte past the first 32
    // differs (the key then is another, whose value is not the correlation).
    const gap = ' '.repeat(22);
    const kernel = (i: number, key = 'correlation'): string =>
      `{\n    "ph": "X", "cat": "kernel", "name": "void k<${i}>()", "pid": 0, "tid": 7, "ts": ${1000 + i}.5, "dur": 1.${i},\n    "args": {\n      "External id": ${i},${gap}"${key}": ${4078231 + i}, "stream": 7\n    }\n  }`;
    const texts = [...Array.from({ length: 6 }, (_, i) => kernel(i)), kernel(6, 'correlatioN'), kernel(7), kernel(8, 'correlation_'), kernel(9)];
    const result = scanAll(texts);
    expect(result.left).toEqual([]);
    expect(result.records).toHaveLength(texts.length);
    for (const record of result.records) {
      const expected = readByJs(result.bytes, record.start, true);
      expect(fieldsOf(record.fields)).toEqual(fieldsOf(expected.fields));
    }
    expect(result.records.map((r) => fieldsOf(r.fields)['correlation'])).toEqual([0, 1, 2, 3, 4, 5, NaN, 7, NaN, 9].map((i) => (Number.isNaN(i) ? NaN : 4078231 + i)));
  });

  it('reads events with more distinct keys than it numbers, and keys longer than it keeps, member by member', () => {
    // The tape numbers up to 128 keys and keeps keys of up to 48 bytes; past that, it reads on
    // member by member. Each event here brings new keys, some of them long, around the ones read;
    // `bytes` first comes once the numbers are used up.
    const texts = Array.from({ length: 300 }, (_, i) => {
      const long = `key ${i} ${'x'.repeat(40 + (i % 20))}`;
      const bytes = i >= 200 ? `, "bytes": ${i}` : '';
      return `{"ph": "X", "cat": "kernel", "k${i}": ${i}, "name": "n${i % 7}", "${long}": [${i}], "pid": ${i}, "tid": 7, "ts": ${i}.25, "dur": 1, "args": {"a${i}": "v", "device": ${i % 4}, "${long}": {"x": 1}, "stream": ${i}${bytes}, "correlation": ${i * 3}}}`;
    });
    const { bytes, records, left } = scanAll(texts);
    expect(left).toEqual([]);
    expect(records).toHaveLength(300);
    records.forEach((record, i) => {
      const expected = readByJs(bytes, record.start, true);
      expect(record.end).toBe(expected.end);
      expect(fieldsOf(record.fields)).toEqual(fieldsOf(expected.fields));
      // Written from the text.
      expect(fieldsOf(record.fields)).toMatchObject({ name: `n${i % 7}`, pid: i, device: i % 4, stream: i, correlation: i * 3, ts: [i, 250], bytes: i >= 200 ? i : NaN });
    });
  });

  it('finds the same category as the JavaScript scanner for every name it knows', () => {
    const names = ['kernel', 'Kernel', 'gpu_memcpy', 'Memcpy', 'gpu_memset', 'Memset', 'cuda_runtime', 'Runtime', 'cuda_driver', 'user_annotation', 'gpu_user_annotation', 'cpu_op', 'Operator', 'python_function', 'ac2g', 'kernels', 'cpu_opx', 'Kernel ', 'gpu_memcpY', ''];
    const { records } = scanAll(names.map((name) => `{"cat": "${name}", "ph": "X"}`));
    const expected = names.map((name) => categoryOf(Buffer.from(name), 0, name.length)).filter((category) => category !== CAT_SKIP);
    expect(records.map((r) => r.category)).toEqual(expected);
    expect(expected).toHaveLength(14);
  });

  it('gives equal names one id and different names different ids, across scans', () => {
    const long = 'void gemm_kernel<' + 'float, '.repeat(200);
    // Names of one length that differ in one byte, which a sampled hash may not see.
    const twins = Array.from({ length: 40 }, (_, i) => `${long}${String.fromCharCode(65 + i)}>`);
    const names = [...twins, 'aten::mm', '', 'aten::mm', ...twins.reverse(), 'k\\"x'];
    const tape = new EventTape();
    const ids: number[] = [];
    for (const name of names) {
      const bytes = Buffer.from(`[{"ph": "X", "cat": "kernel", "name": "${name}"}]`);
      tape.load(bytes);
      tape.scan(1);
      ids.push(tape.records[S_NAME_ID]!);
    }
    const idOf = new Map<string, number>();
    names.forEach((name, i) => {
      expect(ids[i]).toBeGreaterThanOrEqual(0);
      if (!idOf.has(name)) idOf.set(name, ids[i]!);
      expect(ids[i]).toBe(idOf.get(name));
    });
    expect(new Set(idOf.values()).size).toBe(idOf.size);
    expect(idOf.size).toBe(43);
    // An event without a name has none.
    const bytes = Buffer.from('[{"ph": "X", "cat": "kernel"}]');
    tape.load(bytes);
    tape.scan(1);
    expect(tape.records[S_NAME_ID]).toBe(-1);
  });

  it('stops at an event that runs past the chunk, and after the last event of the array', () => {
    const { records, left } = scanAll([KERNEL, KERNEL]);
    expect(records).toHaveLength(2);
    expect(left).toEqual([]);
    const cut = Buffer.from(`[${KERNEL}, ${KERNEL}`).subarray(0, KERNEL.length + 40);
    const tape = new EventTape();
    tape.load(cut);
    const stop = tape.scan(1);
    expect(tape.count).toBe(1);
    expect(tape.stoppedAfterEvent).toBe(false);
    expect(stop).toBe(KERNEL.length + 3);
  });
});
