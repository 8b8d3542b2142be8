/**
 * `serve` starts the server and keeps it in the context for the steps that talk to it;
 * `serve-stop` stops its process group, also after a failure (a cleanup step), and so does the
 * executor at the end of a run that never reached serve-stop.
 */
import type { PlannedStep } from '../plan-types.js';
import type { StepRecord, StepStatus } from '../run-types.js';
import { startServer } from '../serve.js';
import { announce } from './command.js';
import type { CleanupRunner, StepContext, TimedRunner } from './types.js';

export const serveRunner: TimedRunner = {
  kind: 'timed',
  async run(step, context, timeoutMs) {
    const stepStart = Date.now();
    const { groups, plan } = context;
    announce(step, context);
    const start = await startServer(groups, step, plan.serve!, {
      logger: context.logger,
      env: context.envFor(step),
      cwd: step.cwd ?? plan.cwd,
      readyTimeoutMs: timeoutMs,
      ...(context.serveTiming ? { timing: context.serveTiming } : {}),
      ...(context.health ? { health: context.health } : {}),
    });
    const base = { id: step.id, title: step.title, seconds: (Date.now() - stepStart) / 1000, logFile: step.logFile };
    if (!start.ok) {
      const status: StepStatus = groups.isCancelled() ? 'cancelled' : start.timedOut ? 'timeout' : 'failed';
      return { record: { ...base, status, message: start.message }, files: [] };
    }
    context.server = start.server;
    return { record: { ...base, status: 'ok' }, files: [] };
  },
};

/** Stops the server's process group (skipped when none runs). Without a step: the stop at the end of the run. */
export async function stopServer(context: StepContext, step?: PlannedStep): Promise<StepRecord> {
  const stepStart = Date.now();
  const id = step?.id ?? 'serve-stop';
  const title = step?.title ?? 'Stop the server';
  const { server } = context;
  if (!server) return { id, title, status: 'skipped', seconds: 0 };
  const pid = server.process.pid;
  if (!server.process.exited()) {
    context.logger.info(`stopping the server's process group ${pid} (SIGTERM, SIGKILL after ${context.groups.graceMs / 1000} s)`);
    await server.process.stop();
  }
  await server.exited;
  context.server = undefined;
  return { id, title, status: 'ok', seconds: (Date.now() - stepStart) / 1000, message: `process group ${pid} stopped` };
}

export const serveStopRunner: CleanupRunner = { kind: 'cleanup', run: (step, context) => stopServer(context, step) };
