/** The action's entry: the action, on the runner's host. */
import module from 'node:module';

// Node (22.1 and later) keeps the code it compiles for the action in its compile cache, so that a
// later job on the same runner (a self-hosted one) loads it instead of compiling it again. Only
// what is imported after this line is cached: the action itself is loaded below, not imported above.
(module as { enableCompileCache?: () => unknown }).enableCompileCache?.();

const { actionsHost } = await import('./actions-host.js');
const { runAction } = await import('./run-action.js');

await runAction(actionsHost());
