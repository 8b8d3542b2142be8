/**
 * Action inputs: names defined once (== action.yml keys), read once through the host, validated
 * into one object (the run options of mode run included); a bad input is one line naming it.
 * Defaults live here as well as in action.yml (the runner applies action.yml's; a test checks they agree),
 * so an empty value always means "the default".
 */
import { z } from 'zod';
import { UsageError } from '../errors.js';
import { actionGateLabel, DEFAULT_FAIL_ON_TEXT, DEFAULT_FAIL_VERDICTS_TEXT, GATE_FLAG_SPECS, parseGateFlags, type GateFlag } from '../compare/gate-options.js';
import { DEFAULT_FAIL_ON_SEVERITY } from '../compare/verdict.js';
import { DEFAULT_ACCEPT_COMMAND, DEFAULT_ACCEPT_LABEL } from '../compare/acceptance.js';
import { COMMENT_POLICIES } from '../report/markdown/comment.js';
import { NO_CAPTURE_POLICIES } from '../io/gather-captures.js';
import { parseRunOptions, RUN_OPTION_NAMES, type RunOptions } from '../runner/run-options.js';
import type { ActionHost } from './host.js';

export const MODES = ['analyze', 'report', 'run'] as const;
export type Mode = (typeof MODES)[number];

export const INPUTS = {
  mode: 'mode',
  captures: 'captures',
  reportDir: 'report-dir',
  failOn: 'fail-on',
  failOnSeverity: 'fail-on-severity',
  failVerdicts: 'fail-verdicts',
  key: 'key',
  comment: 'comment',
  commentAuthor: 'comment-author',
  dashboardUrl: 'dashboard-url',
  githubToken: 'github-token',
  uploadArtifact: 'upload-artifact',
  uploadCaptures: 'upload-captures',
  uploadRawReports: 'upload-raw-reports',
  redactEnv: 'redact-env',
  artifactName: 'artifact-name',
  artifactPrefix: 'artifact-prefix',
  retentionDays: 'retention-days',
  reports: 'reports',
  runId: 'run-id',
  prNumber: 'pr-number',
  baseline: 'baseline',
  baselineArtifactName: 'baseline-artifact-name',
  baselineWorkflow: 'baseline-workflow',
  ifNoCaptures: 'if-no-captures',
  thresholds: 'thresholds',
  allowThrottled: 'allow-throttled',
  allowEnvironmentMismatch: 'allow-environment-mismatch',
  allowForkWorkloads: 'allow-fork-workloads',
  analyzeTimeoutSeconds: 'analyze-timeout-seconds',
  allowMixed: 'allow-mixed',
  strict: 'strict',
  smiColumns: 'smi-columns',
  overlapCheck: 'overlap-check',
  dropOutliers: 'drop-outliers',
  acceptLabel: 'accept-label',
  acceptCommand: 'accept-command',
} as const;

type InputKey = keyof typeof INPUTS;

/** What an empty input means. Empty strings stand for "derived at run time" (see the descriptions in action.yml). */
export const DEFAULTS: Record<InputKey, string> = {
  mode: 'analyze',
  captures: '',
  reportDir: 'profile-gate',
  failOn: DEFAULT_FAIL_ON_TEXT,
  failOnSeverity: DEFAULT_FAIL_ON_SEVERITY,
  failVerdicts: DEFAULT_FAIL_VERDICTS_TEXT,
  key: '',
  comment: 'auto',
  commentAuthor: 'github-actions[bot]',
  dashboardUrl: '',
  githubToken: '',
  uploadArtifact: 'true',
  uploadCaptures: 'true',
  uploadRawReports: 'false',
  redactEnv: '',
  artifactName: '',
  artifactPrefix: 'profile-gate-',
  retentionDays: '',
  reports: '',
  runId: '',
  prNumber: '',
  baseline: '',
  baselineArtifactName: '',
  baselineWorkflow: '',
  ifNoCaptures: 'error',
  thresholds: '',
  allowThrottled: 'false',
  allowEnvironmentMismatch: '',
  allowForkWorkloads: 'false',
  analyzeTimeoutSeconds: '',
  allowMixed: 'false',
  strict: 'false',
  smiColumns: '',
  overlapCheck: 'true',
  dropOutliers: 'true',
  acceptLabel: DEFAULT_ACCEPT_LABEL,
  acceptCommand: DEFAULT_ACCEPT_COMMAND,
};

export const OUTPUTS = {
  verdict: 'verdict',
  decodeTokS: 'decode-tok-s',
  findings: 'findings',
  reportJson: 'report-json',
  artifactId: 'artifact-id',
  commentUrl: 'comment-url',
  skippedInputs: 'skipped-inputs',
} as const;

const booleanText = z.enum(['true', 'false', 'True', 'False', 'TRUE', 'FALSE']).transform((v) => v.toLowerCase() === 'true');
const positiveInt = z
  .string()
  .regex(/^\d+$/, 'expected a positive whole number')
  .transform(Number)
  .refine((n) => n > 0, 'expected a positive whole number');
const positiveSeconds = z
  .string()
  .regex(/^\d+(\.\d+)?$/, 'expected a positive number of seconds')
  .transform(Number)
  .refine((n) => n > 0, 'expected a positive number of seconds');
// Artifact names may not hold " : < > | * ? \r \n / \ (the artifact service refuses them).
const artifactName = z.string().regex(/^[^":<>|*?\r\n/\\]*$/, 'expected an artifact name without " : < > | * ? / \\ or newlines');

const ActionInputsSchema = z.object({
  mode: z.enum(MODES, { message: `expected one of ${MODES.join(', ')}` }),
  captures: z.array(z.string().min(1)),
  reportDir: z.string().min(1),
  // The gate's inputs are checked by the gate's own parser (below), against the closed lists.
  failOn: z.array(z.string()),
  failOnSeverity: z.string(),
  failVerdicts: z.array(z.string()),
  key: z.string(),
  comment: z.enum(COMMENT_POLICIES as [string, ...string[]], { message: `expected one of ${COMMENT_POLICIES.join(', ')}` }),
  commentAuthor: z.string().min(1).regex(/^[A-Za-z0-9-]+(\[bot\])?$/, 'expected a GitHub login such as github-actions[bot]'),
  dashboardUrl: z.string().regex(/^(https?:\/\/\S+)?$/, 'expected an http(s) URL of the dashboard, e.g. https://OWNER.github.io/REPO/'),
  githubToken: z.string(),
  uploadArtifact: booleanText,
  uploadCaptures: booleanText,
  uploadRawReports: booleanText,
  redactEnv: z.array(z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'expected environment variable names such as MODEL_URL')),
  artifactName,
  artifactPrefix: artifactName,
  retentionDays: z.union([z.literal('').transform(() => undefined), positiveInt.refine((n) => n <= 90, 'expected 1 to 90 days')]),
  reports: z.array(z.string().min(1)),
  runId: z.union([z.literal('').transform(() => undefined), positiveInt]),
  prNumber: z.union([z.literal('').transform(() => undefined), positiveInt]),
  baseline: z.string(),
  baselineArtifactName: artifactName,
  baselineWorkflow: z.string().regex(/^([\w.-]+\.ya?ml|\d+)?$/, 'expected a workflow file name such as baseline-main.yml, or a workflow id'),
  ifNoCaptures: z.enum(NO_CAPTURE_POLICIES, { message: `expected one of ${NO_CAPTURE_POLICIES.join(', ')}` }),
  thresholds: z.array(z.string()),
  allowThrottled: booleanText,
  allowEnvironmentMismatch: z.array(z.string()),
  allowForkWorkloads: booleanText,
  analyzeTimeoutSeconds: z.union([z.literal('').transform(() => undefined), positiveSeconds]),
  allowMixed: booleanText,
  strict: booleanText,
  smiColumns: z.array(z.string()),
  overlapCheck: booleanText,
  dropOutliers: booleanText,
  // An empty input means its default, so `none` turns accepting that way off ('').
  acceptLabel: z.string().trim().regex(/^[^\r\n,]{1,50}$/, 'expected a label name (up to 50 characters), or none').transform((v) => (v === 'none' ? '' : v)),
  acceptCommand: z.string().trim().regex(/^(none|\/[\w.-]+( [\w.-]+)*)$/, 'expected a command such as /profile-gate accept, or none').transform((v) => (v === 'none' ? '' : v)),
});
export type ActionInputs = Omit<z.infer<typeof ActionInputsSchema>, 'comment'> & {
  comment: (typeof COMMENT_POLICIES)[number];
  /** Mode run's options (the engine's, shared with `profile-gate run`); read in mode run only. */
  run?: RunOptions;
};

/** The action input that sets a gate flag's option (its INPUTS key), by the input's name in action.yml. */
export function inputKeyOf(flag: GateFlag): InputKey | undefined {
  return (Object.keys(INPUTS) as InputKey[]).find((key) => INPUTS[key] === GATE_FLAG_SPECS[flag].input);
}

export function list(value: string): string[] {
  return value
    .split(/[\n,]/)
    .map((item) => item.trim())
    .filter(Boolean);
}

/** Bad inputs, one line each (the job shows each as an error, and fails on the last). */
export class InputsError extends UsageError {
  constructor(readonly lines: readonly string[]) {
    super(lines.join('; '));
  }
}

/** Every input of the action, read once through the host and validated; throws an InputsError naming each bad one. */
export function getInputs(host: Pick<ActionHost, 'getInput'>): ActionInputs {
  const read = (key: InputKey): string => host.getInput(INPUTS[key]) || DEFAULTS[key];
  const raw = {
    mode: read('mode'),
    captures: list(read('captures')),
    reportDir: read('reportDir'),
    failOn: list(read('failOn')),
    failOnSeverity: read('failOnSeverity').trim(),
    failVerdicts: list(read('failVerdicts')),
    key: read('key'),
    comment: read('comment'),
    commentAuthor: read('commentAuthor'),
    dashboardUrl: read('dashboardUrl').trim(),
    githubToken: read('githubToken'),
    uploadArtifact: read('uploadArtifact'),
    uploadCaptures: read('uploadCaptures'),
    uploadRawReports: read('uploadRawReports'),
    redactEnv: list(read('redactEnv')),
    artifactName: read('artifactName'),
    artifactPrefix: read('artifactPrefix'),
    retentionDays: read('retentionDays'),
    reports: list(read('reports')),
    runId: read('runId'),
    prNumber: read('prNumber'),
    baseline: read('baseline').trim(),
    baselineArtifactName: read('baselineArtifactName'),
    baselineWorkflow: read('baselineWorkflow').trim(),
    ifNoCaptures: read('ifNoCaptures').trim(),
    thresholds: list(read('thresholds')),
    allowThrottled: read('allowThrottled'),
    allowEnvironmentMismatch: list(read('allowEnvironmentMismatch')),
    allowForkWorkloads: read('allowForkWorkloads'),
    analyzeTimeoutSeconds: read('analyzeTimeoutSeconds').trim(),
    allowMixed: read('allowMixed'),
    strict: read('strict'),
    smiColumns: list(read('smiColumns')),
    overlapCheck: read('overlapCheck'),
    dropOutliers: read('dropOutliers'),
    acceptLabel: read('acceptLabel'),
    acceptCommand: read('acceptCommand'),
  };
  const parsed = ActionInputsSchema.safeParse(raw);
  const bad: string[] = [];
  if (!parsed.success) {
    // The first issue of each input, in the order of INPUTS: one line per bad input.
    const seen = new Set<InputKey>();
    for (const issue of parsed.error.issues) {
      const key = issue.path[0] as InputKey;
      if (seen.has(key)) continue;
      seen.add(key);
      const name = INPUTS[key] ?? String(issue.path[0]);
      const value = typeof raw[key] === 'string' ? ` (got ${JSON.stringify(String(raw[key]).slice(0, 60))})` : '';
      bad.push(`input '${name}': ${issue.message}${key === 'githubToken' ? '' : value}`);
    }
  }
  // The gate inputs through the gate's one reader (the CLI's flags use it too): an unknown finding id,
  // verdict, metric or severity is refused here, before anything runs, with the known values.
  try {
    parseGateFlags((flag) => {
      const key = inputKeyOf(flag);
      return key ? (raw[key] as string | readonly string[]) : undefined;
    }, actionGateLabel);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    // One line per bad input: the schema's own line stands when it already named this input.
    if (!bad.some((line) => line.startsWith(error.message.slice(0, error.message.indexOf(':') + 1)))) bad.push(error.message);
  }
  const mode = parsed.success ? parsed.data.mode : raw.mode;
  if (mode === 'analyze' && raw.captures.length === 0) bad.push(`input '${INPUTS.captures}': expected at least one capture path in mode 'analyze'`);
  let run: RunOptions | undefined;
  if (mode === 'run') {
    try {
      run = parseRunOptions(Object.fromEntries(RUN_OPTION_NAMES.map((name) => [name, host.getInput(name)])), 'input');
    } catch (error) {
      if (!(error instanceof UsageError)) throw error;
      bad.push(error.message);
    }
  }
  if (!parsed.success || bad.length) throw new InputsError(bad);
  const inputs = parsed.data as ActionInputs;
  if (run) inputs.run = run;
  return inputs;
}
