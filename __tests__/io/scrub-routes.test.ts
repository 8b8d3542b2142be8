/**
 * Each route by which a secret could leave in a file uploaded with upload-raw-captures, against the
 * scrubber (src/io/scrub-uploads.ts): gzip around binary formats, tokens cut by each boundary the
 * reader uses, encoded forms of a secret value, PGP keys, UTF-16, and SQLite files built to run code
 * (a trigger) or hide text in their schema. The marker is made up; nothing of it may be in what is
 * staged (inflated), in any encoding.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync, gunzipSync } from 'node:zlib';
import { encodedForms, secretsFromEnv } from '../../src/io/secrets.js';
import { MIN_OVERLAP, scrubForUpload, TEXT_CHUNK_BYTES } from '../../src/io/scrub-uploads.js';
import { openDatabaseBytes } from '../../src/ingest/common/sqlite-db.js';
import { REPO } from '../runner/stand-ins.js';

const FIXTURES = join(REPO, '__tests__', 'fixtures', 'h200-secret');
const MARK = 'pgmarker7f3c9a1e5b2d4c6a';
const PASSWORD = 'Grüße/Tr0ub4dor&3<x>pw "q"';
const SECRETS = secretsFromEnv({ HF_TOKEN: `hf_${MARK}`, PG_GATE_SECRET: MARK, DB_PASSWORD: PASSWORD });

/** Every way the marker or the password could still be in bytes: as text, encoded, in UTF-16. */
function holdsSecret(bytes: Buffer): string | undefined {
  const needles = [MARK, ...encodedForms(MARK), ...encodedForms(PASSWORD), 'Tr0ub4dor'];
  for (const needle of needles) {
    for (const form of [Buffer.from(needle), Buffer.from(needle, 'utf16le'), Buffer.from(needle, 'utf16le').swap16()]) if (bytes.includes(form)) return needle;
  }
  return undefined;
}

/** The folders staged here: a run writes about 300 MB of them, removed when the file's tests end. */
const staged: string[] = [];
afterAll(() => {
  for (const dir of staged) rmSync(dir, { recursive: true, force: true });
});

function stage(): string {
  const dir = mkdtempSync(join(tmpdir(), 'pg-routes-'));
  staged.push(dir);
  return dir;
}

async function scrubOne(dir: string, name: string) {
  const result = await scrubForUpload([{ file: join(dir, name), target: join(dir, 'out', name) }], { secrets: SECRETS, rawReports: false });
  const out = join(dir, 'out', name);
  const bytes = existsSync(out) ? readFileSync(out) : undefined;
  return { result, bytes, inflated: bytes && bytes[0] === 0x1f && bytes[1] === 0x8b ? gunzipSync(bytes) : bytes };
}

describe('gzip around binary formats', () => {
  test('an nsys SQLite export gzipped goes scrubbed inside the compression and still reads', async () => {
    const dir = stage();
    writeFileSync(join(dir, 'profile.sqlite.gz'), gzipSync(readFileSync(join(FIXTURES, 'secret.sqlite'))));
    const { result, inflated } = await scrubOne(dir, 'profile.sqlite.gz');
    expect(result.withheld).toEqual([]);
    expect(result.staged[0]!.treatment).toBe('gzip');
    expect(holdsSecret(inflated!)).toBeUndefined();
    const db = await openDatabaseBytes(inflated!);
    const original = await openDatabaseBytes(readFileSync(join(FIXTURES, 'secret.sqlite')));
    const rows = (d: typeof db) => d.exec('SELECT count(*) FROM CUPTI_ACTIVITY_KIND_KERNEL')[0]!.values[0]![0];
    expect(rows(db)).toBe(rows(original));
    db.close();
    original.close();
  });

  test('a gzipped nsys report is withheld as a raw report; a tar.gz and a zip as archives; a gzipped binary with the marker as a secret', async () => {
    const dir = stage();
    writeFileSync(join(dir, 'profile.nsys-rep.gz'), gzipSync(readFileSync(join(FIXTURES, 'secret.nsys-rep'))));
    // A tar header: the name, then "ustar" at byte 257; the member holds the marker.
    const header = Buffer.alloc(512);
    header.write('env.txt', 0);
    header.write('ustar', 257);
    writeFileSync(join(dir, 'run.tar.gz'), gzipSync(Buffer.concat([header, Buffer.from(`HF_TOKEN=hf_${MARK}\n`), Buffer.alloc(512)])));
    writeFileSync(join(dir, 'bundle.zip'), Buffer.concat([Buffer.from([0x50, 0x4b, 0x03, 0x04]), Buffer.from(MARK)]));
    writeFileSync(join(dir, 'blob.bin.gz'), gzipSync(Buffer.concat([Buffer.from([0, 1, 2]), Buffer.from(MARK)])));
    // Two gzip members: the second holds the marker.
    writeFileSync(join(dir, 'two.log.gz'), Buffer.concat([gzipSync('first member\n'), gzipSync(`token ${MARK}\n`)]));
    const names = ['profile.nsys-rep.gz', 'run.tar.gz', 'bundle.zip', 'blob.bin.gz', 'two.log.gz'];
    const result = await scrubForUpload(names.map((name) => ({ file: join(dir, name), target: join(dir, 'out', name) })), { secrets: SECRETS, rawReports: false });
    expect(result.withheld.map((w) => [w.file.split('/').pop(), w.kind])).toEqual([
      ['profile.nsys-rep.gz', 'raw-report'],
      ['run.tar.gz', 'archive'],
      ['bundle.zip', 'archive'],
      ['blob.bin.gz', 'secret'],
    ]);
    expect(gunzipSync(readFileSync(join(dir, 'out', 'two.log.gz'))).toString()).toBe('first member\ntoken ***\n');
    for (const name of names.slice(0, 4)) expect(existsSync(join(dir, 'out', name))).toBe(false);
  });
});

describe('tokens cut by a read boundary', () => {
  // Shapes the redaction knows without their value, a known value, and forms that need their context.
  const TOKENS = [
    `hf_${MARK}`,
    `ghp_${'A1b2C3d4E5f6G7h8I9j0'}${MARK.slice(0, 16)}`,
    `xoxb-1234567890-${MARK}`,
    `--wandb-key ${MARK}`,
    `"api_key": "${MARK}"`,
    `Authorization: Bearer ${MARK}`,
    `-----BEGIN PRIVATE KEY-----\n${(MARK + '\n').repeat(300)}-----END PRIVATE KEY-----`,
  ];
  /**
   * Where the reader cuts: each read chunk's end less the part held over (the first cut falls at
   * TEXT_CHUNK_BYTES − MIN_OVERLAP, the next a chunk later), and a chunk's own end, which is never a cut.
   */
  const BOUNDARIES = [TEXT_CHUNK_BYTES - MIN_OVERLAP, TEXT_CHUNK_BYTES, 2 * TEXT_CHUNK_BYTES - MIN_OVERLAP];
  /** Every offset for the first token; for the others, the ends, the middle and both sides of each space (a key block: its ends and inside). */
  const offsetsOf = (token: string, t: number): number[] => {
    if (t === 0) return Array.from({ length: token.length - 1 }, (_, i) => i + 1);
    if (token.length > 200) return [1, 40, 2000, token.length - 30, token.length - 1];
    const spaces = [...token.matchAll(/[ \n]/g)].flatMap((m) => [m.index!, m.index! + 1]);
    return [...new Set([1, 2, Math.floor(token.length / 2), token.length - 2, token.length - 1, ...spaces])].filter((o) => o > 0 && o < token.length).sort((a, b) => a - b);
  };

  for (const fill of ['lines', 'words'] as const) {
    test(`each token straddling each boundary at every offset (filler of ${fill}), plain and gzip: none of it is left`, async () => {
      const dir = stage();
      const unit = fill === 'lines' ? 'a log line with words 0123456789\n' : 'words without a line end ';
      const names: string[] = [];
      TOKENS.forEach((token, t) => {
        const offsets = offsetsOf(token, t);
        for (const boundary of BOUNDARIES) {
          // The later cut: the first token only, at a few offsets.
          if (boundary > TEXT_CHUNK_BYTES && t > 0) continue;
          for (const offset of boundary > TEXT_CHUNK_BYTES ? offsets.filter((o) => o % 4 === 1) : offsets) {
            const before = boundary - offset;
            const filler = unit.repeat(Math.ceil(before / unit.length)).slice(0, before - 1) + ' ';
            // Enough after the token that the chunk holding it is not the last (a last chunk is never cut).
            const after = unit.repeat(Math.ceil((MIN_OVERLAP + 4096) / unit.length));
            const text = `${filler}${token} tail ${after}\n`;
            const name = `t${t}-${boundary}-${offset}.log`;
            writeFileSync(join(dir, name), text);
            names.push(name);
            if (offset % 5 === 1) {
              writeFileSync(join(dir, `${name}.gz`), gzipSync(text));
              names.push(`${name}.gz`);
            }
          }
        }
      });
      const result = await scrubForUpload(names.map((name) => ({ file: join(dir, name), target: join(dir, 'out', name) })), { secrets: secretsFromEnv({}), rawReports: false });
      expect(result.withheld).toEqual([]);
      const leaked = names.filter((name) => {
        const bytes = readFileSync(join(dir, 'out', name));
        const text = (name.endsWith('.gz') ? gunzipSync(bytes) : bytes).toString();
        // Any 6 characters of the marker's secret part left is a leak.
        return [MARK.slice(0, 6), MARK.slice(9, 15), MARK.slice(-6)].some((piece) => text.includes(piece)) || !text.includes(' tail ');
      });
      expect(leaked).toEqual([]);
    }, 120_000);
  }
});

describe('encoded forms, PGP keys, UTF-16', () => {
  test('basic auth, URL-encoded and JSON-escaped passwords, a PGP private key block: all redacted', async () => {
    const dir = stage();
    const basic = Buffer.from(`bot:hf_${MARK}`).toString('base64');
    const text = [
      `Authorization: Basic ${basic}`,
      `curl https://user:${encodeURIComponent(PASSWORD)}@db.example/`,
      `{"password_hint": ${JSON.stringify(PASSWORD).replace(/[\u007f-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)}}`,
      `cfg = ${JSON.stringify({ db: PASSWORD })}`,
      `embedded ${Buffer.from(`x${MARK}y`).toString('base64')} done`,
      '-----BEGIN PGP PRIVATE KEY BLOCK-----',
      '',
      `lQOYBF${MARK}AAAA`,
      '-----END PGP PRIVATE KEY BLOCK-----',
      'kept line',
    ].join('\n');
    writeFileSync(join(dir, 'notes.log'), text);
    const { result, bytes } = await scrubOne(dir, 'notes.log');
    expect(result.withheld).toEqual([]);
    expect(holdsSecret(bytes!)).toBeUndefined();
    expect(bytes!.toString()).toContain('kept line');
    expect(bytes!.toString()).not.toContain('lQOYBF');
  });

  test('a UTF-16 text file holding the marker is withheld (it cannot be rewritten as text); one without goes', async () => {
    const dir = stage();
    writeFileSync(join(dir, 'w16.log'), Buffer.from(`token ${MARK}\n`, 'utf16le'));
    writeFileSync(join(dir, 'c16.log'), Buffer.from('nothing here\n', 'utf16le'));
    const result = await scrubForUpload(['w16.log', 'c16.log'].map((name) => ({ file: join(dir, name), target: join(dir, 'out', name) })), { secrets: SECRETS, rawReports: false });
    expect(result.withheld.map((w) => [w.file.split('/').pop(), w.kind])).toEqual([['w16.log', 'secret']]);
    expect(result.staged.map((s) => s.file.split('/').pop())).toEqual(['c16.log']);
  });
});

describe('SQLite built against the scrubber', () => {
  async function build(setup: (db: Awaited<ReturnType<typeof openDatabaseBytes>>) => void): Promise<Buffer> {
    const db = await openDatabaseBytes(new Uint8Array(0));
    setup(db);
    const bytes = Buffer.from(db.export());
    db.close();
    return bytes;
  }

  test('a trigger over a cross join never runs; triggers, views, indexes and schema text stay behind; sqliteXlog is still a table', async () => {
    const dir = stage();
    writeFileSync(
      join(dir, 'trap.sqlite'),
      await build((db) => {
        db.run('CREATE TABLE big (v TEXT)');
        db.run('WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 3000) INSERT INTO big SELECT printf(\'row %d\', i) FROM n');
        db.run(`CREATE TABLE env (name TEXT, value TEXT)`);
        db.run(`INSERT INTO env VALUES ('HF_TOKEN', 'HF_TOKEN=hf_${MARK}')`);
        db.run(`CREATE TABLE sqliteXlog (line TEXT)`);
        db.run(`INSERT INTO sqliteXlog VALUES ('token ${MARK}')`);
        db.run(`CREATE TRIGGER boom AFTER UPDATE ON env BEGIN INSERT INTO big SELECT a.v || b.v FROM big a, big b; END`);
        db.run(`CREATE VIEW secret_view AS SELECT '${MARK}' AS s`);
        db.run(`CREATE INDEX idx_${MARK} ON big (v)`);
      }),
    );
    const started = Date.now();
    const { result, bytes } = await scrubOne(dir, 'trap.sqlite');
    // 3,000 × 3,000 rows had the trigger run: far past this bound on any machine.
    expect(Date.now() - started).toBeLessThan(20_000);
    expect(result.withheld).toEqual([]);
    expect(holdsSecret(bytes!)).toBeUndefined();
    const db = await openDatabaseBytes(bytes!);
    const names = db.exec("SELECT type, name FROM sqlite_master ORDER BY name")[0]!.values;
    expect(names).toEqual([
      ['table', 'big'],
      ['table', 'env'],
      ['table', 'sqliteXlog'],
    ]);
    expect(db.exec('SELECT count(*) FROM big')[0]!.values[0]![0]).toBe(3000);
    expect(db.exec('SELECT line FROM sqliteXlog')[0]!.values[0]![0]).toBe('token ***');
    db.close();
  }, 60_000);

  test('a UTF-16 database: its text cells are redacted and the copy holds the marker in no encoding', async () => {
    const dir = stage();
    writeFileSync(
      join(dir, 'u16.sqlite'),
      await build((db) => {
        db.run("PRAGMA encoding = 'UTF-16le'");
        db.run('CREATE TABLE StringIds (id INTEGER, value TEXT)');
        db.run(`INSERT INTO StringIds VALUES (1, 'PATH=/usr/bin HOME=/root HF_TOKEN=hf_${MARK}'), (2, 'gemm_kernel')`);
      }),
    );
    const raw = readFileSync(join(dir, 'u16.sqlite'));
    expect(raw.includes(Buffer.from(MARK, 'utf16le'))).toBe(true);
    const { result, bytes } = await scrubOne(dir, 'u16.sqlite');
    expect(result.withheld).toEqual([]);
    expect(holdsSecret(bytes!)).toBeUndefined();
    const db = await openDatabaseBytes(bytes!);
    expect(db.exec('SELECT value FROM StringIds ORDER BY id')[0]!.values.map((r) => r[0])).toEqual(['PATH=*** HOME=*** HF_TOKEN=***', 'gemm_kernel']);
    db.close();
  });
});

