/**
 * Action inputs: read once through the host, each by its row of the option table
 * (src/options/table.ts: name, default, parser), into one object; mode run's options through
 * the same rows (runOptionTexts), parsed together by the runner. A bad input is one line naming it.
 */
import { UsageError } from '../errors.js';
import { actionText, readOptions, runOptionTexts } from '../options/read.js';
import { OPTIONS, type InputKey, type OptionValues } from '../options/table.js';
import { parseRunOptions, type RunOptions } from '../runner/run-options.js';
import type { ActionHost } from './host.js';

export { MODES, type Mode } from '../options/table.js';

/** Each option's input name by its field (the table's rows). */
export const INPUTS = Object.fromEntries(OPTIONS.flatMap((row) => (row.input !== undefined ? [[row.key, row.input]] : []))) as { readonly [K in InputKey]: string };

export const OUTPUTS = {
  verdict: 'verdict',
  decodeTokS: 'decode-tok-s',
  findings: 'findings',
  reportJson: 'report-json',
  artifactId: 'artifact-id',
  commentUrl: 'comment-url',
  skippedInputs: 'skipped-inputs',
} as const;

export type ActionInputs = Pick<OptionValues, InputKey> & {
  /** Mode run's options (the engine's, shared with `profile-gate run`); read in mode run only. */
  run?: RunOptions;
};

/** Bad inputs, one line each (the job shows each as an error, and fails on the last). */
export class InputsError extends UsageError {
  constructor(readonly lines: readonly string[]) {
    super(lines.join('; '));
  }
}

/** Every input of the action, read once through the host and validated; throws an InputsError naming each bad one. */
export function getInputs(host: Pick<ActionHost, 'getInput'>): ActionInputs {
  const textOf = actionText((name) => host.getInput(name));
  const { values, problems } = readOptions(textOf, 'action');
  const bad = [...problems];
  const mode = values.mode ?? host.getInput(INPUTS.mode);
  if (mode === 'analyze' && values.captures?.length === 0) bad.push(`input '${INPUTS.captures}': expected at least one capture path in mode 'analyze'`);
  let run: RunOptions | undefined;
  if (mode === 'run') {
    try {
      run = parseRunOptions(runOptionTexts(textOf), 'input');
    } catch (error) {
      if (!(error instanceof UsageError)) throw error;
      bad.push(error.message);
    }
  }
  if (bad.length) throw new InputsError(bad);
  return run ? { ...values, run } : values;
}
