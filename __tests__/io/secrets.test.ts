/**
 * Redaction (src/io/secrets.ts) and the staging of files for upload (src/io/scrub-uploads.ts), on
 * the real H200 files recorded with a marker secret in the profiled process's environment
 * (__tests__/fixtures/h200-secret, made by python/capture/verdict_captures.sh).
 */
import { mkdtempSync, readFileSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync, gunzipSync } from 'node:zlib';
import { analyze } from '../../src/pipeline/analyze.js';
import { encodedForms, isCredentialName, redact, redactValue, secretsFromEnv, isEnvironmentBlock, NO_SECRETS } from '../../src/io/secrets.js';
import { scrubForUpload } from '../../src/io/scrub-uploads.js';
import { openDatabaseBytes } from '../../src/ingest/common/sqlite-db.js';
import { REPO } from '../runner/stand-ins.js';

const FIXTURES = join(REPO, '__tests__', 'fixtures', 'h200-secret');
const MARK = 'pgmarker7f3c9a1e5b2d4c6a';
const SECRETS = secretsFromEnv({ HF_TOKEN: `hf_${MARK}`, PG_GATE_SECRET: MARK, PATH: '/usr/bin:/bin', TOKENIZERS_PARALLELISM: 'false' });

describe('which names and values are secrets', () => {
  it.each(['HF_TOKEN', 'GITHUB_TOKEN', 'INPUT_GITHUB-TOKEN', 'ACTIONS_RUNTIME_TOKEN', 'WANDB_API_KEY', 'AWS_SECRET_ACCESS_KEY', 'OPENAI_KEY', 'DB_PASSWORD', 'apiKey', 'hfToken', 'hf-token', 'Authorization', 'PG_GATE_SECRET'])('%s is a credential name', (name) => {
    expect(isCredentialName(name)).toBe(true);
  });
  it.each(['PATH', 'PWD', 'INPUT_KEY', 'INPUT_ARTIFACT-PREFIX', 'max_new_tokens', 'num_tokens', 'TOKENIZERS_PARALLELISM', 'kernelKey', 'key', 'cacheKey', 'decode_tok_s', 'tokens'])('%s is not', (name) => {
    expect(isCredentialName(name)).toBe(false);
  });
  it('takes the values of credential-named variables, longest first, and leaves short ones and other variables alone', () => {
    // Each value with the forms other code writes it in (URL-encoded, JSON-escaped, base64), longest first.
    expect([...SECRETS.values].sort()).toEqual([...new Set([...encodedForms(`hf_${MARK}`), ...encodedForms(MARK)])].sort());
    expect(SECRETS.values).toEqual(expect.arrayContaining([`hf_${MARK}`, MARK]));
    expect(SECRETS.values.map((v) => v.length)).toEqual(SECRETS.values.map((v) => v.length).sort((a, b) => b - a));
    expect(SECRETS.names).toEqual(['HF_TOKEN', 'PG_GATE_SECRET']);
    const url = 'https://x.example/signed?sig=abcdef123';
    expect([...secretsFromEnv({ MY_TOKEN: 'true', MODEL_URL: url }, ['MODEL_URL']).values].sort()).toEqual([...encodedForms(url)].sort());
    expect(encodedForms(url)).toEqual(expect.arrayContaining([url, 'https%3A%2F%2Fx.example%2Fsigned%3Fsig%3Dabcdef123', 'https:\\/\\/x.example\\/signed?sig=abcdef123']));
  });
});

describe('redacting text', () => {
  it('replaces known values, credential assignments and token shapes, and keeps everything else byte for byte', () => {
    const text = [
      `HF_TOKEN=hf_${MARK} python3 serve.py --max_new_tokens=128 --num-tokens 4096`,
      `{"api_key": "abcd1234efgh", "model": "llama", "kernelKey": "elementwise_kernel<direct_copy>"}`,
      'export WANDB_API_KEY=0123456789abcdef0123456789abcdef01234567',
      'git clone https://x-access-token:ghs_AbCdEfGhIjKlMnOpQrStUvWxYz0123456789@github.com/o/r',
      `found ${MARK} in the middle`,
      'Authorization: Bearer abcdefghijklmnopqrstuvwxyz012345',
      'step[EXTEND bs=15 toks=15360] nvjet_sm90_tst_256x8_64x6_2x1_v_bz_TNT',
    ].join('\n');
    expect(redact(text, SECRETS).split('\n')).toEqual([
      'HF_TOKEN=*** python3 serve.py --max_new_tokens=128 --num-tokens 4096',
      '{"api_key": "***", "model": "llama", "kernelKey": "elementwise_kernel<direct_copy>"}',
      'export WANDB_API_KEY=***',
      'git clone https://x-access-token:***@github.com/o/r',
      'found *** in the middle',
      'Authorization: ***',
      'step[EXTEND bs=15 toks=15360] nvjet_sm90_tst_256x8_64x6_2x1_v_bz_TNT',
    ]);
  });
  it('a JSON value: strings, keys and credential-named fields', () => {
    const { value, count } = redactValue({ run: { command: `PG_GATE_SECRET=${MARK} bash x.sh`, token: 'abcdefgh', n: 3 } }, SECRETS);
    expect(value).toEqual({ run: { command: 'PG_GATE_SECRET=*** bash x.sh', token: '***', n: 3 } });
    expect(count).toBe(2);
  });
  it('an environment block is told from a list of template arguments', () => {
    expect(isEnvironmentBlock('LD_PRELOAD={} PATH=/usr/bin HOME=/tmp HF_TOKEN=***')).toBe(true);
    expect(isEnvironmentBlock('void gemm<T=float, K=4, N=8, M=2>(int)')).toBe(false);
  });
});

describe('staging files for upload', () => {
  const stage = () => mkdtempSync(join(tmpdir(), 'pg-stage-'));

  it('says why each file is withheld as a kind the caller branches on, not in words', async () => {
    const dir = stage();
    const names = ['secret.nsys-rep', 'secret.sqlite', 'ncu/secret.ncu-rep', 'missing.csv'];
    const result = await scrubForUpload(names.map((name) => ({ file: join(FIXTURES, name), target: join(dir, name) })), { secrets: SECRETS, rawReports: false });
    // The profilers' own reports are the policy at work; the file that is not there could not be read.
    expect(result.withheld.map((w) => [w.file.split('/').pop(), w.kind])).toEqual([
      ['secret.nsys-rep', 'raw-report'],
      ['secret.ncu-rep', 'raw-report'],
      ['missing.csv', 'unreadable'],
    ]);
  });

  it('real nsys files: the report is withheld, the SQLite export goes scrubbed and reads as the same capture', async () => {
    const dir = stage();
    const names = ['secret.nsys-rep', 'secret.sqlite', 'secret.nsys-stats.csv', 'ncu/secret.ncu-rep', 'ncu/secret.ncu.csv'];
    // The recorded files do hold the marker where the issue says: the report and its export.
    expect(readFileSync(join(FIXTURES, 'secret.nsys-rep')).includes(MARK)).toBe(true);
    expect(readFileSync(join(FIXTURES, 'secret.sqlite')).includes(MARK)).toBe(true);
    const result = await scrubForUpload(names.map((name) => ({ file: join(FIXTURES, name), target: join(dir, name) })), { secrets: SECRETS, rawReports: false });
    expect(result.withheld.map((w) => w.file.split('/').pop())).toEqual(['secret.nsys-rep', 'secret.ncu-rep']);
    expect(result.staged.map((s) => [s.file.split('/').pop(), s.treatment])).toEqual([
      ['secret.sqlite', 'sqlite'],
      ['secret.nsys-stats.csv', 'text'],
      ['secret.ncu.csv', 'text'],
    ]);
    expect(existsSync(join(dir, 'secret.nsys-rep'))).toBe(false);
    const scrubbed = readFileSync(join(dir, 'secret.sqlite'));
    expect(scrubbed.includes(MARK)).toBe(false);
    expect(scrubbed.includes('plainvalue1234')).toBe(false);
    // The product reads the scrubbed export as it read the original: same kernels, same time.
    const [before, after] = await Promise.all([analyze({ inputs: [join(FIXTURES, 'secret.sqlite')] }), analyze({ inputs: [join(dir, 'secret.sqlite')] })]);
    expect(after.totalKernelNs).toBe(before.totalKernelNs);
    expect(after.totalKernelNs).toBeGreaterThan(0);
    expect(after.kernels.map((k) => [k.name, k.totalNs])).toEqual(before.kernels.map((k) => [k.name, k.totalNs]));
    // A text table without secrets is byte for byte the same.
    expect(readFileSync(join(dir, 'secret.nsys-stats.csv'))).toEqual(readFileSync(join(FIXTURES, 'secret.nsys-stats.csv')));
  });

  it('with raw reports allowed, a report without a secret value goes as it is; one with it stays', async () => {
    const dir = stage();
    const result = await scrubForUpload(['secret.nsys-rep', 'ncu/secret.ncu-rep'].map((name) => ({ file: join(FIXTURES, name), target: join(dir, name) })), { secrets: SECRETS, rawReports: true });
    expect(result.staged.map((s) => s.file.split('/').pop())).toEqual(['secret.ncu-rep']);
    expect(readFileSync(join(dir, 'ncu', 'secret.ncu-rep'))).toEqual(readFileSync(join(FIXTURES, 'ncu', 'secret.ncu-rep')));
    expect(result.withheld).toEqual([{ file: join(FIXTURES, 'secret.nsys-rep'), kind: 'secret', reason: 'it holds the value of a secret variable of this job, and its format cannot be scrubbed' }]);
  });

  it('a secret cut by the boundary between two read chunks is still found, in plain and gzip text', async () => {
    const dir = stage();
    const filler = 'x'.repeat((1 << 20) - 10);
    const text = `${filler} token ${MARK} and more\n`;
    writeFileSync(join(dir, 'big.log'), text);
    writeFileSync(join(dir, 'big.json.gz'), gzipSync(text));
    const result = await scrubForUpload(['big.log', 'big.json.gz'].map((name) => ({ file: join(dir, name), target: join(dir, 'out', name) })), { secrets: SECRETS, rawReports: false });
    expect(result.withheld).toEqual([]);
    expect(readFileSync(join(dir, 'out', 'big.log'), 'utf8')).toBe(`${filler} token *** and more\n`);
    expect(gunzipSync(readFileSync(join(dir, 'out', 'big.json.gz'))).toString()).toBe(`${filler} token *** and more\n`);
  });

  it('an unknown binary file goes only without a secret value in it', async () => {
    const dir = stage();
    writeFileSync(join(dir, 'clean.bin'), Buffer.from([0, 1, 2, 3, 0, 5]));
    writeFileSync(join(dir, 'dirty.bin'), Buffer.concat([Buffer.from([0, 1]), Buffer.from(MARK), Buffer.from([0])]));
    const result = await scrubForUpload(['clean.bin', 'dirty.bin'].map((name) => ({ file: join(dir, name), target: join(dir, 'out', name) })), { secrets: SECRETS, rawReports: false });
    expect(result.staged.map((s) => s.file)).toEqual([join(dir, 'clean.bin')]);
    expect(result.withheld.map((w) => w.file)).toEqual([join(dir, 'dirty.bin')]);
    // Without a known secret, no file is held back for holding one.
    const none = await scrubForUpload([{ file: join(dir, 'dirty.bin'), target: join(dir, 'out2', 'dirty.bin') }], { secrets: NO_SECRETS, rawReports: false });
    expect(none.withheld).toEqual([]);
  });

  it('a rocpd database: the process table keeps its rows, loses its environment and the token in its command line, and reads as the same capture', async () => {
    const dir = stage();
    // The real rocpd fixture, with the process table rocprofv3 writes (id, nid, pid, ppid, init, fini,
    // start, end, command, environment, extdata) added as it would hold a workload run with a token.
    const db = await openDatabaseBytes(readFileSync(join(REPO, '__tests__', 'fixtures', 'sqlite', 'rocpd_llamacpp_r9700_built_results.db')));
    db.run('CREATE TABLE "rocpd_info_process_0195f3c2a1b04d7e9c8f6a5b4c3d2e1f" (id INTEGER PRIMARY KEY, nid INTEGER, pid INTEGER, ppid INTEGER, init BIGINT, fini BIGINT, start BIGINT, "end" BIGINT, command TEXT, environment JSONB, extdata JSONB)');
    db.run('INSERT INTO "rocpd_info_process_0195f3c2a1b04d7e9c8f6a5b4c3d2e1f" VALUES (1, 1, 4242, 1, 0, 0, 0, 0, ?, ?, ?)', [
      `/usr/bin/env HF_TOKEN=hf_${MARK} llama-bench -m model.gguf`,
      JSON.stringify({ PATH: '/usr/bin', PG_GATE_SECRET: MARK, PG_NOT_SECRET: 'plainvalue1234' }),
      '{}',
    ]);
    writeFileSync(join(dir, 'rocpd.db'), db.export());
    db.close();
    const result = await scrubForUpload([{ file: join(dir, 'rocpd.db'), target: join(dir, 'out', 'rocpd.db') }], { secrets: SECRETS, rawReports: false });
    expect(result.withheld).toEqual([]);
    const bytes = readFileSync(join(dir, 'out', 'rocpd.db'));
    expect(bytes.includes(MARK)).toBe(false);
    expect(bytes.includes('plainvalue1234')).toBe(false);
    const scrubbed = await openDatabaseBytes(bytes);
    expect(scrubbed.exec('SELECT command, environment FROM "rocpd_info_process_0195f3c2a1b04d7e9c8f6a5b4c3d2e1f"')[0]!.values).toEqual([['/usr/bin/env HF_TOKEN=*** llama-bench -m model.gguf', '***']]);
    scrubbed.close();
    const [before, after] = await Promise.all([analyze({ inputs: [join(dir, 'rocpd.db')] }), analyze({ inputs: [join(dir, 'out', 'rocpd.db')] })]);
    expect(after.totalKernelNs).toBe(before.totalKernelNs);
    expect(after.totalKernelNs).toBeGreaterThan(0);
  });
});
