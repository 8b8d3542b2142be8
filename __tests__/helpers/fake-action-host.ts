/**
 * The action in process: runAction (src/action/run-action.ts) handed a recording ActionHost, against
 * the loopback GitHub. The host is the only stand-in: inputs come with action.yml's defaults as the
 * runner applies them, the environment is the one the runner gives a step, and an upload lands in
 * the fake's artifact list (as the artifact service would record it), so a later step, in process or
 * bundled, finds it through the REST API. Our own modules run as they are.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, sep } from 'node:path';
import type { ActionHost, AnnotationProperties, ArtifactStore } from '../../src/action/host.js';
import { runAction } from '../../src/action/run-action.js';
import type { FakeGitHub } from './fake-github.js';
import { actionDefaults, registerRun, runnerEnvironment, stepFiles, type RunOptions } from './fake-github-runner.js';

export interface Annotation {
  level: 'error' | 'warning' | 'notice';
  message: string;
  title?: string;
}

export interface InProcessOptions extends RunOptions {
  /** The artifact service refuses every upload with this message. */
  uploadFailure?: string;
}

/** An ActionHost that records what the action does to the world. */
export class FakeActionHost implements ActionHost {
  readonly outputs: Record<string, string> = {};
  summary = '';
  readonly annotations: Annotation[] = [];
  /** Every line the action logged, annotations included (as `level: message`), groups as `::group::name`. */
  readonly log: string[] = [];
  /** setFailed messages, in order. */
  readonly failures: string[] = [];
  readonly secrets: string[] = [];

  constructor(
    private readonly inputs: Readonly<Record<string, string>>,
    readonly env: Readonly<Record<string, string | undefined>>,
    readonly artifacts: ArtifactStore,
  ) {}

  /** As @actions/core reads an input: trimmed, '' when not set. */
  getInput(name: string): string {
    return (this.inputs[name] ?? '').trim();
  }
  debug(text: string): void {
    this.log.push(`debug: ${text}`);
  }
  info(text: string): void {
    this.log.push(text);
  }
  notice(text: string, properties?: AnnotationProperties): void {
    this.annotate('notice', text, properties);
  }
  warning(text: string, properties?: AnnotationProperties): void {
    this.annotate('warning', text, properties);
  }
  error(text: string, properties?: AnnotationProperties): void {
    this.annotate('error', text, properties);
  }
  async group<T>(name: string, fn: () => Promise<T>): Promise<T> {
    this.log.push(`::group::${name}`);
    try {
      return await fn();
    } finally {
      this.log.push('::endgroup::');
    }
  }
  setSecret(value: string): void {
    this.secrets.push(value);
  }
  setOutput(name: string, value: string): void {
    this.outputs[name] = value;
  }
  async writeSummary(markdown: string): Promise<void> {
    this.summary += markdown;
  }
  setFailed(message: string): void {
    this.failures.push(message);
  }

  /** Messages of one level, titled or not. */
  messages(level: Annotation['level']): string[] {
    return this.annotations.filter((a) => a.level === level).map((a) => a.message);
  }

  private annotate(level: Annotation['level'], message: string, properties?: AnnotationProperties): void {
    this.annotations.push({ level, message, ...(properties?.title !== undefined ? { title: properties.title } : {}) });
    this.log.push(`${level}: ${message}`);
  }
}

/**
 * This run's artifact service, as the fake records it: one artifact per name and run (a second is a
 * 409, as the service answers), the files stored under their paths below the root.
 */
export function fakeArtifactStore(fake: FakeGitHub, runId: number, failure?: string): ArtifactStore {
  return {
    async upload(name, files, root) {
      if (failure) throw new Error(failure);
      if (fake.artifactsOfRun(runId).some((a) => a.name === name)) throw new Error(`Failed to CreateArtifact: Received non-retryable error: Failed request: (409) Conflict: an artifact with this name already exists on the workflow run`);
      const stored = Object.fromEntries(files.map((file) => [relative(root, file).split(sep).join('/'), readFileSync(file)]));
      const artifact = fake.addArtifact(runId, name, stored);
      return { id: artifact.id, size: artifact.size };
    },
    async delete(name) {
      const index = fake.artifacts.findIndex((a) => a.runBackendId === `run-${runId}` && a.name === name);
      if (index >= 0) fake.artifacts.splice(index, 1);
    },
  };
}

export interface InProcessResult {
  /** 1 when the step failed (setFailed), else 0: the exit code the runner would see. */
  code: number;
  outputs: Record<string, string>;
  summary: string;
  workspace: string;
  host: FakeActionHost;
  /** Shorthands of host.messages(level) and host.failures. */
  errors: string[];
  warnings: string[];
  notices: string[];
  failures: string[];
}

/**
 * Runs the action in this process, in `workspace` as its working directory, with the inputs and the
 * environment runAction (the bundled one) would give it.
 */
export async function runInProcess(options: InProcessOptions): Promise<InProcessResult> {
  const workspace = options.workspace ?? mkdtempSync(join(tmpdir(), 'pg-ws-'));
  const runId = options.runId ?? 4242;
  const files = stepFiles(options);
  const env = runnerEnvironment(options, files, workspace);
  registerRun(options, runId, env);
  const inputs = { ...actionDefaults(options.token ?? 'ghs_faketoken'), ...options.inputs };
  const host = new FakeActionHost(inputs, env, fakeArtifactStore(options.fake, runId, options.uploadFailure));
  const cwd = process.cwd();
  process.chdir(workspace);
  try {
    await runAction(host);
  } finally {
    process.chdir(cwd);
  }
  const code = host.failures.length ? 1 : 0;
  options.fake.registerRun({ ...options.fake.runs.find((r) => r.id === runId)!, status: 'completed', conclusion: code === 0 ? 'success' : 'failure' });
  return {
    code,
    outputs: host.outputs,
    summary: host.summary,
    workspace,
    host,
    errors: host.messages('error'),
    warnings: host.messages('warning'),
    notices: host.messages('notice'),
    failures: host.failures,
  };
}
