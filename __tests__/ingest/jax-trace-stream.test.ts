/**
 * A large jax.profiler trace is streamed, not held whole: a synthetic trace of about 85 MB (built
 * here, written in pieces) is read by the importer in a child Node process whose heap is capped
 * below the size of the text alone, and every kernel comes out to the ns.
 */
import { spawnSync } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, rmSync, statSync, writeFileSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { transpileClosure } from '../helpers/transpiled-src.js';

/** Old space allowed to the child: the file's text alone is more than it. */
const HEAP_MB = 64;
const KERNELS = 300_000;

interface Written {
  path: string;
  bytes: number;
  instances: number;
  totalNs: number;
}

/** GPU kernels on /device:GPU:0 with a host event beside every fourth, and the process names last. */
function writeTrace(dir: string): Written {
  const path = join(dir, 'big.perfetto_trace.json');
  const fd = openSync(path, 'w');
  let totalNs = 0;
  let pending: string[] = [];
  const flush = (): void => {
    writeSync(fd, pending.join(''));
    pending = [];
  };
  writeSync(fd, '{"displayTimeUnit": "ns", "traceEvents": [{"ph": "M", "pid": 1, "name": "process_name", "args": {"name": "/device:GPU:0"}}');
  for (let k = 0; k < KERNELS; k++) {
    const dur = (k % 7) + 1 + 0.125;
    totalNs += Math.round(dur * 1000);
    const ts = (1_000_000 + k * 10).toFixed(3);
    pending.push(
      `, {"ph": "X", "pid": 1, "tid": 14, "ts": ${ts}, "dur": ${dur}, "name": "gemm_fusion_dot_${k % 50}", "args": {"kernel_details": "grid:${(k % 5) + 1},1,1 block:128,1,1 dynamic_shared_memory:0", "hlo_module": "jit_step", "hlo_op": "dot.${k % 50}", "correlation_id": ${k}}}`,
    );
    if (k % 4 === 0) pending.push(`, {"ph": "X", "pid": 2, "tid": 1, "ts": ${ts}, "dur": 3.5, "name": "PjitFunction(step)", "args": {"long_name": "jax/_src/pjit.py:${k}"}}`);
    if (pending.length >= 4096) flush();
  }
  pending.push(', {"ph": "M", "pid": 2, "name": "process_name", "args": {"name": "/host:CPU"}}]}');
  flush();
  closeSync(fd);
  return { path, bytes: statSync(path).size, instances: KERNELS, totalNs };
}

describe('a large jax.profiler trace', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'profile-gate-jax-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it(`is read under a ${HEAP_MB} MB heap, every kernel to the ns`, () => {
    const trace = writeTrace(dir);
    expect(trace.bytes).toBeGreaterThan(HEAP_MB * 1024 * 1024);
    const js = transpileClosure('ingest/formats/jax-trace.ts', 'ingest/common/input-file.ts', 'ingest/common/importer.ts');
    const script = join(js, 'read-trace.mjs');
    writeFileSync(
      script,
      [
        "import { openInput } from './ingest/common/input-file.js';",
        "import { runImporter } from './ingest/common/importer.js';",
        "import jax from './ingest/formats/jax-trace.js';",
        'const capture = await runImporter(jax, await openInput(process.argv[2]));',
        'const instances = capture.kernels.reduce((n, k) => n + k.instances, 0);',
        'const totalNs = capture.kernels.reduce((n, k) => n + k.totalNs, 0);',
        'console.log(JSON.stringify({ instances, totalNs, kernels: capture.kernels.length, launches: capture.timeline?.kernelLaunches }));',
      ].join('\n'),
    );
    const result = spawnSync(process.execPath, [`--max-old-space-size=${HEAP_MB}`, script, trace.path], { encoding: 'utf8', env: { PATH: process.env['PATH'] ?? '' } });
    rmSync(js, { recursive: true, force: true });
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual({ instances: trace.instances, totalNs: trace.totalNs, kernels: 50, launches: trace.instances });
  }, 240_000);
});
