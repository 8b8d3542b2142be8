/**
 * Secrets kept out of everything that leaves the runner: the job log, the summary, the comment,
 * the outputs and the artifacts. A secret is known three ways:
 * - by its variable: the value of any environment variable whose name says it holds a credential
 *   (HF_TOKEN, WANDB_API_KEY, AWS_SECRET_ACCESS_KEY, …) or that the workflow names (`redact-env`);
 * - by its shape: token formats that announce themselves (hf_…, ghp_…, github_pat_…, sk-…, AKIA…,
 *   xox?-…, glpat-…, JWTs, PEM private keys), wherever they appear;
 * - by its place: the value of a credential-named assignment in text (`HF_TOKEN=…`, `"api_key": "…"`,
 *   `--hf-token …=`), even when the variable was never in this process's environment.
 * Pure: the doors hand in the environment.
 */

/** What replaces a secret. */
export const REDACTED = '***';

/** Values shorter than this are never redacted by value: `true`, `1` or `none` would mangle text. */
const SHORTEST_SECRET = 8;

/** Name segments that mark a credential (compared whole, so `max_new_tokens` is not a token). */
const CREDENTIAL_SEGMENTS = new Set(['token', 'secret', 'password', 'passwd', 'passphrase', 'apikey', 'credential', 'credentials', 'cookie', 'auth', 'authorization', 'pat']);
/** A `_KEY` name is a credential after one of these (API_KEY, SECRET_ACCESS_KEY), or when written as an environment variable. */
const KEY_QUALIFIERS = new Set(['api', 'access', 'private', 'secret', 'session', 'signing', 'encryption', 'master', 'license', 'account', 'service', 'client']);

/** Whether a variable or field of this name holds a credential. */
export function isCredentialName(fullName: string): boolean {
  // An action input's variable is judged by the input's own name: INPUT_KEY is the `key` input, not a key.
  const name = fullName.replace(/^INPUT_/, '');
  const segments = name.split(/[^A-Za-z0-9]+|(?<=[a-z])(?=[A-Z])/).filter(Boolean).map((s) => s.toLowerCase());
  if (segments.some((s) => CREDENTIAL_SEGMENTS.has(s))) return true;
  const last = segments.length - 1;
  if (last >= 1 && segments[last] === 'key') return KEY_QUALIFIERS.has(segments[last - 1]!) || /^[A-Z0-9_]+$/.test(name);
  return false;
}

/** `_KEY` flags that name no credential (`--cache-key`, `--sort-key`). */
const PLAIN_KEY_FLAG = /(?:^|[-_])(?:cache|sort|group|partition|dict|hash|lookup|index|metric|config|primary|foreign|kernel|join|shard|routing|order|row|column|map|dataset|data|text|label|input|output|prompt|model)[-_]?key$/i;

/** Whether a command-line flag (without its dashes) takes a credential: a credential name, or any other `-key` (`--wandb-key`, `--hf-key`). */
export function isCredentialFlag(name: string): boolean {
  return isCredentialName(name) || (/[-_]key$/i.test(name) && !PLAIN_KEY_FLAG.test(name));
}

/** Token formats that say what they are; matched anywhere, also after an underscore (`kernel_ghp_…`). */
const CREDENTIAL_SHAPES: readonly RegExp[] = [
  /(?<![A-Za-z0-9])hf_[A-Za-z0-9]{20,}/g,
  /(?<![A-Za-z0-9])gh[pousr]_[A-Za-z0-9]{20,}/g,
  /(?<![A-Za-z0-9])github_pat_[A-Za-z0-9_]{20,}/g,
  /(?<![A-Za-z0-9])glpat-[A-Za-z0-9_-]{20,}/g,
  /(?<![A-Za-z0-9])sk-(?:ant-|proj-)?[A-Za-z0-9_-]{20,}/g,
  /(?<![A-Za-z0-9])(?:AKIA|ASIA)[0-9A-Z]{16}\b/g,
  /(?<![A-Za-z0-9])xox[abposr]-[A-Za-z0-9-]{10,}/g,
  /(?<![A-Za-z0-9])AIza[0-9A-Za-z_-]{35}/g,
  /(?<![A-Za-z0-9])npm_[A-Za-z0-9]{36}/g,
  /(?<![A-Za-z0-9])eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}/g,
  /(?<![A-Za-z0-9])Bearer\s+[A-Za-z0-9._~+/-]{16,}=*/g,
  // HTTP basic credentials: base64 of user:password.
  /(?<![A-Za-z0-9])Basic\s+[A-Za-z0-9+/]{8,}=*/g,
  // PEM private keys and PGP private key blocks.
  /-----BEGIN [A-Z ]*PRIVATE KEY(?: BLOCK)?-----[\s\S]*?-----END [A-Z ]*PRIVATE KEY(?: BLOCK)?-----/g,
];

/** The start of a private key block: text after it is held back until its end is seen (scrub-uploads.ts). */
export const PRIVATE_KEY_START = /-----BEGIN [A-Z ]*PRIVATE KEY(?: BLOCK)?-----/g;
export const PRIVATE_KEY_END = /-----END [A-Z ]*PRIVATE KEY(?: BLOCK)?-----/g;

/**
 * `NAME=value`, `NAME="value"`, `"name": "value"`, `name: value`, `--name=value`: the name, what
 * joins it to the value, and the value (up to a space, a quote, a separator or a NUL).
 */
const ASSIGNMENT = /([A-Za-z_][A-Za-z0-9_.-]*)("?[ \t]*[:=][ \t]*["']?)([^\s"'\x00,;&|<>`]+)/g;

/**
 * `--name VALUE` (argparse's usual form; also `-name VALUE`): a flag, the spaces (and an opening
 * quote), and the next word when it is not itself a flag. Only a word is taken, so that `-c 'cmd
 * --token VALUE'` still reaches the flag inside the quotes.
 */
const FLAG_VALUE = /(?<![A-Za-z0-9_-])(--?[A-Za-z][A-Za-z0-9_.-]*)([ \t]+["']?)([^\s"'\x00,;&|<>`-][^\s"'\x00,;&|<>`]*)/g;

/** The secrets of one job: values to remove wherever they appear, longest first. */
export interface SecretSet {
  readonly values: readonly string[];
  /** The variables they came from (names only: for telling the user what was withheld). */
  readonly names: readonly string[];
}

export const NO_SECRETS: SecretSet = { values: [], names: [] };

/**
 * The secret values of an environment: every credential-named variable's value, and those of the
 * variables named in `extraNames` (the workflow's own list), each at least SHORTEST_SECRET long.
 */
export function secretsFromEnv(env: Readonly<Record<string, string | undefined>>, extraNames: readonly string[] = []): SecretSet {
  const extra = new Set(extraNames);
  const found = new Map<string, string>();
  for (const [name, value] of Object.entries(env)) {
    if (value === undefined || value.length < SHORTEST_SECRET) continue;
    if (!extra.has(name) && !isCredentialName(name)) continue;
    for (const candidate of [value, value.trim()]) {
      if (candidate.length < SHORTEST_SECRET) continue;
      for (const form of encodedForms(candidate)) if (!found.has(form)) found.set(form, name);
    }
  }
  const values = [...found.keys()].sort((a, b) => b.length - a.length);
  return { values, names: [...new Set(found.values())].sort() };
}

/**
 * A value and the forms it takes when written by other code: URL-encoded (`%2F`, `+` for a space),
 * JSON-escaped (`\"`, `\/`, and `\u00fc` for every non-ASCII character, as Python's json writes
 * it), and base64 at each of the three alignments it can fall on inside a longer encoded text
 * (`Basic base64(user:token)`): the characters that encode only the value's own bytes. Forms
 * shorter than SHORTEST_SECRET are left out (too likely to occur by chance).
 */
export function encodedForms(value: string): string[] {
  const forms = new Set<string>([value]);
  const url = encodeURIComponent(value);
  forms.add(url);
  forms.add(url.replace(/%20/g, '+'));
  forms.add(url.replace(/%[0-9A-F]{2}/g, (hex) => hex.toLowerCase()));
  const json = JSON.stringify(value).slice(1, -1);
  forms.add(json);
  forms.add(json.replace(/\//g, '\\/'));
  forms.add(json.replace(/[\u007f-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`));
  const bytes = Buffer.from(value, 'utf8');
  for (let shift = 0; shift < 3; shift++) {
    const encoded = Buffer.concat([Buffer.alloc(shift), bytes]).toString('base64');
    // Characters that mix in a neighbour's bits: the first ones (from the padding) and the last group.
    const skip = shift === 0 ? 0 : shift === 1 ? 2 : 3;
    const full = Math.floor((shift + bytes.length) / 3) * 4;
    const form = encoded.slice(skip, full);
    forms.add(form);
  }
  return [...forms].filter((form) => form.length >= SHORTEST_SECRET);
}

/** Both sets at once (this job's secrets and another's). */
export function mergeSecrets(a: SecretSet, b: SecretSet): SecretSet {
  const values = [...new Set([...a.values, ...b.values])].sort((x, y) => y.length - x.length);
  return { values, names: [...new Set([...a.names, ...b.names])].sort() };
}

export interface Redaction {
  text: string;
  /** How many secrets were replaced. */
  count: number;
}

/** The text with every known secret, credential-shaped token and credential assignment replaced. */
export function redactText(text: string, secrets: SecretSet): Redaction {
  let count = 0;
  let out = text;
  for (const value of secrets.values) {
    if (!out.includes(value)) continue;
    const parts = out.split(value);
    count += parts.length - 1;
    out = parts.join(REDACTED);
  }
  for (const shape of CREDENTIAL_SHAPES) {
    shape.lastIndex = 0;
    if (!shape.test(out)) continue;
    shape.lastIndex = 0;
    out = out.replace(shape, () => {
      count += 1;
      return REDACTED;
    });
  }
  if (out.includes('-')) {
    out = out.replace(FLAG_VALUE, (whole, flag: string, space: string, value: string) => {
      if (value === REDACTED || value.length < SHORTEST_SECRET / 2 || !isCredentialFlag(flag.replace(/^-+/, ''))) return whole;
      count += 1;
      return `${flag}${space}${REDACTED}`;
    });
  }
  if (out.includes('=') || out.includes(':')) {
    out = out.replace(ASSIGNMENT, (whole, name: string, joiner: string, value: string) => {
      const credential = name.startsWith('-') ? isCredentialFlag(name.replace(/^-+/, '')) : isCredentialName(name);
      if (value === REDACTED || value.length < SHORTEST_SECRET / 2 || !credential) return whole;
      count += 1;
      return `${name}${joiner}${REDACTED}`;
    });
  }
  return { text: out, count };
}

/**
 * An argv held as a list: the word after a credential-named flag (`['--wandb-key', VALUE]`) is a
 * credential, which no single word's redaction can tell. Other lists are returned as they are.
 */
export function redactArgvPairs<T>(list: T[], counted: () => void = () => undefined): T[] {
  let out: T[] | undefined;
  for (let i = 0; i + 1 < list.length; i++) {
    const flag = list[i];
    const value = list[i + 1];
    if (typeof flag !== 'string' || typeof value !== 'string' || !/^--?[A-Za-z][A-Za-z0-9_.-]*$/.test(flag) || value.startsWith('-') || value === REDACTED) continue;
    if (value.length < SHORTEST_SECRET / 2 || !isCredentialFlag(flag.replace(/^-+/, ''))) continue;
    out ??= [...list];
    out[i + 1] = REDACTED as T;
    counted();
  }
  return out ?? list;
}

/** Only the text (for log lines and messages). */
export function redact(text: string, secrets: SecretSet): string {
  return redactText(text, secrets).text;
}

/**
 * Every string of a JSON-like value redacted (a report, run.json), keys included; other values kept.
 * Returns a new value; the count is of replacements made.
 */
export function redactValue<T>(value: T, secrets: SecretSet): { value: T; count: number } {
  let count = 0;
  const walk = (v: unknown): unknown => {
    if (typeof v === 'string') {
      const r = redactText(v, secrets);
      count += r.count;
      return r.text;
    }
    if (Array.isArray(v)) return redactArgvPairs(v.map(walk), () => (count += 1));
    if (v && typeof v === 'object') {
      const out: Record<string, unknown> = Object.create(Object.getPrototypeOf(v) === null ? null : Object.prototype) as Record<string, unknown>;
      for (const [k, item] of Object.entries(v as Record<string, unknown>)) {
        // A credential-named field keeps its name and loses its value.
        if (typeof item === 'string' && item.length >= SHORTEST_SECRET / 2 && isCredentialName(k)) {
          count += 1;
          out[walk(k) as string] = REDACTED;
        } else out[walk(k) as string] = walk(item);
      }
      return out;
    }
    return v;
  };
  return { value: walk(value) as T, count };
}

/** The first known secret value found in these bytes (its variable is not said: only that one is there). */
export function findSecret(bytes: Uint8Array, secrets: SecretSet): string | undefined {
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  return secrets.values.find((value) => secretBytes(value).some((form) => buffer.includes(form)));
}

const bytesCache = new Map<string, Buffer[]>();
/** A value's bytes as files hold it: UTF-8, UTF-16LE and UTF-16BE. */
export function secretBytes(value: string): Buffer[] {
  let forms = bytesCache.get(value);
  if (!forms) {
    const le = Buffer.from(value, 'utf16le');
    forms = [Buffer.from(value, 'utf8'), le, Buffer.from(le).swap16()];
    if (bytesCache.size > 1000) bytesCache.clear();
    bytesCache.set(value, forms);
  }
  return forms;
}

/** The longest byte form of any value (how much a streamed search keeps between chunks). */
export function longestSecretBytes(secrets: SecretSet): number {
  return Math.max(0, ...secrets.values.map((v) => Math.max(...secretBytes(v).map((b) => b.length))));
}

/**
 * An environment block (the whole environment as one string: nsys keeps it so): three or more
 * `NAME=` words separated by spaces, NULs or new lines. Every value in it is removed, not only the
 * credentials: the environment is nobody's business outside the runner.
 */
const ENV_WORD = /(^|[\s\x00])([A-Z_][A-Z0-9_]+)=("[^"\x00\n]*"|[^\s\x00]*)/g;
/** A variable every process environment has: tells an environment from a list of template arguments. */
const ALWAYS_SET = new Set(['PATH', 'HOME', 'PWD', 'USER', 'LANG', 'SHELL', 'LD_LIBRARY_PATH', 'LD_PRELOAD']);

export function isEnvironmentBlock(text: string): boolean {
  let n = 0;
  let common = false;
  ENV_WORD.lastIndex = 0;
  for (let m = ENV_WORD.exec(text); m; m = ENV_WORD.exec(text)) {
    n += 1;
    if (ALWAYS_SET.has(m[2]!)) common = true;
    if (n >= 3 && common) return true;
  }
  return false;
}

/** The block with every value removed: `PATH=/usr/bin HF_TOKEN=hf_…` → `PATH=*** HF_TOKEN=***`. */
export function stripEnvironmentValues(text: string): string {
  return text.replace(ENV_WORD, (_whole, before: string, name: string) => `${before}${name}=${REDACTED}`);
}
