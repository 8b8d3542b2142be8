/** Run the CLI in process (main), capturing what it writes to stdout and stderr. */
import { jest } from '@jest/globals';
import { main } from '../../src/cli/program.js';
import { runCommandWith, type RunCommandDeps } from '../../src/cli/run-command.js';

export async function cli(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const out: string[] = [];
  const err: string[] = [];
  const stdout = jest.spyOn(process.stdout, 'write').mockImplementation((chunk) => (out.push(String(chunk)), true));
  const stderr = jest.spyOn(process.stderr, 'write').mockImplementation((chunk) => (err.push(String(chunk)), true));
  try {
    const code = await main(args);
    return { code, stdout: out.join(''), stderr: err.join('') };
  } finally {
    stdout.mockRestore();
    stderr.mockRestore();
  }
}

/** `profile-gate run` in process with injected deps: its output collected, stderr captured, no signal handlers. */
export async function runCli(argv: string[], deps: RunCommandDeps): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  const err: string[] = [];
  const stderr = jest.spyOn(process.stderr, 'write').mockImplementation((chunk) => (err.push(String(chunk)), true));
  try {
    const code = await runCommandWith(argv, { noSignalHandlers: true, write: (text) => (stdout += text), ...deps });
    return { code, stdout, stderr: err.join('') };
  } finally {
    stderr.mockRestore();
  }
}
