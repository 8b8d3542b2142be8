/**
 * The host as the modes see it: every line, annotation, output, summary and failure message passes
 * through the job's redaction first (src/io/secrets.ts), so a workload that prints its environment,
 * or a report that quotes a command line with a token in it, shows `***` in the job's pages.
 */
import { redact, type SecretSet } from '../io/secrets.js';
import type { ActionHost } from './host.js';

export function redactingHost(host: ActionHost, secrets: SecretSet): ActionHost {
  const clean = (text: string) => redact(text, secrets);
  return {
    getInput: (name) => host.getInput(name),
    env: host.env,
    debug: (text) => host.debug(clean(text)),
    info: (text) => host.info(clean(text)),
    notice: (text, properties) => host.notice(clean(text), properties),
    warning: (text, properties) => host.warning(clean(text), properties),
    error: (text, properties) => host.error(clean(text), properties),
    group: (name, fn) => host.group(clean(name), fn),
    setSecret: (value) => host.setSecret(value),
    setOutput: (name, value) => host.setOutput(name, clean(value)),
    writeSummary: (markdown) => host.writeSummary(clean(markdown)),
    setFailed: (message) => host.setFailed(clean(message)),
    artifacts: host.artifacts,
  };
}
