/**
 * Workspaces for the action's tests, bundled or in process: a fresh directory holding captures/,
 * and the options of one mode-analyze run on a pull request.
 */
import { copyFileSync, cpSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FakeGitHub } from './fake-github.js';
import { PR_EVENT, ROOT, type RunOptions } from './fake-github-runner.js';

export const FIXTURES = join(ROOT, '__tests__', 'fixtures');
export const E2E_FIXTURES = join(FIXTURES, 'e2e');

/** A healthy H200 decode run with graphs off: nsys kernel summary and GPU time utilization (a host-bound warning). */
export const HEALTHY_CAPTURES = ['e2e/healthy_graphoff_node.kern_sum.csv', 'e2e/healthy_graphoff_node.gpu_time_util_t100.csv'];

/**
 * A workspace holding `files` (paths under __tests__/fixtures) in captures/ under their base names,
 * and `extra` files written there as given.
 */
export function workspace(files: readonly string[] = HEALTHY_CAPTURES, extra: Record<string, string> = {}): string {
  const dir = mkdtempSync(join(tmpdir(), 'pg-ws-'));
  mkdirSync(join(dir, 'captures'));
  for (const file of files) copyFileSync(join(FIXTURES, file), join(dir, 'captures', file.split('/').pop()!));
  for (const [name, text] of Object.entries(extra)) writeFileSync(join(dir, 'captures', name), text);
  return dir;
}

/** A workspace holding one of the bundled samples (samples/baseline or samples/current) as captures/. */
export function sampleWorkspace(sample: 'baseline' | 'current'): string {
  const dir = mkdtempSync(join(tmpdir(), 'pg-ws-'));
  cpSync(join(ROOT, 'samples', sample), join(dir, 'captures'), { recursive: true });
  return dir;
}

/** Mode analyze of the healthy captures on pull request #7, key llama-h200. */
export function analyzeOptions(fake: FakeGitHub, extra: Partial<RunOptions> = {}, inputs: Record<string, string> = {}): RunOptions {
  return { fake, event: PR_EVENT, workspace: workspace(), inputs: { captures: 'captures', key: 'llama-h200', ...inputs }, ...extra };
}
