/**
 * The executor's order and bookkeeping, with stand-in runners: each records that it ran and ends
 * as the test says, while the role table's own policies (what a profile-stats step waits on, what a
 * failed profile leaves out, stopping the server) stay the real ones.
 */
import { runSteps } from '../../src/runner/executor.js';
import { createMemoryLogger } from '../../src/runner/logger.js';
import type { Plan, PlannedStep, StepRole } from '../../src/runner/plan-types.js';
import { prepareRun } from '../../src/runner/run-workload.js';
import { parseRunOptions } from '../../src/runner/run-options.js';
import { ProcessGroups, type ProcessOutcome, type RunningProcess } from '../../src/runner/process-group.js';
import type { StepStatus } from '../../src/runner/run-types.js';
import type { Server } from '../../src/runner/serve.js';
import { STEP_RUNNERS } from '../../src/runner/steps/index.js';
import type { StepRunner, StepRunners } from '../../src/runner/steps/types.js';
import { standInProbe, standInPythonDir, tempDir } from './stand-ins.js';

let basePlan: Plan;

beforeAll(async () => {
  const options = parseRunOptions({ engine: 'command', run: 'true', runs: '1', 'warmup-runs': '0', profiler: 'none', 'deep-dive': 'off', 'timeout-minutes': '7' });
  basePlan = await prepareRun(options, { outDir: 'out', cwd: tempDir('executor'), probe: standInProbe({ vendor: 'none' }), pythonDir: standInPythonDir({ snapshot: false }) });
});

function step(id: string, role: StepRole, extra: Partial<PlannedStep> = {}): PlannedStep {
  return { id, role, title: `Title of ${id}`, argv: ['true'], env: {}, pathPrepend: [], timeoutSeconds: 600, logFile: `${id}.log`, outputs: [], onFailure: 'stop', weight: 1, ...extra };
}

function planOf(steps: PlannedStep[], extra: Partial<Plan> = {}): Plan {
  return { ...basePlan, steps, notices: [], ...extra };
}

const exitOutcome: ProcessOutcome = { exitCode: 0, signal: null, timedOut: false, cancelled: false, durationMs: 0, tail: [], leftovers: 0, cutLines: 0, cutBytes: 0 };

/** A server stand-in whose process group records being stopped. */
function fakeServer(events: string[]): Server {
  let exited = false;
  const process: RunningProcess = {
    pid: 4321,
    done: Promise.resolve(exitOutcome),
    stop: async () => {
      events.push('server stopped');
      exited = true;
    },
    exited: () => exited,
  };
  return { process, exited: Promise.resolve(exitOutcome), recentLines: () => [] };
}

interface Stand {
  runners: StepRunners;
  /** Step ids in the order their runners were called, and cleanups as `cleanup:<id>`. */
  events: string[];
  timeouts: Record<string, number>;
}

/** The real role table with each timed runner's `run` replaced: it ends as `ends` says (ok otherwise) and writes one file. */
function stand(ends: Record<string, StepStatus> = {}): Stand {
  const events: string[] = [];
  const timeouts: Record<string, number> = {};
  const runners = Object.fromEntries(
    Object.entries(STEP_RUNNERS).map(([role, real]): [string, StepRunner] => {
      if (real.kind === 'cleanup') {
        return [role, { kind: 'cleanup', run: (s, context) => (events.push(`cleanup:${s.id}`), real.run(s, context)) }];
      }
      return [
        role,
        {
          ...real,
          run: async (s, context, timeoutMs) => {
            events.push(s.id);
            timeouts[s.id] = timeoutMs;
            if (s.role === 'serve') context.server = fakeServer(events);
            const status = ends[s.id] ?? 'ok';
            return {
              record: { id: s.id, title: s.title, status, seconds: 0, ...(status === 'ok' ? {} : { message: `${s.id} ended ${status}.` }) },
              files: status === 'ok' ? [{ path: `/out/${s.id}.csv`, kind: 'nsys-stats', analysis: true, bytes: 1, step: s.id }] : [],
            };
          },
        },
      ];
    }),
  ) as unknown as StepRunners;
  return { runners, events, timeouts };
}

const deps = () => ({ logger: createMemoryLogger(), groups: new ProcessGroups() });

describe('runSteps', () => {
  it('runs the steps in plan order, each in a log group, and keeps records and files in that order', async () => {
    const { runners, events } = stand();
    const logger = createMemoryLogger();
    const steps = [step('warmup-1', 'warmup'), step('measured-1', 'measured'), step('measured-1-base', 'measured', { side: 'base' }), step('profile', 'profile'), step('profile-stats', 'profile-stats')];
    const done = await runSteps(planOf(steps), { logger, groups: new ProcessGroups() }, runners);
    expect(events).toEqual(['warmup-1', 'measured-1', 'measured-1-base', 'profile', 'profile-stats']);
    expect(done.records.map((r) => [r.id, r.status])).toEqual(steps.map((s) => [s.id, 'ok']));
    expect(done.files.map((f) => [f.step, f.side])).toEqual([['warmup-1', undefined], ['measured-1', undefined], ['measured-1-base', 'base'], ['profile', undefined], ['profile-stats', undefined]]);
    expect(logger.lines.filter((line) => line.kind === 'group').map((line) => line.text)).toEqual(steps.map((s) => s.title));
    expect(logger.text()).toContain('info: measured-1: done in 0.0 s');
    expect(done.stopReason).toBeUndefined();
  });

  it('after a step that stops the run fails: skips the rest, but still stops the server', async () => {
    const { runners, events } = stand({ 'benchmark-1': 'failed' });
    const steps = [step('serve', 'serve'), step('benchmark-1', 'benchmark'), step('benchmark-2', 'benchmark'), step('serve-stop', 'serve-stop'), step('after', 'measured')];
    const { logger, groups } = deps();
    const done = await runSteps(planOf(steps), { logger, groups }, runners);
    expect(events).toEqual(['serve', 'benchmark-1', 'cleanup:serve-stop', 'server stopped']);
    expect(done.records.map((r) => [r.id, r.status])).toEqual([['serve', 'ok'], ['benchmark-1', 'failed'], ['benchmark-2', 'skipped'], ['serve-stop', 'ok'], ['after', 'skipped']]);
    expect(done.stopReason).toEqual({ outcome: 'failed', message: 'benchmark-1 ended failed.' });
    expect(logger.text()).toContain('error: benchmark-1 ended failed.');
    expect(done.context.server).toBeUndefined();
  });

  it('stops a server no serve-stop step reached, at the end, as one more record', async () => {
    const { runners, events } = stand({ measured: 'timeout' });
    const done = await runSteps(planOf([step('serve', 'serve'), step('measured', 'measured'), step('serve-stop', 'serve-stop')]), deps(), runners);
    // serve-stop is a cleanup: it runs after the stop, so the end finds no server left.
    expect(events).toEqual(['serve', 'measured', 'cleanup:serve-stop', 'server stopped']);
    expect(done.stopReason?.outcome).toBe('timeout');

    const leftOver = stand({ measured: 'failed' });
    const ended = await runSteps(planOf([step('serve', 'serve'), step('measured', 'measured')]), deps(), leftOver.runners);
    expect(leftOver.events).toEqual(['serve', 'measured', 'server stopped']);
    expect(ended.records.at(-1)).toMatchObject({ id: 'serve-stop', title: 'Stop the server', status: 'ok', message: 'process group 4321 stopped' });
  });

  it('goes on after a step that may fail, tells the gap, and skips the stats of a failed profile of that side only', async () => {
    const { runners, events } = stand({ profile: 'failed', 'measured-2': 'failed' });
    const steps = [
      step('measured-1', 'measured', { onFailure: 'continue' }),
      step('measured-2', 'measured', { onFailure: 'continue' }),
      step('profile', 'profile', { onFailure: 'continue' }),
      step('profile-stats', 'profile-stats', { onFailure: 'continue' }),
      step('profile-base', 'profile', { onFailure: 'continue', side: 'base' }),
      step('profile-stats-base', 'profile-stats', { onFailure: 'continue', side: 'base' }),
    ];
    const done = await runSteps(planOf(steps), deps(), runners);
    expect(events).toEqual(['measured-1', 'measured-2', 'profile', 'profile-base', 'profile-stats-base']);
    expect(done.records.find((r) => r.id === 'profile-stats')).toEqual({ id: 'profile-stats', title: 'Title of profile-stats', status: 'skipped', seconds: 0, message: 'the profiled run failed' });
    expect(done.stopReason).toBeUndefined();
    expect(done.stepProblems).toEqual(['measured-2 ended failed.', 'profile ended failed.']);
    expect(done.context.notices.map((n) => n.message)).toEqual(['measured-2 ended failed. The report has no data from measured-2.', 'profile ended failed. The report has no kernel profile.']);
  });

  it('gives each step what is left of the budget up to its own limit, less the reserve while a server runs', async () => {
    const { runners, timeouts } = stand();
    const steps = [step('measured', 'measured', { timeoutSeconds: 10 }), step('long', 'measured'), step('serve', 'serve'), step('benchmark', 'benchmark')];
    await runSteps(planOf(steps, { budgetSeconds: 100 }), { ...deps(), reserveSeconds: 30 }, runners);
    expect(timeouts.measured).toBe(10_000);
    expect(timeouts.long).toBeGreaterThan(99_000);
    expect(timeouts.long).toBeLessThanOrEqual(100_000);
    expect(timeouts.benchmark).toBeGreaterThan(69_000);
    expect(timeouts.benchmark).toBeLessThanOrEqual(70_000);
  });

  it('out of budget: skips the step and says the run reached its time budget before it', async () => {
    const { runners, events } = stand();
    const done = await runSteps(planOf([step('warmup-1', 'warmup'), step('measured-1', 'measured')], { budgetSeconds: 5 }), deps(), runners, Date.now() - 6000);
    expect(events).toEqual([]);
    expect(done.records.map((r) => r.status)).toEqual(['skipped', 'skipped']);
    expect(done.stopReason).toEqual({ outcome: 'timeout', message: 'the run reached its time budget (timeout-minutes 7) before title of warmup-1' });
  });

  it('once cancelled: runs no more timed steps, only cleanups', async () => {
    const { runners, events } = stand({ measured: 'cancelled' });
    const done = await runSteps(planOf([step('serve', 'serve'), step('measured', 'measured', { onFailure: 'continue' }), step('benchmark', 'benchmark'), step('serve-stop', 'serve-stop')]), deps(), runners);
    expect(events).toEqual(['serve', 'measured', 'cleanup:serve-stop', 'server stopped']);
    expect(done.stopReason).toEqual({ outcome: 'cancelled', message: 'the run was cancelled' });

    const cancelled = stand();
    const groups = new ProcessGroups();
    await groups.stopAll();
    const none = await runSteps(planOf([step('warmup-1', 'warmup'), step('serve-stop', 'serve-stop')]), { logger: createMemoryLogger(), groups }, cancelled.runners);
    expect(cancelled.events).toEqual(['cleanup:serve-stop']);
    expect(none.records.map((r) => [r.id, r.status])).toEqual([['warmup-1', 'skipped'], ['serve-stop', 'skipped']]);
  });
});
