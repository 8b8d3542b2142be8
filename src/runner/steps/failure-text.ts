/**
 * What a command's end says when it did not end well: the exit in words, its last output lines,
 * and the fix for failures with a known cause.
 */
import { INSTALL } from '../install-lines.js';
import type { PlannedStep } from '../plan-types.js';
import type { ProcessOutcome } from '../process-group.js';
import type { StepStatus } from '../run-types.js';

export function describeExit(outcome: ProcessOutcome): string {
  if (outcome.startError) return outcome.startError;
  if (outcome.signal) return `was killed by ${outcome.signal}`;
  return `exited with code ${outcome.exitCode}`;
}

function tailText(outcome: ProcessOutcome): string {
  const lines = outcome.tail.slice(-5).map((line) => line.slice(0, 300));
  return lines.length ? ` Last output: ${lines.map((line) => JSON.stringify(line)).join(' / ')}` : '';
}

/** An extra hint for failures with a known cause. */
function knownCause(step: PlannedStep, outcome: ProcessOutcome): string {
  const text = outcome.tail.join('\n');
  if (/libdw\.so\.1/.test(text)) return ` Fix: ${INSTALL.libdw}.`;
  if (outcome.startError && /not found/.test(outcome.startError)) {
    const program = step.argv[0] ?? '';
    const tool = (['nsys', 'ncu', 'rocprofv3', 'max'] as const).find((name) => program.endsWith(name));
    if (tool) return ` Install: ${INSTALL[tool]}.`;
  }
  if (/Process launch is not allowed in this state/.test(text)) return ' A stale nsys session is still open: run `nsys sessions list` and `nsys shutdown --session=<name>`.';
  // Timeouts and cancellation are reported before this; a SIGKILL here came from outside the run.
  if (outcome.signal === 'SIGKILL') return " A SIGKILL that the run did not send is usually the kernel's out-of-memory killer: check `dmesg` and the runner's memory.";
  return '';
}

/** The status and message of a command that was cancelled, ran out of time or failed; undefined when it exited 0. */
export function commandFailure(step: PlannedStep, outcome: ProcessOutcome, timeoutMs: number, log: string): { status: StepStatus; message: string } | undefined {
  if (outcome.cancelled) return { status: 'cancelled', message: `${step.title} was stopped: the run was cancelled` };
  if (outcome.timedOut) return { status: 'timeout', message: `${step.title} did not finish within ${Math.round(timeoutMs / 1000)} s and was stopped (log: ${log}).${tailText(outcome)}` };
  if (outcome.exitCode !== 0) return { status: 'failed', message: `${step.title} ${describeExit(outcome)} (log: ${log}).${knownCause(step, outcome)}${tailText(outcome)}` };
  return undefined;
}
