/**
 * An Itanium C++ ABI demangler for kernel names, as ROCm tools, PyTorch on ROCm and some CUTLASS
 * paths print them (`_ZN2at6native18elementwise_kernel…`). It covers what GPU kernels are made of:
 * nested and local names, lambdas (`{lambda(float)#1}`), template arguments and parameters,
 * literals, packs, substitutions, builtin, qualified, pointer, reference and function types, and
 * operator names. Output follows c++filt's spelling. Anything outside that subset makes `demangle`
 * return undefined, and callers keep the mangled name: a name is never guessed.
 *
 * No npm demangler fits: the maintained ones ship as WebAssembly ES-module imports, which neither
 * Node 20 without flags nor the bundled action can load.
 */

const BUILTIN: Record<string, string> = {
  v: 'void', w: 'wchar_t', b: 'bool', c: 'char', a: 'signed char', h: 'unsigned char', s: 'short', t: 'unsigned short',
  i: 'int', j: 'unsigned int', l: 'long', m: 'unsigned long', x: 'long long', y: 'unsigned long long', n: '__int128',
  o: 'unsigned __int128', f: 'float', d: 'double', e: 'long double', g: '__float128', z: '...',
};
const D_BUILTIN: Record<string, string> = { h: 'half', n: 'decltype(nullptr)', a: 'auto', c: 'decltype(auto)', s: 'char16_t', i: 'char32_t', u: 'char8_t' };
const LITERAL_SUFFIX: Record<string, string> = { j: 'u', l: 'l', m: 'ul', x: 'll', y: 'ull' };
const OPERATORS: Record<string, string> = {
  nw: 'new', na: 'new[]', dl: 'delete', da: 'delete[]', ps: '+', ng: '-', ad: '&', de: '*', co: '~', pl: '+', mi: '-', ml: '*', dv: '/', rm: '%',
  an: '&', or: '|', eo: '^', aS: '=', pL: '+=', mI: '-=', mL: '*=', dV: '/=', rM: '%=', aN: '&=', oR: '|=', eO: '^=', ls: '<<', rs: '>>',
  lS: '<<=', rS: '>>=', eq: '==', ne: '!=', lt: '<', gt: '>', le: '<=', ge: '>=', ss: '<=>', nt: '!', aa: '&&', oo: '||', pp: '++', mm: '--',
  cm: ',', pm: '->*', pt: '->', cl: '()', ix: '[]',
};
const STD_SUBS: Record<string, string> = {
  a: 'std::allocator', b: 'std::basic_string', s: 'std::string', i: 'std::istream', o: 'std::ostream', d: 'std::iostream',
};

class Fail extends Error {}

/** Substitutions can make the text grow exponentially (CUTLASS 3 kernels): past this, give up. */
const MAX_TEXT = 8192;

/** A demangled piece: its text, and for a name, its last component (to print ctor names and lambdas). */
interface Name {
  text: string;
  /** Set when the name ends in template arguments (so a function of it has a return type first). */
  templated: boolean;
  /** True for constructors and destructors (no return type). */
  ctor: boolean;
  /** The template arguments of the last component, for template-parameter references. */
  args?: string[];
}

class Parser {
  private pos = 0;
  private subs: string[] = [];
  private templateArgs: string[] = [];
  constructor(private readonly s: string) {}

  private peek(offset = 0): string {
    return this.s[this.pos + offset] ?? '';
  }
  private eat(text: string): boolean {
    if (!this.s.startsWith(text, this.pos)) return false;
    this.pos += text.length;
    return true;
  }
  private expect(text: string): void {
    if (!this.eat(text)) throw new Fail();
  }
  get done(): boolean {
    return this.pos >= this.s.length;
  }
  get rest(): string {
    return this.s.slice(this.pos);
  }

  private number(): number {
    const match = /^n?\d+/.exec(this.rest);
    if (!match) throw new Fail();
    this.pos += match[0].length;
    return Number(match[0].replace('n', '-'));
  }

  /** `S_` = 0, `S0_` = 1 … (base 36, digits then upper-case letters). */
  private seqId(): number {
    if (this.eat('_')) return 0;
    const match = /^[0-9A-Z]+/.exec(this.rest);
    if (!match) throw new Fail();
    this.pos += match[0].length;
    this.expect('_');
    return parseInt(match[0], 36) + 1;
  }

  /** A function's encoding; a local name's enclosing function is printed without its return type, as c++filt does. */
  encoding(withReturn = true): string {
    const name = this.name(true);
    if (this.done || this.peek() === 'E' || this.peek() === '.') return name.text;
    const saved = this.templateArgs;
    if (name.args) this.templateArgs = name.args;
    const returnType = name.templated && !name.ctor ? this.type() : '';
    const ret = withReturn && returnType ? `${returnType} ` : '';
    const params: string[] = [];
    while (!this.done && this.peek() !== 'E' && this.peek() !== '.') params.push(this.type());
    this.templateArgs = saved;
    const list = params.length === 1 && params[0] === 'void' ? '' : params.join(', ');
    return `${ret}${name.text}(${list})${name.cv ?? ''}`;
  }

  private name(isFunction: boolean): Name & { cv?: string } {
    if (this.peek() === 'N') return this.nestedName(isFunction);
    if (this.peek() === 'Z') return this.localName(isFunction);
    let text: string;
    if (this.eat('St')) text = `std::${this.unqualified().text}`;
    else if (this.peek() === 'S') {
      text = this.substitution();
      if (this.peek() !== 'I') throw new Fail();
    } else {
      const unqualified = this.unqualified();
      text = unqualified.text;
    }
    if (this.peek() === 'I') {
      this.subs.push(text);
      const args = this.templateArgList();
      return { text: `${text}${this.wrap(args)}`, templated: true, ctor: false, args };
    }
    return { text, templated: false, ctor: false };
  }

  private wrap(args: string[]): string {
    const inner = args.join(', ');
    if (inner.length > MAX_TEXT) throw new Fail();
    return `<${inner}${inner.endsWith('>') ? ' ' : ''}>`;
  }

  private nestedName(isFunction: boolean): Name & { cv?: string } {
    this.expect('N');
    let cv = '';
    while (/[rVK]/.test(this.peek())) {
      const q = this.peek();
      this.pos += 1;
      cv = `${q === 'K' ? ' const' : q === 'V' ? ' volatile' : ' restrict'}${cv}`;
    }
    if (this.eat('R')) cv += ' &';
    else if (this.eat('O')) cv += ' &&';
    let soFar = '';
    let last: Name = { text: '', templated: false, ctor: false };
    let lastComponent = '';
    let pushed = 0;
    while (!this.eat('E')) {
      if (this.peek() === 'I') {
        if (!soFar) throw new Fail();
        const args = this.templateArgList();
        soFar = `${soFar}${this.wrap(args)}`;
        last = { text: soFar, templated: true, ctor: false, args };
      } else if (this.peek() === 'T') {
        soFar = this.templateParam();
        last = { text: soFar, templated: false, ctor: false };
      } else if (this.peek() === 'S' && this.peek(1) !== 't') {
        if (soFar) throw new Fail();
        soFar = this.substitution();
        last = { text: soFar, templated: false, ctor: false };
        lastComponent = soFar.split('::').pop()!.replace(/<.*$/, '');
        continue;
      } else {
        if (this.eat('St')) soFar = 'std';
        const component = this.unqualified(lastComponent);
        soFar = soFar ? `${soFar}::${component.text}` : component.text;
        lastComponent = component.text.replace(/<.*$/, '');
        last = { text: soFar, templated: false, ctor: component.ctor };
      }
      this.subs.push(soFar);
      pushed += 1;
      this.eat('M');
    }
    if (pushed === 0 && !soFar) throw new Fail();
    // The whole name of a function is no substitution candidate; its prefixes are.
    if (pushed > 0) this.subs.pop();
    if (!isFunction) this.subs.push(soFar);
    return { ...last, text: soFar, ...(cv ? { cv } : {}) };
  }

  private localName(isFunction: boolean): Name & { cv?: string } {
    this.expect('Z');
    const saved = this.templateArgs;
    const outer = this.encoding(false);
    this.templateArgs = saved;
    this.expect('E');
    if (this.eat('s')) {
      this.discriminator();
      return { text: `${outer}::string literal`, templated: false, ctor: false };
    }
    const inner = this.name(isFunction);
    this.discriminator();
    return { ...inner, text: `${outer}::${inner.text}` };
  }

  private discriminator(): void {
    if (this.peek() !== '_') return;
    if (this.eat('__')) {
      this.number();
      this.expect('_');
    } else {
      this.pos += 1;
      this.number();
    }
  }

  private unqualified(enclosing = ''): Name {
    let name: Name;
    const c = this.peek();
    if (/\d/.test(c)) name = { text: this.sourceName(), templated: false, ctor: false };
    else if (this.eat('Ut')) {
      const n = /^\d*/.exec(this.rest)![0];
      this.pos += n.length;
      this.expect('_');
      name = { text: `{unnamed type#${n === '' ? 1 : Number(n) + 2}}`, templated: false, ctor: false };
    } else if (this.eat('Ul')) {
      const params: string[] = [];
      while (!this.eat('E')) params.push(this.type());
      const n = /^\d*/.exec(this.rest)![0];
      this.pos += n.length;
      this.expect('_');
      const list = params.length === 1 && params[0] === 'void' ? '' : params.join(', ');
      name = { text: `{lambda(${list})#${n === '' ? 1 : Number(n) + 2}}`, templated: false, ctor: false };
    } else if (c === 'C' && /[1-5]/.test(this.peek(1))) {
      this.pos += 2;
      name = { text: enclosing, templated: false, ctor: true };
    } else if (c === 'D' && /[0-5]/.test(this.peek(1))) {
      this.pos += 2;
      name = { text: `~${enclosing}`, templated: false, ctor: true };
    } else if (this.eat('cv')) {
      name = { text: `operator ${this.type()}`, templated: false, ctor: true };
    } else if (OPERATORS[this.s.slice(this.pos, this.pos + 2)]) {
      const op = OPERATORS[this.s.slice(this.pos, this.pos + 2)]!;
      this.pos += 2;
      name = { text: `operator${/^[a-z]/.test(op) ? ' ' : ''}${op}`, templated: false, ctor: false };
    } else throw new Fail();
    while (this.eat('B')) name = { ...name, text: `${name.text}[abi:${this.sourceName()}]` };
    return name;
  }

  private sourceName(): string {
    const length = this.number();
    if (length <= 0 || this.pos + length > this.s.length) throw new Fail();
    const id = this.s.slice(this.pos, this.pos + length);
    this.pos += length;
    return /^_GLOBAL__N/.test(id) ? '(anonymous namespace)' : id;
  }

  private substitution(): string {
    this.expect('S');
    const std = STD_SUBS[this.peek()];
    if (std) {
      this.pos += 1;
      return std;
    }
    const index = this.seqId();
    const sub = this.subs[index];
    if (sub === undefined) throw new Fail();
    return sub;
  }

  private templateParam(): string {
    this.expect('T');
    const index = this.seqId();
    return this.templateArgs[index] ?? `T${index}`;
  }

  private templateArgList(): string[] {
    this.expect('I');
    const args: string[] = [];
    while (!this.eat('E')) args.push(this.templateArg());
    return args;
  }

  private templateArg(): string {
    if (this.peek() === 'L') return this.literal();
    if (this.eat('X')) {
      // Expressions are out of scope beyond a parameter or a literal.
      const inner = this.peek() === 'T' ? this.templateParam() : this.peek() === 'L' ? this.literal() : undefined;
      if (inner === undefined) throw new Fail();
      this.expect('E');
      return inner;
    }
    if (this.eat('J')) {
      const pack: string[] = [];
      while (!this.eat('E')) pack.push(this.templateArg());
      return pack.join(', ');
    }
    return this.type();
  }

  private literal(): string {
    this.expect('L');
    if (this.eat('_Z')) {
      const text = this.encoding();
      this.expect('E');
      return text;
    }
    if (this.peek() === 'Z') {
      const text = this.encoding();
      this.expect('E');
      return text;
    }
    const c = this.peek();
    if (c === 'b' && /[01]/.test(this.peek(1)) && this.peek(2) === 'E') {
      this.pos += 3;
      return this.s[this.pos - 2] === '1' ? 'true' : 'false';
    }
    if (BUILTIN[c] && c !== 'v' && /[n\d]/.test(this.peek(1))) {
      this.pos += 1;
      const value = this.number();
      this.expect('E');
      return c === 'i' ? String(value) : c in LITERAL_SUFFIX ? `${value}${LITERAL_SUFFIX[c]}` : `(${BUILTIN[c]})${value}`;
    }
    const type = this.type();
    if (this.eat('E')) return `(${type})`;
    const value = this.number();
    this.expect('E');
    return `(${type})${value}`;
  }

  type(): string {
    const c = this.peek();
    if (BUILTIN[c]) {
      this.pos += 1;
      return BUILTIN[c]!;
    }
    if (c === 'u') {
      this.pos += 1;
      return this.sourceName();
    }
    if (c === 'D') {
      if (D_BUILTIN[this.peek(1)]) {
        this.pos += 2;
        return D_BUILTIN[this.s[this.pos - 1]!]!;
      }
      if (this.eat('DF')) {
        const bits = this.number();
        // `DF16b` is std::bfloat16_t (ROCm's bf16 kernels, aiter and ck_tile); `DF<N>_` is _FloatN.
        if (bits === 16 && this.eat('b')) return 'std::bfloat16_t';
        this.expect('_');
        return `_Float${bits}`;
      }
      if (this.eat('Dp')) {
        const text = `${this.type()}...`;
        this.subs.push(text);
        return text;
      }
      throw new Fail();
    }
    if (/[rVK]/.test(c)) {
      let quals = '';
      while (/[rVK]/.test(this.peek())) {
        const q = this.peek();
        this.pos += 1;
        quals = `${quals} ${q === 'K' ? 'const' : q === 'V' ? 'volatile' : 'restrict'}`;
      }
      const text = this.qualify(this.type(), quals.trim());
      this.subs.push(text);
      return text;
    }
    if (c === 'P' || c === 'R' || c === 'O') {
      this.pos += 1;
      const inner = this.type();
      const text = this.pointerTo(inner, c === 'P' ? '*' : c === 'R' ? '&' : '&&');
      this.subs.push(text);
      return text;
    }
    if (c === 'F') {
      this.pos += 1;
      this.eat('Y');
      const ret = this.type();
      const params: string[] = [];
      while (!this.eat('E')) {
        if (this.eat('R') || this.eat('O')) {
          this.expect('E');
          break;
        }
        params.push(this.type());
      }
      const list = params.length === 1 && params[0] === 'void' ? '' : params.join(', ');
      const text = `${ret} (${list})`;
      this.subs.push(text);
      return text;
    }
    if (c === 'A') {
      this.pos += 1;
      const dim = /^\d*/.exec(this.rest)![0];
      this.pos += dim.length;
      this.expect('_');
      const text = `${this.type()} [${dim}]`;
      this.subs.push(text);
      return text;
    }
    if (c === 'T') {
      let text = this.templateParam();
      this.subs.push(text);
      if (this.peek() === 'I') {
        text = `${text}${this.wrap(this.templateArgList())}`;
        this.subs.push(text);
      }
      return text;
    }
    if (c === 'S') {
      if (this.peek(1) === 't') {
        const name = this.name(false);
        this.subs.push(name.text);
        return name.text;
      }
      let text = this.substitution();
      if (this.peek() === 'I') {
        text = `${text}${this.wrap(this.templateArgList())}`;
        this.subs.push(text);
      }
      return text;
    }
    if (c === 'N' || c === 'Z' || /\d/.test(c)) {
      const name = this.name(false);
      // A nested name pushed itself; a plain or local name is pushed here.
      if (c !== 'N') this.subs.push(name.text);
      return name.text;
    }
    throw new Fail();
  }

  /** `char const*` as c++filt writes it; pointers to functions get `(*)`. */
  private pointerTo(inner: string, op: string): string {
    const fn = /^(.*) \((.*)\)$/.exec(inner);
    if (fn && !inner.endsWith(')::')) return `${fn[1]} (${op})(${fn[2]})`;
    return `${inner}${op}`;
  }

  private qualify(inner: string, quals: string): string {
    return `${inner} ${quals}`;
  }
}

/**
 * The demangled spelling of an Itanium-mangled name (`_Z…`, with optional `.suffix` clones kept
 * out), or undefined when it is not one or uses a construct outside the supported subset.
 */
export function demangle(mangled: string): string | undefined {
  const symbol = mangled.trim();
  if (!/^_Z[A-Za-z0-9_]/.test(symbol)) return undefined;
  const parser = new Parser(symbol.slice(2));
  try {
    const text = parser.encoding();
    // Clone suffixes (`.isra.0`, `.cold`) are not part of the name.
    if (!parser.done && !/^(\.[A-Za-z0-9_]+)+$/.test(parser.rest)) return undefined;
    return text;
  } catch (error) {
    if (error instanceof Fail || error instanceof RangeError) return undefined;
    throw error;
  }
}
