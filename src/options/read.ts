/**
 * The two doors' readers of the option table: the action reads each row's input (empty: the
 * row's default), the CLI each flag of its command (absent: the default). Either way each value
 * goes through its row's one parser, and a bad value names the input or the flag.
 */
import { UsageError } from '../errors.js';
import { RUN_OPTION_NAMES } from '../runner/run-options.js';
import { ALL_OPTIONS, OPTIONS, type Command, type OptionGroup, type OptionRow, type OptionValues } from './table.js';

export type Door = 'cli' | 'action';

/** The option as the user spells it at this door: `--fail-on`, or `input 'fail-on'`. */
export function optionName(row: OptionRow, door: Door): string {
  if (row.input !== undefined && (door === 'action' || !row.flag)) return `input '${row.input}'`;
  return `--${row.flag!.name}`;
}

/** Each option's value from its text at the door; the bad ones as one line each (in table order). */
export function readOptions(textOf: (row: OptionRow) => string, door: Door): { values: OptionValues; problems: string[] } {
  const values: Record<string, unknown> = {};
  const problems: string[] = [];
  for (const row of OPTIONS as readonly OptionRow[]) {
    try {
      values[row.key] = row.parse(textOf(row), optionName(row, door));
    } catch (error) {
      if (!(error instanceof UsageError)) throw error;
      problems.push(error.message);
    }
  }
  // Every row parsed (a problem throws before the values are used): the table's types hold.
  return { values: values as OptionValues, problems };
}

/** The action's text of a row: the input, or its default when empty (as the runner applies action.yml's). */
export function actionText(getInput: (name: string) => string): (row: OptionRow) => string {
  // An option of the CLI only has no input: the action always takes its default.
  return (row) => (row.input !== undefined && getInput(row.input)) || row.default;
}

function takes(row: OptionRow, command: Command): boolean {
  return row.flag?.commands.includes(command) ?? false;
}

/** The flags of a command as node:util parseArgs options. */
export function flagOptions(command: Command): Record<string, { type: 'string' | 'boolean'; multiple?: boolean }> {
  return Object.fromEntries(
    ALL_OPTIONS.filter((row) => takes(row, command)).map((row) => [row.flag!.name, { type: row.flag!.switch ? 'boolean' : 'string', ...(row.flag!.repeatable ? { multiple: true } : {}) }]),
  );
}

/** The flags of a command that take a value, as written on a command line (`--fail-on`). */
export function valueFlags(command: Command): string[] {
  return ALL_OPTIONS.filter((row) => takes(row, command) && !row.flag!.switch).map((row) => `--${row.flag!.name}`);
}

/** A flag's value as parseArgs gives it, as text: a switch is `true`, a repeated flag its values one a line. */
function flagText(value: unknown): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value === 'boolean') return String(value);
  if (Array.isArray(value)) return value.join('\n');
  return String(value);
}

/** The first of a row's environment variables that is set and not empty. */
function envText(row: OptionRow, env: Readonly<Record<string, string | undefined>>): string | undefined {
  return row.env?.map((name) => env[name]).find((value) => value !== undefined && value !== '');
}

/**
 * The values of a command's flags (parseArgs' values): a flag not given (or given empty, for a row
 * with environment variables) takes the row's variables from `env`, then its default; an option
 * the command has no flag for takes the default. Throws the first bad flag.
 */
export function readFlags(values: Readonly<Record<string, unknown>>, command: Command, env: Readonly<Record<string, string | undefined>> = process.env): OptionValues {
  const textOf = (row: OptionRow): string => {
    if (!takes(row, command)) return row.default;
    const given = flagText(values[row.flag!.name]);
    if (row.env && !given) return envText(row, env) ?? row.default;
    // Empty, as an empty input: the default (`--fail-on "$UNSET"` must not mean "fail on nothing").
    return given?.trim() ? given : row.default;
  };
  const { values: read, problems } = readOptions(textOf, 'cli');
  if (problems.length) throw new UsageError(problems[0]!);
  return read;
}

/** The rows of the runner's options: its own, and `captures` (a row of the values too). */
const RUN_ROWS = ALL_OPTIONS.filter((row) => row.input !== undefined && (RUN_OPTION_NAMES as readonly string[]).includes(row.input));

/**
 * The runner's options as text for its parser (runner/run-options.ts), by the runner's names, each
 * from its row at the door: both doors read them here. An undefined text is an option not given.
 */
export function runOptionTexts(textOf: (row: OptionRow) => string | undefined): Record<string, string> {
  const raw: Record<string, string> = {};
  for (const row of RUN_ROWS) {
    const text = textOf(row);
    if (text !== undefined) raw[row.input!] = text;
  }
  return raw;
}

/** The runner's options from `run`'s flags (parseArgs' values): a switch given is `true`, one not given is unset. */
export function runFlagTexts(values: Readonly<Record<string, unknown>>): Record<string, string> {
  return runOptionTexts((row) => (takes(row, 'run') && values[row.flag!.name] !== false ? flagText(values[row.flag!.name]) : undefined));
}

/** Help text wrapped at `width`, its continuation lines indented to `column`. */
function wrapHelp(text: string, column: number, width: number): string {
  const lines: string[] = [''];
  for (const word of text.split(' ')) {
    const last = lines.length - 1;
    if (lines[last] && column + lines[last]!.length + 1 + word.length > width) lines.push(word);
    else lines[last] = lines[last] ? `${lines[last]} ${word}` : word;
  }
  return lines.join(`\n${' '.repeat(column)}`);
}

/**
 * The help lines of a command's flags in these groups (all: every flag of the command), in the
 * table's order (or by `order`, names first), descriptions from `column` wrapped at 100; a flag
 * that leaves less than two spaces puts its description on the next line.
 */
export function flagsHelp(command: Command, groups: readonly OptionGroup[] | 'all', column: number, order: readonly string[] = []): string {
  const rank = (row: OptionRow) => (order.includes(row.flag!.name) ? order.indexOf(row.flag!.name) : order.length);
  return ALL_OPTIONS.filter((row) => takes(row, command) && (groups === 'all' || groups.includes(row.group)))
    .map((row, index) => ({ row, index }))
    .sort((a, b) => rank(a.row) - rank(b.row) || a.index - b.index)
    .map(({ row }) => {
      const flag = row.flag!;
      const name = `  --${flag.name}${flag.value ? ` ${flag.value}` : ''}`;
      const help = wrapHelp(flag.help, column, 100);
      // At least two spaces between a flag and its help, so each reads apart.
      return name.length + 2 <= column ? `${name.padEnd(column)}${help}` : `${name}\n${' '.repeat(column)}${help}`;
    })
    .join('\n');
}
