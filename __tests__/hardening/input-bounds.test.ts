/**
 * Inputs built to make the analysis do unbounded work or blame the wrong thing: a nesting bomb in
 * a gzip, a damaged gzip, two traceEvents arrays, a kernel name with a NUL, an analysis past its
 * time budget, files that cannot be read.
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, copyFileSync, existsSync, mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { ingestFile } from '../../src/ingest/registry.js';
import { MAX_NESTING } from '../../src/ingest/formats/kineto/json-element.js';
import { cli } from '../helpers/cli.js';
import { REPO } from '../runner/stand-ins.js';
import { refusal, scratchFiles } from '../helpers/input-files.js';
import { ncuCommand } from '../../src/diagnose/profile-measures.js';

const { dir, file } = scratchFiles('pg-input-bounds-');


describe('a nesting bomb', () => {
  it('`[` after `[` inside a skipped event: refused at the bracket past the limit, not at the end of the file', async () => {
    const prefix = '{"traceEvents": [{"ph": "X", "cat": "python_function", "name": "f", "args": {"x": ';
    // 1 MB of gzip inflating to 64 MB; the 2 GB of the field report only take longer.
    const bomb = gzipSync(Buffer.concat([Buffer.from(prefix), Buffer.alloc(64 << 20, '[')]), { level: 9 });
    const error = await refusal(file('bomb.trace.json.gz', bomb));
    // The event's own `{` and args' `{` are two levels: the limit is passed at the (MAX_NESTING - 1)th `[`.
    const at = prefix.length + MAX_NESTING - 2;
    expect(error.message).toBe(`${join(dir, 'bomb.trace.json.gz')}:byte ${at}: expected JSON nested at most ${MAX_NESTING} deep, got nesting deeper than ${MAX_NESTING}`);
  });

  it('real nesting of a few levels is read as before', async () => {
    const events = [{ ph: 'X', cat: 'kernel', name: 'k', pid: 0, tid: 7, ts: 1, dur: 2, args: { device: 0, stream: 7, deep: [[[[[[[[1]]]]]]]] } }];
    const capture = await ingestFile(file('nested.json', JSON.stringify({ traceEvents: events })));
    expect(capture.kernels.map((k) => [k.name, k.totalNs])).toEqual([['k', 2000]]);
  });
});

describe('a damaged gzip', () => {
  it('a wrong checksum is called a decompression error, with how far the JSON got', async () => {
    const whole = gzipSync(JSON.stringify({ traceEvents: Array.from({ length: 20000 }, (_, i) => ({ ph: 'X', cat: 'kernel', name: `k${i % 7}`, pid: 0, tid: 7, ts: i * 10, dur: 5, args: { device: 0 } })) }));
    const damaged = Buffer.from(whole);
    // The CRC-32 of the trailer (the 8 bytes before the size): the JSON inflates whole, the check fails.
    damaged.writeUInt8(damaged.readUInt8(damaged.length - 6) ^ 0xff, damaged.length - 6);
    const error = await refusal(file('damaged.trace.json.gz', damaged));
    expect(error.message).toMatch(/damaged\.trace\.json\.gz:byte \d+: expected a complete gzip stream, got "gunzip: incorrect data check" after \d+ bytes of JSON$/);
  });
});

describe('a time budget for analyze', () => {
  /** A Kineto trace of some 30 MB: a few seconds to read, far past a 50 ms budget. */
  function bigTrace(): string {
    const events: string[] = [];
    for (let i = 0; i < 200_000; i += 1) events.push(`{"ph":"X","cat":"kernel","name":"k${i % 50}","pid":0,"tid":7,"ts":${i * 10},"dur":5,"args":{"device":0,"stream":7,"grid":[1,1,1],"block":[128,1,1]}}`);
    return file('big.trace.json', `{"schemaVersion":1,"traceEvents":[\n${events.join(',\n')}\n]}\n`);
  }

  it('--timeout stops it with exit 2 and one line naming the file being read', async () => {
    const big = bigTrace();
    const small = file('metrics.jsonl', '{"metric": "decode_tok_s", "value": 100}\n');
    const started = Date.now();
    // The big trace first: on a busy machine 50 ms can pass while a small file is read, and the
    // file named must be the one being read whatever the load (the small one after it is never reached).
    const r = await cli(['analyze', '--timeout', '0.05', big, small]);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(`profile-gate: ${big}: expected the analysis to finish within 0.05 s (the analyze time budget); it was stopped while reading this file\n`);
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it('an analysis within its budget is unchanged', async () => {
    const small = file('metrics-ok.jsonl', '{"metric": "decode_tok_s", "value": 100}\n');
    const r = await cli(['analyze', '--timeout', '30', '--json', '-', small]);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).metrics[0].samples).toEqual([100]);
  });

  it('a bad --timeout is a usage error', async () => {
    const r = await cli(['analyze', '--timeout', '5m', 'x.json']);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe('profile-gate: --timeout: expected a positive number of seconds, got "5m"\n');
  });
});

/**
 * Files this user may not read. Root ignores mode bits, so as root the CLI (the bundle, as shipped)
 * runs as `nobody` (uid 65534, through spawn's uid/gid); as any other user it runs as that user.
 */
describe('unreadable inputs', () => {
  const linux = process.platform === 'linux';
  const itLinux = linux ? it : it.skip;
  const asUser = process.getuid?.() === 0 ? { uid: 65534, gid: 65534 } : {};

  /**
   * What `nobody` runs: node and the CLI bundle (dist/cli, with the sql.js file it may load from
   * dist/), each where it is when every folder above it is open to others, else copied into one
   * open temporary folder. Node from npx lives in root's closed npm cache; a clone made in a
   * private folder (mode 700) closes dist/ the same way.
   */
  let reachable: { node: string; entry: string; copies?: string } | undefined;
  afterAll(() => {
    if (reachable?.copies) rmSync(reachable.copies, { recursive: true, force: true });
  });
  function openToOthers(path: string): boolean {
    for (let dir = dirname(path); dir !== dirname(dir); dir = dirname(dir)) if ((statSync(dir).mode & 0o001) === 0) return false;
    return true;
  }
  function forUser(): { node: string; entry: string } {
    if (reachable) return reachable;
    const entry = join(REPO, 'dist', 'cli', 'index.js');
    if (!existsSync(entry)) throw new Error(`${entry} is missing: run 'npm run build' first`);
    if (!asUser.uid) return (reachable = { node: process.execPath, entry });
    const nodeOpen = openToOthers(process.execPath);
    const entryOpen = openToOthers(entry);
    if (nodeOpen && entryOpen) return (reachable = { node: process.execPath, entry });
    const copies = mkdtempSync(join(tmpdir(), 'pg-as-nobody-'));
    chmodSync(copies, 0o755);
    reachable = { node: process.execPath, entry, copies };
    if (!nodeOpen) {
      reachable.node = join(copies, 'node');
      copyFileSync(process.execPath, reachable.node);
      chmodSync(reachable.node, 0o755);
    }
    if (!entryOpen) {
      const cliDir = join(copies, 'dist', 'cli');
      mkdirSync(cliDir, { recursive: true });
      chmodSync(join(copies, 'dist'), 0o755);
      chmodSync(cliDir, 0o755);
      const files = [join('cli', 'index.js'), join('cli', 'package.json'), 'sql-wasm-inline.cjs'].filter((name) => existsSync(join(REPO, 'dist', name)));
      for (const name of files) {
        copyFileSync(join(REPO, 'dist', name), join(copies, 'dist', name));
        chmodSync(join(copies, 'dist', name), 0o644);
      }
      reachable.entry = join(cliDir, 'index.js');
    }
    return reachable;
  }

  function cliAs(args: string[]): { status: number | null; stderr: string } {
    const { node, entry } = forUser();
    const result = spawnSync(node, [entry, ...args], { ...asUser, encoding: 'utf8', cwd: tmpdir() });
    if (result.error) throw result.error;
    return { status: result.status, stderr: result.stderr };
  }

  function openFolder(): string {
    const folder = mkdtempSync(join(tmpdir(), 'pg-unreadable-'));
    chmodSync(folder, 0o755);
    return folder;
  }

  itLinux('a file: exit 2 and one line naming it', () => {
    const folder = openFolder();
    const path = join(folder, 'secret.jsonl');
    writeFileSync(path, '{"metric": "decode_tok_s", "value": 100}\n');
    chmodSync(path, 0o000);
    const r = cliAs(['analyze', path]);
    expect(r.stderr).toBe(`profile-gate: ${path}: cannot read the file (permission denied); expected a capture file that this user may read\n`);
    expect(r.status).toBe(2);
  });

  itLinux('a folder: exit 2 and one line naming it', () => {
    const folder = openFolder();
    const inner = join(folder, 'captures');
    mkdirSync(inner);
    writeFileSync(join(inner, 'a.jsonl'), '{"metric": "decode_tok_s", "value": 100}\n');
    chmodSync(inner, 0o000);
    const r = cliAs(['analyze', folder]);
    expect(r.stderr).toBe(`profile-gate: ${inner}: cannot read the folder (permission denied); expected a folder of capture files that this user may list\n`);
    expect(r.status).toBe(2);
  });
});

describe('one bogus timestamp in a Kineto trace', () => {
  const event = (name: string, ts: string) => `{"ph":"X","cat":"kernel","name":"${name}","pid":0,"tid":7,"ts":${ts},"dur":5,"args":{"device":0,"stream":7}}`;
  function trace(bogusTs: string, at: number): { text: string; offsets: number[] } {
    const events = Array.from({ length: 6 }, (_, i) => event(`k${i}`, String(1000 + i * 10)));
    events.splice(at, 0, event('bogus', bogusTs));
    const head = '{"traceEvents":[\n';
    const offsets: number[] = [];
    let offset = head.length;
    for (const text of events) {
      offsets.push(offset);
      offset += text.length + 2;
    }
    return { text: `${head}${events.join(',\n')}\n]}\n`, offsets };
  }

  it.each([['1e30', 3], ['-1e30', 3], ['9007199254740993', 5]])('ts %s: refused at the event\'s byte, naming the first timed event', async (ts, at) => {
    const { text, offsets } = trace(ts, at);
    const path = file(`bogus-ts-${at}-${ts.length}.json`, text);
    const error = await refusal(path);
    expect(error.message).toBe(`${path}:byte ${offsets[at]}: expected a timestamp within 30 days of the first timed event (ts 1000 µs, at byte ${offsets[0]}), got ts ${Number(ts)} µs`);
    expect(error.message).not.toContain('spanNs');
  });

  it('the first event bogus: the message names it as the event measured from', async () => {
    const { text, offsets } = trace('1e30', 0);
    const path = file('bogus-first.json', text);
    const error = await refusal(path);
    expect(error.message).toBe(`${path}:byte ${offsets[1]}: expected a timestamp within 30 days of the first timed event (ts 1e+30 µs, at byte ${offsets[0]}), got ts 1000 µs`);
  });
});

describe('two traceEvents arrays in one file', () => {
  it('is refused at the second one: summing both (or keeping either) would be a guess', async () => {
    const one = '{"ph":"X","cat":"kernel","name":"k","pid":0,"tid":7,"ts":1,"dur":2,"args":{"device":0}}';
    const text = `{"traceEvents": [${one}], "traceEvents": [${one}]}`;
    const error = await refusal(file('twice.json', text));
    expect(error.message).toBe(`${join(dir, 'twice.json')}:byte ${text.lastIndexOf('[')}: expected one "traceEvents" array, got a second one`);
  });
});

describe('a NUL in a kernel name', () => {
  it('is written \\x00 in the suggested ncu regex, which matches the name', () => {
    const name = 'fused_rmsnorm\u0000kernel_v2';
    const command = ncuCommand(name, 3, 'python serve.py');
    expect(command).toContain("--kernel-name regex:'fused_rmsnorm\\x00kernel_v2' ");
    expect(command).not.toMatch(/[\u0000-\u001f]/);
    const regex = /--kernel-name regex:'([^']*)'/.exec(command)![1]!;
    expect(new RegExp(regex).test(name)).toBe(true);
    expect(new RegExp(regex).test('fused_rmsnorm kernel_v2')).toBe(false);
  });
});
