/**
 * GitHub Actions `if:` conditions, evaluated as the runner does for the part of the expression
 * language our example workflows use: literals ('text', numbers, true, false, null), context paths
 * (github.event_name, github.event.workflow_run.conclusion, needs.JOB.result, …), `!`, `==`, `!=`,
 * `&&`, `||`, parentheses, and the status functions success(), failure(), cancelled(), always().
 * As on GitHub: an optional `${{ }}` around the whole condition, string comparison ignoring case,
 * and a condition that calls no status function is read as `success() && (condition)`: a job with
 * `needs:` and a plain condition is skipped when a needed job failed. Anything else is refused, so a
 * condition this does not understand fails the test instead of being guessed.
 */

/** What a job's condition sees: contexts, the results of the jobs it needs, whether the run was cancelled. */
export interface ConditionScope {
  contexts: Record<string, unknown>;
  /** needs.<job>.result of each needed job: success, failure, cancelled or skipped. */
  needs?: Record<string, 'success' | 'failure' | 'cancelled' | 'skipped'>;
  cancelled?: boolean;
}

type Value = string | number | boolean | null | undefined | object;

const STATUS_FUNCTIONS = ['success', 'failure', 'cancelled', 'always'];

function tokenize(text: string): string[] {
  const tokens: string[] = [];
  const pattern = /\s*(?:('(?:[^']|'')*')|(==|!=|&&|\|\||[!().])|([A-Za-z_][A-Za-z0-9_-]*)|(\d+(?:\.\d+)?))/y;
  let at = 0;
  while (at < text.length) {
    if (/^\s*$/.test(text.slice(at))) break;
    pattern.lastIndex = at;
    const m = pattern.exec(text);
    if (!m) throw new Error(`condition ${JSON.stringify(text)}: cannot read it from ${JSON.stringify(text.slice(at))}`);
    tokens.push(m[1] ?? m[2] ?? m[3] ?? m[4]!);
    at = pattern.lastIndex;
  }
  return tokens;
}

function truthy(v: Value): boolean {
  return !(v === false || v === 0 || v === '' || v === null || v === undefined);
}

function equal(a: Value, b: Value): boolean {
  if (typeof a === 'string' && typeof b === 'string') return a.toLowerCase() === b.toLowerCase();
  if (a === undefined) a = null;
  if (b === undefined) b = null;
  return a === b;
}

/** Evaluates one job's `if:` (undefined: no condition, which GitHub reads as success()). */
export function evaluateCondition(condition: string | boolean | undefined, scope: ConditionScope): boolean {
  if (condition === undefined) condition = 'success()';
  if (typeof condition === 'boolean') condition = String(condition);
  const text = condition.trim().replace(/^\$\{\{([\s\S]*)\}\}$/, '$1').trim();
  const tokens = tokenize(text);
  const withStatus = tokens.some((t, i) => STATUS_FUNCTIONS.includes(t) && tokens[i + 1] === '(') ? tokens : ['success', '(', ')', '&&', '(', ...tokens, ')'];
  const results = Object.values(scope.needs ?? {});
  let position = 0;
  const peek = (): string | undefined => withStatus[position];
  const take = (expected?: string): string => {
    const token = withStatus[position];
    if (token === undefined || (expected !== undefined && token !== expected)) throw new Error(`condition ${JSON.stringify(text)}: expected ${expected ?? 'more'} at token ${position}`);
    position += 1;
    return token;
  };
  const primary = (): Value => {
    const token = take();
    if (token === '!') return !truthy(primary());
    if (token === '(') {
      const value = or();
      take(')');
      return value;
    }
    if (token.startsWith("'")) return token.slice(1, -1).replace(/''/g, "'");
    if (/^\d/.test(token)) return Number(token);
    if (token === 'true' || token === 'false') return token === 'true';
    if (token === 'null') return null;
    if (STATUS_FUNCTIONS.includes(token) && peek() === '(') {
      take('(');
      take(')');
      if (token === 'always') return true;
      if (token === 'cancelled') return Boolean(scope.cancelled);
      if (token === 'failure') return !scope.cancelled && results.some((r) => r === 'failure');
      // A job whose needed job failed or was skipped is skipped too, unless its condition says otherwise.
      return !scope.cancelled && results.every((r) => r === 'success');
    }
    if (peek() === '(') throw new Error(`condition ${JSON.stringify(text)}: function ${token}() is not modelled here`);
    let value: Value = token === 'needs' ? Object.fromEntries(Object.entries(scope.needs ?? {}).map(([job, result]) => [job, { result }])) : (scope.contexts[token] as Value);
    while (peek() === '.') {
      take('.');
      const key = take();
      value = value !== null && typeof value === 'object' ? (value as Record<string, Value>)[key] : undefined;
    }
    return value;
  };
  const comparison = (): Value => {
    let left = primary();
    while (peek() === '==' || peek() === '!=') {
      const op = take();
      const right = primary();
      left = op === '==' ? equal(left, right) : !equal(left, right);
    }
    return left;
  };
  const and = (): Value => {
    let left = comparison();
    while (peek() === '&&') {
      take();
      const right = comparison();
      left = truthy(left) ? right : left;
    }
    return left;
  };
  const or = (): Value => {
    let left = and();
    while (peek() === '||') {
      take();
      const right = and();
      left = truthy(left) ? left : right;
    }
    return left;
  };
  const value = or();
  if (position !== withStatus.length) throw new Error(`condition ${JSON.stringify(text)}: unexpected ${withStatus[position]}`);
  return truthy(value);
}
