/**
 * The action door: read the inputs, then hand over to the mode. Modes share `publish` (summary,
 * annotations, sticky comment, outputs); a failing verdict or a bad input fails the job.
 */
import * as core from '@actions/core';
import { describeError, UsageError } from '../errors.js';
import { GitHubClient } from '../github/client.js';
import { limitsFromEnv } from '../github/limits.js';
import { readRunContext } from './github/run-context.js';
import { getInputs, INPUTS, type Mode } from './inputs.js';
import { analyzeMode } from './modes/analyze-mode.js';
import { reportMode } from './modes/report-mode.js';
import { runMode } from './modes/run-mode.js';
import type { ModeContext } from './publish.js';

type ModeHandler = (ctx: ModeContext) => Promise<void>;

export const MODE_HANDLERS: Record<Mode, ModeHandler> = {
  analyze: analyzeMode,
  report: reportMode,
  run: runMode,
};

export async function run(): Promise<void> {
  try {
    const inputs = getInputs();
    const handler = MODE_HANDLERS[inputs.mode];
    if (inputs.githubToken) core.setSecret(inputs.githubToken);
    const limits = limitsFromEnv(process.env);
    let client: GitHubClient | undefined;
    const ctx: ModeContext = {
      inputs,
      run: readRunContext(),
      limits,
      github: () => {
        if (!inputs.githubToken) throw new UsageError(`input '${INPUTS.githubToken}': empty; expected a token (the default is \${{ github.token }})`);
        const apiUrl = (process.env['GITHUB_API_URL'] || 'https://api.github.com').replace(/\/+$/, '');
        client ??= new GitHubClient({ token: inputs.githubToken, apiUrl, limits: limits.http, retry: limits.retry });
        return client;
      },
    };
    await handler(ctx);
  } catch (error) {
    core.setFailed(describeError(error));
  }
}
