/**
 * Turning the JSON of python/preflight_custom_arch.py into messages, each failure with its exact
 * fix (the custom-architecture failure modes MAX users hit). The checker states facts; the wording,
 * the severity and what depends on the MAX version live here.
 */
import { z } from 'zod';

const CheckSchema = z
  .object({
    id: z.string(),
    status: z.enum(['ok', 'fail', 'warn', 'skip']),
    spec: z.string().optional(),
    module: z.string().optional(),
    kind: z.string().optional(),
    error: z.string().optional(),
    detail: z.string().optional(),
    entry: z.string().optional(),
    file: z.string().optional(),
    expected: z.string().optional(),
    found: z.string().optional(),
    names: z.array(z.string()).optional(),
  })
  .loose();

export const PreflightReportSchema = z
  .object({
    python: z.string().optional(),
    executable: z.string().optional(),
    max: z.object({ importable: z.boolean(), version: z.string().nullable().optional(), error: z.string().optional() }).loose().optional(),
    checks: z.array(CheckSchema),
  })
  .loose();
export type PreflightReport = z.infer<typeof PreflightReportSchema>;
type Check = z.infer<typeof CheckSchema>;

export interface PreflightMessage {
  severity: 'error' | 'warning' | 'info';
  check: string;
  message: string;
  fix?: string;
}

function before26_5(version: string | undefined | null): boolean {
  const match = /^(\d+)\.(\d+)/.exec(version ?? '');
  if (!match) return true;
  const [major, minor] = [Number(match[1]), Number(match[2])];
  return major < 26 || (major === 26 && minor < 5);
}

function messageFor(check: Check, context: { mode: 'generate' | 'serve'; maxVersion?: string | null }): PreflightMessage | undefined {
  const spec = check.spec ? `custom-architectures ${check.spec}` : 'custom-architectures';
  const names = (check.names ?? []).join(', ');
  switch (check.id) {
    case 'max-not-importable':
      return {
        severity: 'warning',
        check: check.id,
        message: `the python that runs max cannot import it (${check.detail ?? 'unknown error'}); the custom-architecture checks that need MAX were skipped`,
        fix: 'run profile-gate where `python -c "import max"` works (the environment MAX is installed in)',
      };
    case 'spec-form':
      return { severity: 'error', check: check.id, message: `${spec}: ${check.detail ?? 'bad spec'}`, fix: 'give a directory path, or IMPORT_PATH:MODULE_NAME with exactly one colon' };
    case 'spec-path':
      return { severity: 'error', check: check.id, message: `${spec}: ${check.detail ?? 'directory not found'}`, fix: 'give the path of the package directory (the folder with __init__.py), relative to the working directory' };
    case 'pythonpath-trap':
      return {
        severity: 'error',
        check: check.id,
        message: `${spec}: PYTHONPATH contains the package directory ${check.entry}, so \`import ${check.module}\` can find a file inside it instead of the package ("module '${check.module}' has no attribute 'ARCHITECTURES'")`,
        fix: `remove ${check.entry} from PYTHONPATH; MAX adds its parent directory itself`,
      };
    case 'import':
      if (check.status !== 'fail') return undefined;
      if (check.kind === 'module-not-found') return { severity: 'error', check: check.id, message: `${spec}: module ${check.module} not found (${check.error})`, fix: 'check the path: its last part must be the package directory name' };
      if (check.kind === 'import-drift')
        return {
          severity: 'error',
          check: check.id,
          message: `${spec}: does not import against MAX ${context.maxVersion ?? ''}`.trimEnd() + ` (${check.error}): the module uses an API this MAX does not have`,
          fix: 'update the imports to the installed MAX (max.pipelines moved between releases), or pin the MAX version the module was written for',
        };
      return { severity: 'error', check: check.id, message: `${spec}: importing ${check.module} raised ${check.error}`, fix: `run python -c "import ${check.module}" from its parent directory to see the full traceback` };
    case 'shadowed':
      return {
        severity: 'error',
        check: check.id,
        message: `${spec}: \`import ${check.module}\` loads ${check.file}, not the package at ${check.expected}`,
        fix: `rename the package, or remove the other ${check.module} from sys.path (PYTHONPATH, the working directory, an installed package of that name)`,
      };
    case 'architectures-list':
      if (check.status !== 'fail') return undefined;
      return {
        severity: 'error',
        check: check.id,
        message: `${spec}: the module imported but exposes no ARCHITECTURES list (found ${check.found ?? 'nothing'}); MAX fails with "Custom model imported, but did not expose an \`ARCHITECTURES\` list."`,
        fix: `define ARCHITECTURES = [<your SupportedArchitecture>] in ${check.module ?? 'the package'}/__init__.py`,
      };
    case 'name-collision':
      if (check.status !== 'warn') return undefined;
      return {
        severity: 'warning',
        check: check.id,
        message: `${spec}: ${names} is also a built-in MAX architecture; MAX 26.5 overrides the built-in (logged "Overriding existing architecture"), some earlier versions refuse with "Refusing to override existing architecture"`,
        fix: 'if MAX refuses, upgrade MAX, or give the architecture a distinct name and put that name in the model config.json "architectures"',
      };
    case 'embeddings-serve':
      if (check.status !== 'warn') return undefined;
      return {
        severity: before26_5(context.maxVersion) ? 'error' : 'warning',
        check: check.id,
        message: `${spec}: ${names} is an embeddings architecture; max serve before 26.5 detects the task before it imports custom architectures and fails with "Architecture '${check.names?.[0] ?? 'X'}' not found in registry"`,
        fix: 'use MAX 26.5 or newer for max serve, or measure the model with max-mode generate / the Python API',
      };
    case 'chat-template':
      if (check.status !== 'warn') return undefined;
      if (context.mode === 'generate' && !before26_5(context.maxVersion)) return undefined;
      return {
        severity: context.mode === 'serve' ? 'error' : 'warning',
        check: check.id,
        message: `the model's tokenizer has no chat template (${check.detail}); ${context.mode === 'serve' ? 'chat requests to max serve' : 'max generate before 26.5'} fail with "tokenizer.chat_template is not set"`,
        fix: context.mode === 'serve' ? 'pass --chat-template in max-args (a passthrough template for a base model), or benchmark /v1/completions (benchmark-args: --endpoint /v1/completions)' : 'pass --chat-template in max-args, or use MAX 26.5 or newer',
      };
    case 'checker-error':
      return { severity: 'warning', check: check.id, message: `the custom-architecture checker failed (${check.detail}); checks skipped` };
    default:
      return check.status === 'fail' ? { severity: 'error', check: check.id, message: `${spec}: ${check.id} failed${check.detail ? ` (${check.detail})` : ''}` } : undefined;
  }
}

export function preflightMessages(report: PreflightReport, context: { mode: 'generate' | 'serve'; maxVersion?: string | null }): PreflightMessage[] {
  const maxVersion = context.maxVersion ?? report.max?.version ?? null;
  return report.checks.map((check) => messageFor(check, { mode: context.mode, maxVersion })).filter((m): m is PreflightMessage => m !== undefined);
}

/** Parse the checker's stdout: the last line that is a JSON object (imports may print above it). */
export function parsePreflightOutput(text: string): PreflightReport | undefined {
  const lines = text.split(/\r?\n/).filter((line) => line.trim().startsWith('{'));
  for (let i = lines.length - 1; i >= 0; i -= 1) {
    try {
      const parsed = PreflightReportSchema.safeParse(JSON.parse(lines[i]!));
      if (parsed.success) return parsed.data;
    } catch {
      // not this line
    }
  }
  return undefined;
}
