/**
 * Itanium-mangled kernel names (`_ZN7cutlass13device_kernelI…`), as some profilers print CUTLASS
 * and Triton-compiled kernels, read for classification: the source identifiers the name spells
 * (`7cutlass` → `cutlass`), joined by `::`. This is not a demangler (no types, substitutions or
 * templates are rebuilt); it only lets the family patterns see the words a demangled name holds.
 */

const IDENTIFIER = /[A-Za-z0-9_]/;

/** True for a name in the Itanium C++ ABI's mangled form. */
export function isMangled(name: string): boolean {
  return name.startsWith('_Z');
}

/** The identifiers of a mangled name, in order, joined by `::`; other names come back unchanged. */
export function mangledIdentifiers(name: string): string {
  if (!isMangled(name)) return name;
  const words: string[] = [];
  let i = 2;
  while (i < name.length) {
    const c = name.charCodeAt(i);
    const isDigit = c >= 48 && c <= 57;
    // A length prefix starts a source name; digits right after another digit or a letter (`Li4E`,
    // `S0_`) belong to literals and substitutions.
    const previous = name[i - 1]!;
    if (!isDigit || (previous >= '0' && previous <= '9')) {
      i++;
      continue;
    }
    let j = i;
    let length = 0;
    while (j < name.length && name[j]! >= '0' && name[j]! <= '9') length = length * 10 + (name.charCodeAt(j++) - 48);
    // `Li4E` is the literal 4; `S5_` and `T0_` refer back to earlier names and template parameters.
    const literal = name[i - 2] === 'L' && name[j] === 'E';
    if (literal) {
      i = j + 1;
      continue;
    }
    if (previous === 'S' || previous === 'T') {
      const seq = /^[0-9A-Z]*_/.exec(name.slice(i, i + 8));
      if (seq) {
        i += seq[0].length;
        continue;
      }
    }
    const word = name.slice(j, j + length);
    if (length > 0 && word.length === length && [...word].every((ch) => IDENTIFIER.test(ch)) && !/^\d/.test(word)) {
      words.push(word);
      i = j + length;
    } else i = j;
  }
  return words.length ? words.join('::') : name;
}
