/**
 * The argument parser's errors (node:util parseArgs) as one line a user can act on: the flag named
 * as typed, the nearest flag the command has when one is close ("did you mean --baseline?"), and
 * where the command's flags are listed. The parser's own text (its advice about `--`, with an
 * unbalanced quote) never reaches the user.
 */
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { nearest, UsageError } from '../errors.js';

/**
 * A parseArgs error of `command` as a usage error of one line; anything else unchanged.
 * `flags` are the command's flag names without dashes.
 */
export function flagUsageError(error: unknown, command: string, flags: readonly string[]): unknown {
  const code = String((error as NodeJS.ErrnoException | undefined)?.code ?? '');
  if (!code.startsWith('ERR_PARSE_ARGS')) return error;
  const message = (error as Error).message;
  const help = `profile-gate ${command} --help lists its options`;
  const unknown = /^Unknown option '([^']+)'/.exec(message);
  if (unknown) {
    const given = unknown[1]!;
    const [name] = given.split('=', 1) as [string];
    const guess = nearest(name, flags.map((flag) => `--${flag}`));
    return new UsageError(`${command}: unknown option ${name}${guess ? `; did you mean ${guess}?` : ''} (${help})`);
  }
  const missing = /^Option '(?:-\w, )?(--?[^' ]+)(?: <value>)?' argument missing/.exec(message);
  if (missing) return new UsageError(`${command}: ${missing[1]} takes a value (${help})`);
  const noValue = /^Option '(?:-\w, )?(--?[^' ]+)' does not take an argument/.exec(message);
  if (noValue) return new UsageError(`${command}: ${noValue[1]} is a switch and takes no value (${help})`);
  const ambiguous = /^Option '(?:-\w, )?(--?[^' ]+)' argument is ambiguous/.exec(message);
  if (ambiguous) {
    const flag = ambiguous[1]!;
    return new UsageError(`${command}: ${flag} is followed by a word that starts with a dash, read as another option; a value that starts with one is written ${flag}=VALUE (${help})`);
  }
  const positional = /^Unexpected argument '([^']*)'/.exec(message);
  if (positional) return new UsageError(`${command}: unexpected argument ${JSON.stringify(positional[1])}; ${command} takes only options (${help})`);
  // Another parser error: its first sentence, without the parser's advice.
  return new UsageError(`${command}: ${message.split(/\.\s/, 1)[0]!.replace(/\.$/, '')} (${help})`);
}

/**
 * A flag of one value given twice with two values (`--fail-verdicts fail … --fail-verdicts none`):
 * the parser keeps the later, which would decide unseen. Refused in one line; the same value twice,
 * a switch twice and a repeatable flag are no contradiction. Call after the command's own parse.
 */
export function refuseRepeatedFlags(config: ParseArgsConfig, command: string): void {
  const { tokens } = parseArgs({ ...config, tokens: true });
  const seen = new Map<string, string | undefined>();
  for (const token of tokens) {
    if (token.kind !== 'option') continue;
    const option = config.options?.[token.name];
    if (!option || option.multiple || option.type === 'boolean') continue;
    if (seen.has(token.name) && seen.get(token.name) !== token.value) {
      throw new UsageError(`${command}: --${token.name} is given twice (${JSON.stringify(seen.get(token.name))}, then ${JSON.stringify(token.value)}); give it once (profile-gate ${command} --help lists its options)`);
    }
    seen.set(token.name, token.value);
  }
}
