/** The action's entry: the action, on the runner's host. */
import { enableCompileCache } from '../io/compile-cache.js';

// Turned on before the action is loaded, so that its code is cached (io/compile-cache.ts).
enableCompileCache();

const { actionsHost } = await import('./actions-host.js');
const { runAction } = await import('./run-action.js');

await runAction(actionsHost());
