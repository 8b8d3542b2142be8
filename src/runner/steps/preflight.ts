/**
 * The custom-architecture pre-flight: a checker that prints JSON. Its errors stop the run, its
 * warnings become notices; a checker that gives no result is skipped with a warning, not a failure.
 */
import { readFile } from 'node:fs/promises';
import { parsePreflightOutput, preflightMessages } from '../preflight.js';
import { runCommand } from './command.js';
import type { TimedRunner } from './types.js';

export const preflightRunner: TimedRunner = {
  kind: 'timed',
  async run(step, context, timeoutMs) {
    const { logger, notices, plan } = context;
    const result = await runCommand({ ...step, outputs: [] }, context, timeoutMs);
    if (result.record.status === 'cancelled') return result;
    const text = step.stdoutFile ? await readFile(step.stdoutFile, 'utf8').catch(() => '') : '';
    const report = parsePreflightOutput(text);
    if (!report) {
      notices.push({ severity: 'warning', message: `custom-architecture pre-flight skipped: the checker gave no result (${result.record.message ?? 'no JSON on stdout'})` });
      return { record: { ...result.record, status: 'ok', message: 'checker gave no result; skipped' }, files: [] };
    }
    const messages = preflightMessages(report, { mode: plan.options.mode, maxVersion: plan.detected.maxVersion ?? null });
    for (const message of messages) {
      const line = `${message.message}${message.fix ? ` Fix: ${message.fix}` : ''}`;
      if (message.severity === 'error') logger.error(line);
      else if (message.severity === 'warning') logger.warning(line);
      else logger.info(line);
      if (message.severity !== 'error') notices.push({ severity: message.severity === 'warning' ? 'warning' : 'info', message: message.message, ...(message.fix ? { fix: message.fix } : {}) });
    }
    const errors = messages.filter((m) => m.severity === 'error');
    if (errors.length) {
      const text = errors.map((m) => `${m.message}${m.fix ? ` Fix: ${m.fix}` : ''}`).join(' | ');
      return { record: { ...result.record, status: 'failed', message: `custom-architecture pre-flight failed: ${text}` }, files: [] };
    }
    logger.info('custom architectures: pre-flight passed');
    return { record: { ...result.record, status: 'ok' }, files: [] };
  },
};
