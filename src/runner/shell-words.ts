/**
 * Splitting an option such as `max-args: --max-length 2048 --prompt "two words"` into argv the way a
 * POSIX shell would (quotes and backslashes only: no expansion, no globbing), and quoting argv back
 * into one line for the plan and the logs.
 */

export function splitShellWords(text: string): string[] {
  const words: string[] = [];
  let current = '';
  let inWord = false;
  let quote: '"' | "'" | null = null;
  for (let i = 0; i < text.length; i += 1) {
    const char = text[i]!;
    if (quote === "'") {
      if (char === "'") quote = null;
      else current += char;
      continue;
    }
    if (quote === '"') {
      if (char === '"') quote = null;
      else if (char === '\\' && i + 1 < text.length && '"\\$`'.includes(text[i + 1]!)) current += text[++i];
      else current += char;
      continue;
    }
    if (char === "'" || char === '"') {
      quote = char;
      inWord = true;
    } else if (char === '\\' && i + 1 < text.length) {
      if (text[i + 1] !== '\n') current += text[i + 1];
      i += 1;
      inWord = true;
    } else if (/\s/.test(char)) {
      if (inWord) words.push(current);
      current = '';
      inWord = false;
    } else {
      current += char;
      inWord = true;
    }
  }
  if (quote) throw new Error(`unterminated ${quote} quote`);
  if (inWord) words.push(current);
  return words;
}

const SAFE_WORD = /^[A-Za-z0-9_@%+=:,./-]+$/;

export function quoteShellWord(word: string): string {
  if (word !== '' && SAFE_WORD.test(word)) return word;
  return `'${word.replace(/'/g, `'\\''`)}'`;
}

export function formatCommand(argv: readonly string[]): string {
  return argv.map(quoteShellWord).join(' ');
}

/** The value given to `--name VALUE` or `--name=VALUE` in argv (the last one wins, as in argparse). */
export function flagValue(argv: readonly string[], name: string): string | undefined {
  let value: string | undefined;
  for (let i = 0; i < argv.length; i += 1) {
    const word = argv[i]!;
    if (word === name && i + 1 < argv.length) value = argv[i + 1];
    else if (word.startsWith(`${name}=`)) value = word.slice(name.length + 1);
  }
  return value;
}

export function hasFlag(argv: readonly string[], name: string): boolean {
  return argv.some((word) => word === name || word.startsWith(`${name}=`));
}
