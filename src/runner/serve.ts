/**
 * `max serve` for the length of the benchmark windows: started in its own process group, checked
 * for an early death or an error in its log within seconds, then polled on /health with a bounded
 * wait, watched while the benchmark runs, and stopped by its group (never by name).
 */
import { request } from 'node:http';
import type { Logger } from './logger.js';
import type { PlannedStep, ServePlan } from './plan.js';
import type { ProcessGroups, ProcessOutcome, RunningProcess } from './process-group.js';

export interface ServeProblem {
  problem: string;
  fix: string;
}

/** Log lines that mean the server will not come up, with what to do about each. Most specific first. */
export const SERVE_ERRORS: ReadonlyArray<{ pattern: RegExp } & ServeProblem> = [
  { pattern: /address already in use|\[Errno 98\]/i, problem: 'the port is already in use', fix: 'stop the process holding the port, or pass another --port N in max-args' },
  { pattern: /CUDA_ERROR_OUT_OF_MEMORY|out of memory|OutOfMemoryError|hipErrorOutOfMemory/i, problem: 'the GPU ran out of memory while loading the model', fix: 'free the GPU, or lower --max-batch-size / --max-length in max-args, or use a smaller quantization (--quantization-encoding)' },
  { pattern: /not found in registry/i, problem: 'the architecture is not registered with MAX', fix: 'check the custom-architectures option; for an embeddings model, max serve before 26.5 detects the task before it imports custom architectures' },
  {
    pattern: /Repository Not Found|RepositoryNotFoundError|404 Client Error|is not a local folder and is not a valid model identifier|does not appear to have a file named|GatedRepoError/i,
    problem: 'the model was not found',
    fix: 'check the model option (a Hugging Face id or a local path); for a gated model set HF_TOKEN in the job environment',
  },
  { pattern: /No such option|Got unexpected extra argument|Invalid value for|Missing option|unrecognized arguments/i, problem: 'max serve rejected a flag', fix: 'fix max-args (see max serve --help for this MAX version)' },
];

/**
 * Markers of trouble in the log before the server is ready (from Modular's own serve checks). With
 * a known cause (SERVE_ERRORS) the server is stopped at once; a bare traceback is reported and the
 * wait goes on, since a server can log one and still come up.
 */
const FAILURE_MARKERS = /Traceback \(most recent call last\)|CUDA_ERROR|not found in registry|address already in use|\[Errno 98\]|^Error: /i;

export function classifyServeLog(lines: readonly string[]): ServeProblem | undefined {
  for (const known of SERVE_ERRORS) if (lines.some((line) => known.pattern.test(line))) return { problem: known.problem, fix: known.fix };
  return undefined;
}

export type HealthCheck = (url: string) => Promise<number | null>;

/** GET the URL; the status code, or null when nothing answers within two seconds. */
export const httpHealthCheck: HealthCheck = (url) =>
  new Promise((resolve) => {
    const req = request(url, { method: 'GET', timeout: 2000 }, (res) => {
      res.resume();
      resolve(res.statusCode ?? null);
    });
    req.on('timeout', () => req.destroy());
    req.on('error', () => resolve(null));
    req.end();
  });

export interface ServeTiming {
  /** How long the server must stay up, with a clean log, before /health is polled. */
  earlyCheckMs: number;
  pollMs: number;
  /** How often a line says what is still awaited. */
  progressMs: number;
}

export const DEFAULT_SERVE_TIMING: ServeTiming = { earlyCheckMs: 3000, pollMs: 1000, progressMs: 30_000 };

export interface Server {
  process: RunningProcess;
  /** Resolves when the server's main process exits, for whatever reason. */
  exited: Promise<ProcessOutcome>;
  /** The last lines of its log (bounded). */
  recentLines(): string[];
}

export type ServeStart = { ok: true; server: Server; seconds: number } | { ok: false; message: string; timedOut: boolean; server: Server };

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

function lastLine(lines: readonly string[]): string {
  return lines.length ? JSON.stringify(lines[lines.length - 1]!.slice(0, 200)) : '(nothing yet)';
}

export async function startServer(
  groups: ProcessGroups,
  step: PlannedStep,
  plan: ServePlan,
  options: { logger: Logger; env: Record<string, string>; cwd: string; readyTimeoutMs: number; timing?: ServeTiming; health?: HealthCheck },
): Promise<ServeStart> {
  const timing = options.timing ?? DEFAULT_SERVE_TIMING;
  const health = options.health ?? httpHealthCheck;
  const recent: string[] = [];
  let ready = false;
  let markerAt: number | undefined;
  let warned = false;
  const started = Date.now();

  const running = groups.start({
    argv: step.argv,
    cwd: options.cwd,
    env: options.env,
    logFile: step.logFile,
    onLine: (line) => {
      options.logger.output(line);
      recent.push(line);
      if (recent.length > 60) recent.shift();
      if (!ready && markerAt === undefined && FAILURE_MARKERS.test(line)) markerAt = Date.now();
    },
  });
  let exit: ProcessOutcome | undefined;
  const exited = running.done.then((outcome) => (exit = outcome));
  const server: Server = { process: running, exited, recentLines: () => [...recent] };

  const failure = async (what: string, timedOut = false): Promise<ServeStart> => {
    await running.stop();
    await exited;
    const known = classifyServeLog(recent);
    const detail = known ? `${known.problem}. Fix: ${known.fix}` : `last log line: ${lastLine(recent)}`;
    return { ok: false, message: `max serve ${what}: ${detail} (log: ${step.logFile})`, timedOut, server };
  };
  const deathMessage = () => {
    if (exit?.startError) return `could not start (${exit.startError})`;
    return `exited with ${exit?.signal ? `signal ${exit.signal}` : `code ${exit?.exitCode}`} after ${((Date.now() - started) / 1000).toFixed(1)} s`;
  };

  // Early check: alive, and no error in the log, for a few seconds.
  const earlyEnd = started + timing.earlyCheckMs;
  while (Date.now() < earlyEnd) {
    if (exit) return failure(deathMessage());
    if (markerAt !== undefined && Date.now() - markerAt > 500) {
      if (classifyServeLog(recent)) return failure('logged an error while starting');
      if (!warned) options.logger.warning(`max serve logged an error while starting (${lastLine(recent)}); still waiting for it to come up or exit`);
      warned = true;
    }
    await sleep(Math.min(100, timing.earlyCheckMs));
  }

  options.logger.info(`waiting up to ${Math.round(options.readyTimeoutMs / 1000)} s for ${plan.healthUrl} to answer 200 (model download and compile happen now)`);
  const deadline = started + options.readyTimeoutMs;
  let nextProgress = Date.now() + timing.progressMs;
  while (Date.now() < deadline) {
    if (exit) return failure(deathMessage());
    if (markerAt !== undefined && Date.now() - markerAt > 500) {
      if (classifyServeLog(recent)) return failure('logged an error while starting');
      if (!warned) options.logger.warning(`max serve logged an error while starting (${lastLine(recent)}); still waiting for it to come up or exit`);
      warned = true;
    }
    if (groups.isCancelled()) return failure('was stopped: the run was cancelled');
    if ((await health(plan.healthUrl)) === 200) {
      ready = true;
      const seconds = (Date.now() - started) / 1000;
      options.logger.info(`${plan.healthUrl} answered 200 after ${seconds.toFixed(1)} s`);
      return { ok: true, server, seconds };
    }
    if (Date.now() >= nextProgress) {
      options.logger.info(`still waiting for ${plan.healthUrl} (${Math.round((Date.now() - started) / 1000)} s; last log line: ${lastLine(recent)})`);
      nextProgress = Date.now() + timing.progressMs;
    }
    await sleep(timing.pollMs);
  }
  return failure(`did not answer 200 on ${plan.healthUrl} within ${Math.round(options.readyTimeoutMs / 1000)} s`, true);
}
