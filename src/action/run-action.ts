/**
 * The action door: read the run context and the inputs, then hand over to the mode. Modes share
 * `publish` (summary, annotations, sticky comment, outputs); a failing verdict or a bad input fails
 * the job. Everything it does to the world goes through the host.
 */
import { describeError, UsageError } from '../errors.js';
import { GitHubClient } from '../github/client.js';
import { limitsFromEnv } from '../github/limits.js';
import { readRunContext } from './github/run-context.js';
import type { ActionHost } from './host.js';
import { secretsFromEnv } from '../io/secrets.js';
import { redactingHost } from './redacting-host.js';
import { getInputs, INPUTS, InputsError, type Mode } from './inputs.js';
import type { ModeContext } from './publish.js';

type ModeHandler = (ctx: ModeContext) => Promise<void>;

/**
 * Each mode's handler, loaded when the mode is the job's: a report job need not compile the
 * importers and the analysis, nor an analyze job the runner.
 */
export const MODE_HANDLERS: Record<Mode, () => Promise<ModeHandler>> = {
  analyze: () => import('./modes/analyze-mode.js').then((m) => m.analyzeMode),
  report: () => import('./modes/report-mode.js').then((m) => m.reportMode),
  run: () => import('./modes/run-mode.js').then((m) => m.runMode),
};

export async function runAction(runnerHost: ActionHost): Promise<void> {
  // Until the inputs are read, the credential-named variables alone are known secrets.
  let host = redactingHost(runnerHost, secretsFromEnv(runnerHost.env));
  try {
    // The event file first: a broken one is the runner's problem, named before any input.
    const run = readRunContext(host.env);
    const inputs = getInputs(host);
    const handler = await MODE_HANDLERS[inputs.mode]();
    const secrets = secretsFromEnv({ ...runnerHost.env, 'INPUT_GITHUB-TOKEN': inputs.githubToken }, inputs.redactEnv);
    // The runner masks them in the log too (its own ACTIONS_* tokens it masks already, and a masking
    // command would print them); the redaction also covers files, the summary and the comment.
    const ownEnv = Object.fromEntries(Object.entries(runnerHost.env).filter(([name]) => !name.startsWith('ACTIONS_')));
    for (const value of secretsFromEnv({ ...ownEnv, 'INPUT_GITHUB-TOKEN': inputs.githubToken }, inputs.redactEnv).values) runnerHost.setSecret(value);
    host = redactingHost(runnerHost, secrets);
    const limits = limitsFromEnv(host.env);
    let client: GitHubClient | undefined;
    const ctx: ModeContext = {
      host,
      secrets,
      inputs,
      run,
      limits,
      github: () => {
        if (!inputs.githubToken) throw new UsageError(`input '${INPUTS.githubToken}': empty; expected a token (the default is \${{ github.token }})`);
        client ??= new GitHubClient({ token: inputs.githubToken, apiUrl: run.apiUrl, limits: limits.http, retry: limits.retry });
        return client;
      },
    };
    await handler(ctx);
  } catch (error) {
    if (error instanceof InputsError && error.lines.length > 1) {
      for (const line of error.lines.slice(0, -1)) host.error(line);
      host.setFailed(error.lines.at(-1)!);
    } else host.setFailed(describeError(error));
  }
}
