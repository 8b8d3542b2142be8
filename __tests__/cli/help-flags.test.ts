/**
 * Each command's --help is its rows of the option table (src/options/table.ts): a flag line for
 * every flag the command's rows give, with the value it takes, and no flag line of its own.
 */
import { ALL_OPTIONS, COMMANDS } from '../../src/options/table.js';
import { cli } from '../helpers/cli.js';

/** The flag lines of a help text: `  --name VALUE   help`, as `--name VALUE`. */
function flagLines(help: string): string[] {
  return help
    .split('\n')
    .flatMap((line) => {
      const match = /^ {2}(--[a-z][a-z-]*(?: \S+)?)(?: {2,}|$)/.exec(line);
      return match ? [match[1]!] : [];
    })
    .sort();
}

function rowFlags(command: (typeof COMMANDS)[number]): string[] {
  return ALL_OPTIONS.filter((row) => row.flag?.commands.includes(command))
    .map((row) => `--${row.flag!.name}${row.flag!.value ? ` ${row.flag!.value}` : ''}`)
    .sort();
}

describe('every command\'s help', () => {
  it.each([...COMMANDS])('%s --help lists every flag of its rows, and nothing else', async (command) => {
    const { code, stdout } = await cli([command, '--help']);
    expect(code).toBe(0);
    expect(rowFlags(command).length).toBeGreaterThan(0);
    expect(flagLines(stdout)).toEqual(rowFlags(command));
  });

  it('the overview lists the flags of analyze', async () => {
    const { stdout } = await cli(['--help']);
    expect(flagLines(stdout)).toEqual(rowFlags('analyze'));
  });

  it('a row read from the environment says so in its help', () => {
    const withEnv = ALL_OPTIONS.filter((row) => row.env?.length);
    expect(withEnv.map((row) => row.flag?.name).sort()).toEqual(['branch', 'commit', 'repo']);
    for (const row of withEnv) for (const name of row.env!) expect([row.key, row.flag!.help]).toEqual([row.key, expect.stringContaining(`$${name}`)]);
  });
});
