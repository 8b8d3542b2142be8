/**
 * Mode analyze in process: the inputs that decide which captures are merged (allow-mixed, strict)
 * and the query list of a noheader nvidia-smi log (smi-columns), on real captures.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { workspace } from '../helpers/action-workspace.js';
import { runInProcess } from '../helpers/fake-action-host.js';
import type { FakeGitHub } from '../helpers/fake-github.js';
import { PR_EVENT, useFakeGitHub } from '../helpers/fake-github-runner.js';

const RTX5090 = 'nsys/dsocr_decode_rtx5090_cuda_gpu_kern_sum.csv';
const QWEN = 'nsys/vllm_qwen2.5-7b_cuda_gpu_kern_sum.csv';

let fake: FakeGitHub;
useFakeGitHub((started) => (fake = started));

const run = (dir: string, inputs: Record<string, string> = {}) =>
  runInProcess({ fake, event: PR_EVENT, workspace: dir, inputs: { captures: 'captures', key: 'mixed', comment: 'off', 'upload-artifact': 'false', ...inputs } });

describe('mode analyze: which captures are merged', () => {
  it('refuses an RTX 5090 run and a vLLM run in one line; allow-mixed merges them with a warning', async () => {
    const refused = await run(workspace([RTX5090, QWEN]));
    expect(refused.code).toBe(1);
    expect(refused.errors).toEqual([]);
    expect(refused.failures).toHaveLength(1);
    expect(refused.failures[0]).toContain('the inputs record different workloads');

    const merged = await run(workspace([RTX5090, QWEN]), { 'allow-mixed': 'true' });
    expect(merged.code).toBe(0);
    const report = JSON.parse(readFileSync(join(merged.workspace, 'profile-gate', 'report.json'), 'utf8')) as { notices: Array<{ code: string; severity: string }> };
    expect(report.notices).toContainEqual(expect.objectContaining({ code: 'mixed-inputs', severity: 'warning' }));
  });

  it('skips an unreadable file in the captures folder with a warning; strict: true fails on it', async () => {
    const dir = () => workspace(['nsys/nsys_healthy_kern_sum.csv'], { 'notes.json': '{"not": "a capture"}\n' });
    const skipped = await run(dir());
    expect(skipped.code).toBe(0);
    const report = JSON.parse(readFileSync(join(skipped.workspace, 'profile-gate', 'report.json'), 'utf8')) as { notices: Array<{ code: string; message: string }> };
    expect(report.notices.find((n) => n.code === 'unreadable-input')!.message).toMatch(/notes\.json:1: unrecognized capture format/);
    const strict = await run(dir(), { strict: 'true' });
    expect(strict.code).toBe(1);
    expect(strict.failures[0]).toMatch(/notes\.json:1: unrecognized capture format/);
  });

  it('reads a noheader nvidia-smi log with smi-columns', async () => {
    const r = await run(workspace(['nvidia-smi/llamacpp_4gpu_noheader_nounits.csv']), { 'smi-columns': 'timestamp,utilization.gpu,memory.used' });
    expect(r.code).toBe(0);
    const report = JSON.parse(readFileSync(join(r.workspace, 'profile-gate', 'report.json'), 'utf8')) as { utilization: { devices: number; totalSampleCount: number; peakPercent: number } };
    expect(report.utilization).toMatchObject({ devices: 4, totalSampleCount: 388, peakPercent: 0 });
  });
});
