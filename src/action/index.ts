/**
 * The action's entry. The event file is read first: @actions/artifact loads @actions/github, whose
 * context parses GITHUB_EVENT_PATH while loading and would end a bad file in a stack trace. So the
 * rest of the action is loaded only once the file is known to be readable.
 */
import { describeError } from '../errors.js';
import { readEventPayload } from './github/run-context.js';

let readable = true;
try {
  readEventPayload();
} catch (error) {
  readable = false;
  process.stdout.write(`::error::${describeError(error)}\n`);
  process.exitCode = 1;
}
if (readable) {
  const { run } = await import('./run-action.js');
  await run();
}
