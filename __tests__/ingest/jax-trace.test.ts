import { fileURLToPath } from 'node:url';
import { InputError } from '../../src/errors.js';
import { detectFormat } from '../../src/ingest/registry.js';
import { runImporter } from '../../src/ingest/common/importer.js';
import { openInput } from '../../src/ingest/common/input-file.js';
import jaxTrace from '../../src/ingest/formats/jax-trace.js';
import kinetoJson from '../../src/ingest/formats/kineto-json.js';
import { claimedBy, expectedFor } from './sniff-sweep.js';
import { writeTempFile } from './profiler-temp-file.js';

const fixture = (name: string) => fileURLToPath(new URL(`../fixtures/h200-pairs/${name}`, import.meta.url));
const read = async (path: string) => runImporter(jaxTrace, await openInput(path));
const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);

/*
 * Expected numbers from Python's json module over the trace (fixtures/h200-pairs/PROVENANCE.md): 1,872
 * ph "X" events on the /device:GPU:0 process, each with kernel_details; sum(round(dur × 1000)) = 15,346,268 ns.
 */
describe('jax.profiler trace (Perfetto JSON)', () => {
  test('the jitted H200 decode: every kernel to the ns, launch grids, a timeline; not taken for a PyTorch trace', async () => {
    const path = fixture('gpu_bound/jax_b8_jaxprof.perfetto_trace.json.gz');
    const file = await openInput(path);
    expect(detectFormat(file).id).toBe('jax-trace');
    const capture = await read(path);
    expect(capture.source).toMatchObject({ format: 'jax-trace', tool: 'jax.profiler' });
    expect(sum(capture.kernels.map((k) => k.instances))).toBe(1_872);
    expect(sum(capture.kernels.map((k) => k.totalNs))).toBe(15_346_268);
    // gemm_fusion_dot's first event: `grid:384,1,1 block:128,1,1`.
    expect(capture.kernels.find((k) => k.name === 'gemm_fusion_dot')).toMatchObject({ instances: 128, grid: [384, 1, 1], block: [128, 1, 1] });
    expect(capture.timeline).toMatchObject({ kernelLaunches: 1_872, devices: 1, spanNs: 15_320_165 });
  });

  test('the op-by-op trace: copies and memsets counted and left out of kernel time', async () => {
    const capture = await read(fixture('host_bound/jax_eager_jaxprof.perfetto_trace.trimmed.json.gz'));
    expect(sum(capture.kernels.map((k) => k.instances))).toBe(1_272);
    expect(capture.source.stats.find((s) => s.name === 'copy-event')?.count).toBe(1_248);
  });

  const head = '{"displayTimeUnit": "ns", "traceEvents": [{"ph": "M", "pid": 1, "name": "process_name", "args": {"name": "/device:GPU:0"}}';
  test('a PyTorch trace is not claimed, and the Kineto importer does not claim a JAX one', async () => {
    expect(jaxTrace.sniff('{"schemaVersion": 1, "deviceProperties": [], "traceEvents": [{"ph": "X", "cat": "kernel"}]}')).toBe(false);
    expect(detectFormat(await openInput(fixture('gpu_bound/jax_b8_jaxprof.perfetto_trace.json.gz'))).id).not.toBe(kinetoJson.id);
    expect(jaxTrace.sniff(head)).toBe(true);
    expect(await claimedBy(jaxTrace)).toEqual(await expectedFor(/perfetto_trace(\.trimmed|\.first_step)?\.json(\.gz)?$/));
    expect(await claimedBy(jaxTrace)).toHaveLength(3);
  });

  test('a GPU process named after its events: its kernels are read, and copies counted once', async () => {
    const kernel = (ts: number) => `{"ph": "X", "pid": 7, "tid": 14, "ts": ${ts}, "dur": 1.25, "name": "k", "args": {"kernel_details": "grid:2,1,1 block:64,1,1"}}`;
    const late = await writeTempFile(
      'late.json',
      `{"traceEvents": [${kernel(10)}, {"ph": "X", "pid": 7, "tid": 15, "ts": 11, "dur": 1, "name": "MemcpyH2D", "args": {"memcpy_details": "x"}}, ${kernel(20.5)}, {"ph": "M", "pid": 7, "name": "process_name", "args": {"name": "/device:GPU:0"}}]}`,
    );
    const capture = await read(late);
    expect(capture.kernels).toMatchObject([{ name: 'k', instances: 2, totalNs: 2_500, grid: [2, 1, 1], block: [64, 1, 1] }]);
    expect(capture.source.stats.find((s) => s.name === 'copy-event')?.count).toBe(1);
  });

  test('bad input: one line naming the event and what was expected', async () => {
    const bad = await writeTempFile(
      'bad.json',
      `${head}, {"ph": "X", "pid": 1, "tid": 14, "ts": "soon", "dur": 1.5, "name": "k", "args": {"kernel_details": "grid:1,1,1 block:32,1,1"}}]}`,
    );
    await expect(read(bad)).rejects.toThrow(InputError);
    await expect(read(bad)).rejects.toThrow(/traceEvents\[1\].*expected "ts" in µs|expected "ts" in µs.*traceEvents\[1\]/);
    const none = await writeTempFile('none.json', `${head}, {"ph": "X", "pid": 1, "tid": 14, "ts": 1, "dur": 2, "name": "MemcpyH2D", "args": {"memcpy_details": "kind_src:pinned"}}]}`);
    await expect(read(none)).rejects.toThrow(/found only 1 copies/);
    // A broken event: where it starts, as the Kineto reader says it.
    const broken = await writeTempFile('broken.json', `${head}, {"ph": "X", "pid": 1, "ts": 1,, "dur": 2}]}`);
    await expect(read(broken)).rejects.toThrow(/expected a trace event that is valid JSON.*traceEvents\[1\]|traceEvents\[1\].*expected a trace event that is valid JSON/);
    const cut = await writeTempFile('cut.json', `${head}, {"ph": "X", "pid": 1, "ts": 1`);
    await expect(read(cut)).rejects.toThrow(/byte \d+/);
  });
});

describe('the XLA program that launched a kernel', () => {
  /*
   * From the op-by-op trace's args (Python's json over the file): input_reduce_fusion ran 89.5 % of its time in
   * jit_dot_general (a batch-1 matmul written as a reduction), 9.1 % in jit_reduce_sum, 1.4 % in jit_argmax;
   * loop_multiply_fusion 60.1 % in jit_dot_general and 39.9 % in jit_mul; the jitted decode runs all in jit_step.
   */
  test('is the kernel launchedBy, with its share of the time', async () => {
    const eager = await read(fixture('host_bound/jax_eager_jaxprof.perfetto_trace.trimmed.json.gz'));
    expect(eager.kernels.find((k) => k.name === 'input_reduce_fusion')).toMatchObject({ launchedBy: 'jit_dot_general' });
    expect(eager.kernels.find((k) => k.name === 'input_reduce_fusion')!.launchedByShare).toBeCloseTo(0.895, 3);
    expect(eager.kernels.find((k) => k.name === 'loop_multiply_fusion')!.launchedByShare).toBeCloseTo(0.601, 3);
    const jitted = await read(fixture('gpu_bound/jax_b8_jaxprof.perfetto_trace.json.gz'));
    expect(new Set(jitted.kernels.map((k) => k.launchedBy))).toEqual(new Set(['jit_step']));
  });

  test('a reduction that is mostly a matmul program is a GEMV; one shared with other ops keeps its name family', async () => {
    const { createClassifier } = await import('../../src/classify/classify.js');
    const classify = createClassifier();
    const eager = await read(fixture('host_bound/jax_eager_jaxprof.perfetto_trace.trimmed.json.gz'));
    const family = (name: string) => classify(eager.kernels.find((k) => k.name === name)!);
    expect(family('input_reduce_fusion')).toBe('gemv');
    expect(family('gemm_fusion_dot_1')).not.toBe('gemv'); // a GEMM fusion keeps its own family
    expect(family('loop_multiply_fusion')).toBe('elementwise'); // 60 % is not most
    expect(classify({ name: 'input_reduce_fusion' })).toBe('reduce'); // no program named: the name decides
    expect(classify({ name: 'input_reduce_fusion', launchedBy: 'jit_step', launchedByShare: 1 })).toBe('reduce');
  });
});
