/**
 * No secret leaves the runner. Mode run in process, through the action's real upload path, with a
 * marker secret in the workload's environment: the workload prints its whole environment, nsys (a
 * stand-in handing out a real H200 .nsys-rep and its SQLite export, recorded with the same marker in
 * the profiled process's environment: __tests__/fixtures/h200-secret) embeds it, and a PyTorch
 * profiler trace carries it in its user metadata. Not one byte of the marker may reach either
 * artifact, the summary, the comment, the outputs or the log; the raw files on the runner do hold it,
 * so the test sees the scrubbing at work.
 */
import { copyFileSync, chmodSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync, readdirSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { openDatabaseBytes } from '../../src/ingest/common/sqlite-db.js';
import { runInProcess, type InProcessResult } from '../helpers/fake-action-host.js';
import type { FakeGitHub } from '../helpers/fake-github.js';
import { readZip } from '../helpers/fake-github-zip.js';
import { PR_EVENT, useFakeGitHub } from '../helpers/fake-github-runner.js';
import { PYTHON, REPO, STAND_IN_DIR, STAND_IN_TOOLS } from '../runner/stand-ins.js';
import { serializeReport } from '../../src/report/json.js';
import { makeReport } from '../report/report-factory.js';
import { workspace } from '../helpers/action-workspace.js';
import { encodedForms } from '../../src/io/secrets.js';
import { gzipSync } from 'node:zlib';

const SECRET_FIXTURES = join(REPO, '__tests__', 'fixtures', 'h200-secret');
/** The marker the H200 fixtures were recorded with (python/capture/verdict_captures.sh). */
const MARK = 'pgmarker7f3c9a1e5b2d4c6a';
const SECRET_ENV = { HF_TOKEN: `hf_${MARK}`, PG_GATE_SECRET: MARK };

let fake: FakeGitHub;
useFakeGitHub((started) => (fake = started));

const tools = mkdtempSync(join(tmpdir(), 'pg-secret-tools-'));
symlinkSync(STAND_IN_TOOLS, join(tools, 'nsys'));
symlinkSync(STAND_IN_TOOLS, join(tools, 'ncu'));
symlinkSync(PYTHON, join(tools, 'python3'));
copyFileSync(join(REPO, '__tests__', 'fixtures', 'gpu-snapshot', 'fake-nvidia-smi.sh'), join(tools, 'nvidia-smi'));
chmodSync(join(tools, 'nvidia-smi'), 0o755);
const PATH = `${tools}:${process.env['PATH'] ?? ''}`;

const saved: Record<string, string | undefined> = {};
const STAND_IN_ENV = {
  PATH,
  ...SECRET_ENV,
  STAND_IN_NSYS_REP: join(SECRET_FIXTURES, 'secret.nsys-rep'),
  STAND_IN_NSYS_SQLITE: join(SECRET_FIXTURES, 'secret.sqlite'),
  STAND_IN_NSYS_STATS: join(SECRET_FIXTURES, 'secret.nsys-stats.csv'),
  STAND_IN_NSYS_GPU_UTIL: join(SECRET_FIXTURES, 'secret.gpu_time_util.csv'),
  STAND_IN_NCU_CSV: join(SECRET_FIXTURES, 'ncu', 'secret.ncu.csv'),
};
beforeAll(() => {
  // The workload inherits the action's environment, as on a runner.
  for (const [name, value] of Object.entries(STAND_IN_ENV)) {
    saved[name] = process.env[name];
    process.env[name] = value;
  }
});
afterAll(() => {
  for (const [name, value] of Object.entries(saved)) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
});

/** A workload that leaks: prints its environment and the token, then one metric line. */
const LEAKY = [
  'env',
  'echo "logging in to the hub with token $HF_TOKEN" >&2',
  'echo \'{"metric": "decode_tok_s", "value": 100.0}\'',
].join('\n');

/**
 * A PyTorch profiler trace (the real H200 one recorded with the marker set) with user metadata
 * holding the token, as `prof.add_metadata_json` writes it: top-level keys of the trace.
 */
const TORCH_WORKLOAD = `
import gzip, json, os, sys
trace = json.load(gzip.open(${JSON.stringify(join(SECRET_FIXTURES, 'secret_torch.trace.json.gz'))}))
trace["run_config"] = json.dumps({"hf_token": os.environ["HF_TOKEN"], "model": "llama"})
trace["launch"] = "PG_GATE_SECRET=" + os.environ["PG_GATE_SECRET"] + " python3 serve.py"
os.makedirs("traces", exist_ok=True)
with gzip.open("traces/step.trace.json.gz", "wt") as f:
    json.dump(trace, f)
print(json.dumps({"metric": "decode_tok_s", "value": 100.0}))
`;

function leakyWorkspace(): string {
  const ws = mkdtempSync(join(tmpdir(), 'pg-secret-ws-'));
  writeFileSync(join(ws, 'leaky.sh'), `${LEAKY}\n`);
  writeFileSync(join(ws, 'torch_leaky.py'), TORCH_WORKLOAD);
  return ws;
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

/** Every byte the job let out: artifacts (gzip members opened), summary, comments, outputs, log, failures. */
function everythingOut(r: InProcessResult): Map<string, Buffer> {
  const out = new Map<string, Buffer>();
  for (const artifact of fake.artifactsOfRun(4242)) {
    for (const [name, bytes] of readZip(artifact.zip!)) {
      out.set(`${artifact.name}/${name}`, bytes);
      if (bytes[0] === 0x1f && bytes[1] === 0x8b) out.set(`${artifact.name}/${name} (gunzipped)`, gunzipSync(bytes));
    }
  }
  out.set('summary', Buffer.from(r.summary));
  fake.commentsOn(7).forEach((comment, i) => out.set(`comment ${i}`, Buffer.from(comment.body)));
  out.set('outputs', Buffer.from(JSON.stringify(r.outputs)));
  out.set('log', Buffer.from(r.host.log.join('\n')));
  out.set('failures', Buffer.from(r.failures.join('\n')));
  return out;
}

function leaks(r: InProcessResult): string[] {
  return [...everythingOut(r)].filter(([, bytes]) => bytes.includes(MARK)).map(([name]) => name);
}

const RUN = { mode: 'run', engine: 'command', runs: '2', 'warmup-runs': '0', 'deep-dive': 'off', key: 'secret-run' };

describe('mode run with a secret in the workload environment', () => {
  it('by default the captures artifact holds only what profile-gate wrote: profile.json and a clean trace of the nsys export, which reads back as the same kernels', async () => {
    const ws = leakyWorkspace();
    const r = await runInProcess({ fake, event: PR_EVENT, workspace: ws, inputs: { ...RUN, run: 'bash leaky.sh', profiler: 'nsys' }, env: STAND_IN_ENV });
    expect(r.failures).toEqual([]);
    expect(leaks(r)).toEqual([]);
    const captures = fake.artifactsOfRun(4242).find((a) => a.name.endsWith('-captures'))!;
    const stored = readZip(captures.zip!);
    expect([...stored.keys()].sort()).toEqual(['profile.json', 'traces/1-nsys-sqlite.trace.json']);
    // The trace is the export's kernels: as many kernel events as the export has kernel rows.
    const original = await openDatabaseBytes(readFileSync(join(SECRET_FIXTURES, 'secret.sqlite')));
    const rows = Number(original.exec('SELECT count(*) FROM CUPTI_ACTIVITY_KIND_KERNEL')[0]!.values[0]![0]);
    const ns = Number(original.exec('SELECT sum("end" - start) FROM CUPTI_ACTIVITY_KIND_KERNEL')[0]!.values[0]![0]);
    original.close();
    const trace = JSON.parse(stored.get('traces/1-nsys-sqlite.trace.json')!.toString()) as { traceEvents: Array<{ ph: string; cat?: string; dur?: number }> };
    const kernels = trace.traceEvents.filter((e) => e.cat === 'kernel');
    expect(kernels).toHaveLength(rows);
    expect(Math.round(kernels.reduce((sum, e) => sum + e.dur! * 1000, 0))).toBe(ns);
    const profile = JSON.parse(stored.get('profile.json')!.toString()) as { kernels: unknown[]; traces: Array<{ file: string; format: string }> };
    expect(profile.kernels.length).toBeGreaterThan(0);
    expect(profile.traces).toEqual([expect.objectContaining({ file: 'traces/1-nsys-sqlite.trace.json', format: 'nsys-sqlite' })]);
    expect(r.host.log.some((line) => /clean trace.*ui\.perfetto\.dev/.test(line))).toBe(true);
  }, 60_000);

  it('nsys with upload-raw-captures: the marker reaches no artifact, page, output or log line; the report is withheld, its SQLite export goes scrubbed and still reads', async () => {
    const ws = leakyWorkspace();
    const r = await runInProcess({ fake, event: PR_EVENT, workspace: ws, inputs: { ...RUN, run: 'bash leaky.sh', profiler: 'nsys', 'upload-raw-captures': 'true' }, env: STAND_IN_ENV });
    expect(r.failures).toEqual([]);
    // The raw files on the runner hold the marker: the workload's log, the nsys report and its export.
    const raw = filesUnder(join(ws, 'profile-gate', 'run')).filter((file) => readFileSync(file).includes(MARK)).map((file) => file.slice(ws.length + 1));
    expect(raw).toEqual(expect.arrayContaining(['profile-gate/run/captures/profile.nsys-rep', 'profile-gate/run/captures/profile.sqlite', 'profile-gate/run/logs/profile.log']));

    expect(leaks(r)).toEqual([]);
    const captures = fake.artifactsOfRun(4242).find((a) => a.name.endsWith('-captures'))!;
    const stored = readZip(captures.zip!);
    expect([...stored.keys()]).not.toContain('run/captures/profile.nsys-rep');
    expect(r.host.log).toContain("Not uploaded: run/captures/profile.nsys-rep: a profiler's own report embeds the workload's whole environment; the tables read from it are uploaded instead (set upload-raw-reports: true to upload it as it is).");
    expect([...stored.keys()]).toEqual(expect.arrayContaining(['run/captures/profile.nsys-stats.csv', 'run/captures/profile.sqlite', 'run/logs/measured-1.log', 'run/run.json']));
    // The workload's log keeps its lines, less the values.
    const log = stored.get('run/logs/measured-1.log')!.toString();
    expect(log).toContain('logging in to the hub with token ***');
    expect(log).toMatch(/^HF_TOKEN=\*\*\*$/m);

    // The scrubbed export is still the same capture: every kernel row, no environment value.
    const original = await openDatabaseBytes(readFileSync(join(SECRET_FIXTURES, 'secret.sqlite')));
    const scrubbed = await openDatabaseBytes(stored.get('run/captures/profile.sqlite')!);
    const count = (db: typeof original, sql: string) => db.exec(sql)[0]!.values[0]![0];
    expect(count(scrubbed, 'SELECT count(*) FROM CUPTI_ACTIVITY_KIND_KERNEL')).toBe(count(original, 'SELECT count(*) FROM CUPTI_ACTIVITY_KIND_KERNEL'));
    expect(count(scrubbed, 'SELECT count(*) FROM CUPTI_ACTIVITY_KIND_KERNEL')).toBeGreaterThan(0);
    expect(count(scrubbed, "SELECT count(*) FROM StringIds WHERE value LIKE 'nvjet_sm90_tst_%'")).toBe(count(original, "SELECT count(*) FROM StringIds WHERE value LIKE 'nvjet_sm90_tst_%'"));
    expect(count(scrubbed, "SELECT count(*) FROM META_DATA_CAPTURE WHERE name LIKE '%ENVIRONMENT%' AND value <> '***'")).toBe(0);
    expect(count(original, "SELECT count(*) FROM META_DATA_CAPTURE WHERE value LIKE 'PG_NOT_SECRET=%'")).toBe(1);
    // Not only the credentials: no variable's value of the environment survives (PG_NOT_SECRET's included).
    expect(stored.get('run/captures/profile.sqlite')!.includes('plainvalue1234')).toBe(false);
    original.close();
    scrubbed.close();
  }, 60_000);

  it('nsys with upload-raw-reports: the report still stays home when it holds a secret value of this job, with a warning', async () => {
    const ws = leakyWorkspace();
    const r = await runInProcess({ fake, event: PR_EVENT, workspace: ws, inputs: { ...RUN, run: 'bash leaky.sh', profiler: 'nsys', 'upload-raw-captures': 'true', 'upload-raw-reports': 'true' }, env: STAND_IN_ENV });
    expect(leaks(r)).toEqual([]);
    expect(r.warnings).toContain('Not uploaded: run/captures/profile.nsys-rep: it holds the value of a secret variable of this job, and its format cannot be scrubbed.');
  }, 60_000);

  it('MAX: max generate --profile writes its own nsys report (the real H200 one, with the marker): withheld, nothing leaks', async () => {
    const ws = leakyWorkspace();
    const env = { ...STAND_IN_ENV, PATH: `${STAND_IN_DIR}:${PATH}`, STAND_IN_MAX_GPU: '1', STAND_IN_MAX_NSYS_REP: join(SECRET_FIXTURES, 'secret.nsys-rep') };
    const before = { PATH: process.env['PATH'], STAND_IN_MAX_GPU: process.env['STAND_IN_MAX_GPU'], STAND_IN_MAX_NSYS_REP: process.env['STAND_IN_MAX_NSYS_REP'] };
    Object.assign(process.env, { PATH: env.PATH, STAND_IN_MAX_GPU: '1', STAND_IN_MAX_NSYS_REP: env.STAND_IN_MAX_NSYS_REP });
    try {
      const r = await runInProcess({ fake, event: PR_EVENT, workspace: ws, inputs: { mode: 'run', engine: 'max', model: 'org/model', runs: '1', 'warmup-runs': '0', profiler: 'max', 'deep-dive': 'off', key: 'secret-max', 'upload-raw-captures': 'true' }, env });
      expect(r.failures).toEqual([]);
      const raw = filesUnder(join(ws, 'profile-gate', 'run')).filter((file) => file.endsWith('.nsys-rep'));
      expect(raw).toHaveLength(1);
      expect(readFileSync(raw[0]!).includes(MARK)).toBe(true);
      expect(leaks(r)).toEqual([]);
      expect(r.host.log.some((line) => /^Not uploaded: run\/captures\/.*\.nsys-rep: a profiler's own report/.test(line))).toBe(true);
    } finally {
      for (const [name, value] of Object.entries(before)) {
        if (value === undefined) delete process.env[name];
        else process.env[name] = value;
      }
    }
  }, 60_000);

  it('a PyTorch profiler trace whose user metadata holds the token: by default a clean trace of its events goes, without the metadata', async () => {
    const ws = leakyWorkspace();
    const r = await runInProcess({ fake, event: PR_EVENT, workspace: ws, inputs: { ...RUN, run: `${PYTHON} torch_leaky.py`, profiler: 'torch', captures: 'traces/*.trace.json.gz' }, env: STAND_IN_ENV });
    expect(r.failures).toEqual([]);
    expect(leaks(r)).toEqual([]);
    const captures = fake.artifactsOfRun(4242).find((a) => a.name.endsWith('-captures'))!;
    const stored = readZip(captures.zip!);
    expect([...stored.keys()].sort()).toEqual(['profile.json', 'traces/1-kineto-json.trace.json']);
    const recorded = JSON.parse(gunzipSync(readFileSync(join(SECRET_FIXTURES, 'secret_torch.trace.json.gz'))).toString()) as { traceEvents: Array<{ ph?: string; cat?: string }> };
    const clean = JSON.parse(stored.get('traces/1-kineto-json.trace.json')!.toString()) as Record<string, unknown> & { traceEvents: Array<{ cat?: string }> };
    expect(clean.traceEvents.filter((e) => e.cat === 'kernel')).toHaveLength(recorded.traceEvents.filter((e) => e.ph === 'X' && e.cat === 'kernel').length);
    expect(Object.keys(clean).sort()).toEqual(['displayTimeUnit', 'otherData', 'traceEvents']);
  }, 60_000);

  it('a PyTorch profiler trace whose user metadata holds the token, with upload-raw-captures: uploaded scrubbed, still the same trace', async () => {
    const ws = leakyWorkspace();
    const r = await runInProcess({ fake, event: PR_EVENT, workspace: ws, inputs: { ...RUN, run: `${PYTHON} torch_leaky.py`, profiler: 'torch', captures: 'traces/*.trace.json.gz', 'upload-raw-captures': 'true' }, env: STAND_IN_ENV });
    expect(r.failures).toEqual([]);
    const rawTrace = filesUnder(join(ws, 'profile-gate', 'run')).find((file) => file.endsWith('.trace.json.gz'))!;
    expect(gunzipSync(readFileSync(rawTrace)).includes(MARK)).toBe(true);
    expect(leaks(r)).toEqual([]);
    const captures = fake.artifactsOfRun(4242).find((a) => a.name.endsWith('-captures'))!;
    const [name, bytes] = [...readZip(captures.zip!)].find(([n]) => n.endsWith('.trace.json.gz'))!;
    const trace = JSON.parse(gunzipSync(bytes).toString()) as { traceEvents: unknown[]; run_config: string; launch: string };
    const recorded = JSON.parse(gunzipSync(readFileSync(join(SECRET_FIXTURES, 'secret_torch.trace.json.gz'))).toString()) as { traceEvents: unknown[] };
    expect(name).toMatch(/\.trace\.json\.gz$/);
    expect(trace.traceEvents).toHaveLength(recorded.traceEvents.length);
    expect(trace.launch).toBe('PG_GATE_SECRET=*** python3 serve.py');
    expect(JSON.parse(trace.run_config)).toEqual({ hf_token: '***', model: 'llama' });
  }, 60_000);

  it('mode report: a token in another run\'s report (an older version, a fork) reaches neither the summary, the comment, the outputs nor the log', async () => {
    const leaked = 'ghp_' + 'A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8';
    const report = makeReport({ workload: `llama HF_TOKEN=hf_${MARK}`, kernelName: (i) => (i === 0 ? `kernel_${leaked}` : `kernel_${i}`) });
    fake.registerRun({ id: 900, event: 'pull_request', status: 'completed', conclusion: 'success', head_branch: 'feature', head_sha: 'b'.repeat(40), headRepositoryId: 999 });
    fake.addArtifact(900, 'profile-gate-llama', { 'report.json': serializeReport(report) });
    const event = { workflow_run: { id: 900, event: 'pull_request', head_sha: 'b'.repeat(40), pull_requests: [{ number: 7 }] }, repository: { full_name: 'octo/gpu-app', default_branch: 'main' } };
    const r = await runInProcess({ fake, runId: 901, eventName: 'workflow_run', event, job: 'comment', inputs: { mode: 'report', 'pr-number': '7' }, env: { PATH } });
    expect(r.failures).toEqual([]);
    expect(r.summary).toContain('<code>kernel&#95;<wbr>&#42;&#42;&#42;</code>');
    const out = [r.summary, ...fake.commentsOn(7).map((c) => c.body), JSON.stringify(r.outputs), r.host.log.join('\n')].join('\n');
    expect(out.includes(leaked)).toBe(false);
    expect(out.includes(MARK)).toBe(false);
  });
});

/** Markers the job's environment does not hold: only their place (a flag, a file's head) or shape can give them away. */
const FLAG_MARK = 'pgflagvalue9d8c7b6a5f4e3d2c';
const HEAD_MARK = 'pgheadvalue1a2b3c4d5e6f7a8b';
const PASSWORD = 'Tr0ub4dor&3<x>pw';

/** Every needle, as text, in its encoded forms and in UTF-16, in every byte and every entry name that left. */
function routeLeaks(r: InProcessResult, needles: readonly string[]): string[] {
  const forms = needles.flatMap((n) => [n, ...encodedForms(n)]).flatMap((n) => [Buffer.from(n), Buffer.from(n, 'utf16le'), Buffer.from(n, 'utf16le').swap16()]);
  const found: string[] = [];
  for (const [name, bytes] of everythingOut(r)) {
    if (forms.some((form) => bytes.includes(form))) found.push(name);
    if (forms.some((form) => Buffer.from(name).includes(form))) found.push(`entry name ${name}`);
  }
  return found;
}

async function database(setup: (db: Awaited<ReturnType<typeof openDatabaseBytes>>) => void): Promise<Buffer> {
  const db = await openDatabaseBytes(new Uint8Array(0));
  setup(db);
  const bytes = Buffer.from(db.export());
  db.close();
  return bytes;
}

describe('mode analyze with upload-raw-captures: each route a secret could take out', () => {
  it('gzip binaries, a token at a read cut, encoded forms, file names, skipped-file heads, UTF-16 and trigger databases: no byte of any marker leaves', async () => {
    const env = { ...STAND_IN_ENV, DB_PASSWORD: PASSWORD };
    const ws = workspace(['e2e/healthy_graphoff_node.kern_sum.csv']);
    const cap = (name: string) => join(ws, 'captures', name);
    // A binary format gzipped: the nsys export with the marker in its environment rows.
    writeFileSync(cap('profile.sqlite.gz'), gzipSync(readFileSync(join(SECRET_FIXTURES, 'secret.sqlite'))));
    writeFileSync(cap('profile.nsys-rep.gz'), gzipSync(readFileSync(join(SECRET_FIXTURES, 'secret.nsys-rep'))));
    // A token straddling the first place the text reader cuts (1 MiB less 64 KiB), and the forms other code writes a secret in.
    const filler = 'a log line with words 0123456789\n'.repeat(40_000).slice(0, (1 << 20) - (64 << 10) - 10);
    const basic = Buffer.from(`bot:hf_${MARK}`).toString('base64');
    writeFileSync(cap('workload.log'), `${filler}token hf_${MARK} after\nAuthorization: Basic ${basic}\nurl https://u:${encodeURIComponent(PASSWORD)}@h/\n${JSON.stringify({ pw: PASSWORD })}\n${'x '.repeat(70_000)}\n`);
    // A file named after the token.
    writeFileSync(cap(`notes-${MARK}.log`), 'nothing secret inside\n');
    // A file profile-gate cannot read, whose head is a token no variable holds: skipped, and never quoted.
    writeFileSync(cap('bad.nvml.jsonl'), `{"kind": "gpu-snapshot", "token": "${HEAD_MARK}"\n`);
    // A command line with a credential flag.
    writeFileSync(cap('cmd.log'), `$ python3 bench.py --wandb-key ${FLAG_MARK} --steps 4\n`);
    // A UTF-16 database and one whose trigger would run a cross join on any write.
    writeFileSync(cap('u16.sqlite'), await database((db) => {
      db.run("PRAGMA encoding = 'UTF-16le'");
      db.run('CREATE TABLE StringIds (id INTEGER, value TEXT)');
      db.run(`INSERT INTO StringIds VALUES (1, 'PATH=/bin HOME=/root HF_TOKEN=hf_${MARK}')`);
    }));
    writeFileSync(cap('trap.sqlite'), await database((db) => {
      db.run('CREATE TABLE big (v TEXT)');
      db.run("WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 3000) INSERT INTO big SELECT printf('r%d', i) FROM n");
      db.run(`CREATE TABLE env (value TEXT)`);
      db.run(`INSERT INTO env VALUES ('HF_TOKEN=hf_${MARK}')`);
      db.run('CREATE TRIGGER boom AFTER UPDATE ON env BEGIN INSERT INTO big SELECT a.v || b.v FROM big a, big b; END');
      db.run(`CREATE VIEW v_${MARK} AS SELECT 1`);
    }));
    const r = await runInProcess({ fake, event: PR_EVENT, workspace: ws, inputs: { captures: 'captures', key: 'routes', 'upload-raw-captures': 'true' }, env });
    expect(r.failures).toEqual([]);
    expect(routeLeaks(r, [MARK, FLAG_MARK, HEAD_MARK, PASSWORD])).toEqual([]);
    const captures = fake.artifactsOfRun(4242).find((a) => a.name.endsWith('-captures'))!;
    const stored = readZip(captures.zip!);
    // What went, scrubbed: the log (its lines kept), the gzipped export (still a database), the two databases (their tables only).
    expect(stored.get('captures/workload.log')!.toString()).toContain('token *** after');
    expect(stored.get('captures/cmd.log')!.toString()).toBe('$ python3 bench.py --wandb-key *** --steps 4\n');
    const trap = await openDatabaseBytes(stored.get('captures/trap.sqlite')!);
    expect(trap.exec('SELECT type, name FROM sqlite_master ORDER BY name')[0]!.values).toEqual([['table', 'big'], ['table', 'env']]);
    expect(trap.exec('SELECT count(*) FROM big')[0]!.values[0]![0]).toBe(3000);
    trap.close();
    const exported = await openDatabaseBytes(gunzipSync(stored.get('captures/profile.sqlite.gz')!));
    expect(Number(exported.exec('SELECT count(*) FROM CUPTI_ACTIVITY_KIND_KERNEL')[0]!.values[0]![0])).toBeGreaterThan(0);
    exported.close();
    expect([...stored.keys()]).toContain('captures/notes-%2A%2A%2A.log');
    expect([...stored.keys()]).not.toContain('captures/profile.nsys-rep.gz');
    // The summary names what stayed home, by path and kind.
    expect(r.summary).toContain('**Not uploaded.**');
    expect(r.summary).toContain('<code>captures/profile.nsys-rep.gz</code> (raw\\-report)');
    // The skipped file is named with its reason, without its head.
    expect(r.summary).toContain('captures/bad\\.nvml\\.jsonl \\(unrecognized capture format \\(starts with &quot;…&quot;\\)');
  }, 120_000);
});

describe('mode run with a credential flag in the workload command', () => {
  it('--wandb-key VALUE: run.json, plan.txt and the GPU samples record *** on the runner, and nothing of it leaves', async () => {
    const ws = leakyWorkspace();
    const r = await runInProcess({ fake, event: PR_EVENT, workspace: ws, inputs: { ...RUN, run: `bash leaky.sh --wandb-key ${FLAG_MARK} --hf-token=${HEAD_MARK}`, profiler: 'none', 'upload-raw-captures': 'true' }, env: STAND_IN_ENV });
    expect(r.failures).toEqual([]);
    const recorded = filesUnder(join(ws, 'profile-gate', 'run')).filter((file) => /run\.json$|plan\.txt$|\.gpu\.jsonl$/.test(file));
    expect(recorded.map((file) => file.split('/').pop()).sort()).toEqual(['measured-1.gpu.jsonl', 'measured-2.gpu.jsonl', 'plan.txt', 'run.json']);
    for (const file of recorded) {
      const text = readFileSync(file, 'utf8');
      expect([file, text.includes(FLAG_MARK) || text.includes(HEAD_MARK)]).toEqual([file, false]);
    }
    expect(readFileSync(join(ws, 'profile-gate', 'run', 'run.json'), 'utf8')).toContain('--wandb-key ***');
    expect(routeLeaks(r, [FLAG_MARK, HEAD_MARK])).toEqual([]);
  }, 60_000);
});
