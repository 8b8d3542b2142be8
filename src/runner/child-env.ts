/**
 * The environment a workload process starts with: ours less what is ours alone, the run's tracking
 * marker, and throwaway stand-ins for the runner's file commands. Depends on node built-ins only (the
 * process tests load the process modules on their own).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * The environment variable every process a run starts carries, with the run's own id as value (the
 * Actions runner tags job processes with RUNNER_TRACKING_ID the same way). A daemon that left the
 * process group and session is still found by it at the end.
 */
export const TRACKING_VARIABLE = 'PROFILE_GATE_TRACKING_ID';

/**
 * The runner's file commands. A workload that appends to them could set the action's outputs
 * (`verdict=pass`), rewrite the job summary, or change later steps' environment; it gets empty
 * throwaway files instead, removed when it exits.
 */
const FILE_COMMANDS = ['GITHUB_OUTPUT', 'GITHUB_STEP_SUMMARY', 'GITHUB_ENV', 'GITHUB_PATH', 'GITHUB_STATE'] as const;

/**
 * Our environment less what is ours alone: the action's inputs (the token among them) and the
 * runner's tokens for the artifact service and OIDC. A workload that prints its environment into a
 * log must not put them into the uploaded artifact, and it has no business with them.
 */
const WITHHELD_ENV = /^(INPUT_.*|ACTIONS_RUNTIME_TOKEN|ACTIONS_ID_TOKEN_REQUEST_TOKEN|ACTIONS_ID_TOKEN_REQUEST_URL)$/i;

export function childEnvironment(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  return Object.fromEntries(Object.entries(env).filter(([name]) => !WITHHELD_ENV.test(name)));
}

/** Empty stand-ins for the file commands this process was given, in a folder of their own. */
function throwawayFileCommands(env: NodeJS.ProcessEnv): { env: Record<string, string>; remove: () => void } {
  const present = FILE_COMMANDS.filter((name) => env[name]);
  if (present.length === 0) return { env: {}, remove: () => undefined };
  const dir = mkdtempSync(join(tmpdir(), 'profile-gate-workload-'));
  const replaced: Record<string, string> = {};
  for (const name of present) {
    replaced[name] = join(dir, name.toLowerCase());
    writeFileSync(replaced[name], '');
  }
  return { env: replaced, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/**
 * The full environment of a workload process, and the removal of its throwaway file commands (call
 * once it has exited). Without a temporary folder the workload gets no file commands at all.
 */
export function workloadEnvironment(extra: Readonly<Record<string, string>>, trackingId: string): { env: NodeJS.ProcessEnv; remove: () => void } {
  let fileCommands: ReturnType<typeof throwawayFileCommands> = { env: {}, remove: () => undefined };
  try {
    fileCommands = throwawayFileCommands(process.env);
  } catch {
    // no temporary folder: the workload gets no file commands at all (below)
  }
  const env: NodeJS.ProcessEnv = { ...childEnvironment(process.env), ...extra, ...fileCommands.env, [TRACKING_VARIABLE]: trackingId };
  for (const name of FILE_COMMANDS) if (!(name in fileCommands.env)) delete env[name];
  return { env, remove: fileCommands.remove };
}
