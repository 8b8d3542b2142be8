import { fileURLToPath } from 'node:url';
import { InputError } from '../../src/errors.js';
import { detectFormat } from '../../src/ingest/registry.js';
import { runImporter } from '../../src/ingest/common/importer.js';
import { openInput } from '../../src/ingest/common/input-file.js';
import kinetoJson from '../../src/ingest/formats/kineto-json.js';
import rocprofJson from '../../src/ingest/formats/rocprof-json.js';
import { claimedBy, expectedFor } from './sniff-sweep.js';
import { writeTempFile } from './profiler-temp-file.js';

const fixture = (name: string) => fileURLToPath(new URL(`../fixtures/rocprof/${name}`, import.meta.url));
const read = async (path: string) => runImporter(rocprofJson, await openInput(path));
const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);

/*
 * Expected numbers from Python's json module over the raw file: 1,963 ph "X" events, each with
 * args.KernelName; sum(int(DurationNs)) = 662,138,329 = sum(EndNs − BeginNs); names lose " [clone .kd]".
 */
describe('rocprof v1 results.json', () => {
  test('the whole llama.cpp R9700 trace: every kernel, exact ns, a timeline, the GPU name', async () => {
    const path = fixture('llamacpp_r9700_gfx1201_rocprofv1_results.json');
    expect(detectFormat(await openInput(path)).id).toBe('rocprof-json');
    const capture = await read(path);
    expect(capture.source).toMatchObject({ format: 'rocprof-json', tool: 'rocprof' });
    expect(sum(capture.kernels.map((k) => k.instances))).toBe(1_963);
    expect(sum(capture.kernels.map((k) => k.totalNs))).toBe(662_138_329);
    const mulMatQ = sum(capture.kernels.filter((k) => /\bmul_mat_q</.test(k.name)).map((k) => k.totalNs));
    expect(mulMatQ / 662_138_329).toBeGreaterThan(0.85);
    expect(capture.kernels.some((k) => k.name.endsWith('.kd'))).toBe(false);
    expect(capture.timeline).toMatchObject({ kernelLaunches: 1_963, devices: 1 });
    // The span (first Begin to last End) and busy union, from the same Python pass over the args.
    expect(capture.timeline!.busyNs).toBeLessThanOrEqual(capture.timeline!.spanNs);
    expect(capture.timeline!.busyNs).toBeGreaterThan(600_000_000);
    expect(capture.environment).toEqual({ vendor: 'amd', gpuName: 'AMDRadeonAIPROR9700', gpuCount: 4 });
  });

  test('reads the same per-dispatch numbers as the results.csv rocprof wrote beside it', async () => {
    const json = await read(fixture('llamacpp_r9700_gfx1201_rocprofv1_results.json'));
    const csv = await runImporter(detectFormat(await openInput(fixture('llamacpp_r9700_gfx1201_results.csv'))), await openInput(fixture('llamacpp_r9700_gfx1201_results.csv')));
    const byName = (kernels: typeof json.kernels) => Object.fromEntries(kernels.map((k) => [k.name, [k.totalNs, k.instances]]));
    expect(byName(json.kernels)).toEqual(byName(csv.kernels));
    expect(json.timeline).toEqual(csv.timeline);
  });

  test('sniff: claims rocprof traces only, never a Kineto trace', async () => {
    expect(await claimedBy(rocprofJson)).toEqual(await expectedFor(/rocprofv1_results(_head)?\.json$/));
    expect(await claimedBy(rocprofJson)).toHaveLength(2); // the real results.json and its head
    expect(rocprofJson.sniff('{"traceEvents":[{"ph":"X","cat":"kernel","args":{"KernelName":"k","BeginNs":"1"}}]}')).toBe(false);
    expect(kinetoJson.sniff('{"traceEvents":[]}')).toBe(true);
  });

  test('a cut-off file is one line naming the byte', async () => {
    const path = writeTempFile('cut.json', '{ "traceEvents":[{"ph":"X","name":"k","args":{"KernelName":"k","BeginNs":"10","EndNs":"20"}}');
    const error = await read(path).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InputError);
    expect((error as Error).message).toMatch(new RegExp(`^${path}:byte \\d+: expected a complete rocprof results.json`));
  });

  test('an end before its begin is refused, naming the event', async () => {
    const path = writeTempFile('backwards.json', '{ "traceEvents":[{"ph":"X","name":"k","args":{"KernelName":"k","BeginNs":"30","EndNs":"20"}}]}');
    await expect(read(path)).rejects.toThrow(`${path}:traceEvents[0]: expected EndNs at or after BeginNs`);
  });
});
