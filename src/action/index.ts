/** The action's entry: the action, on the runner's host. */
import { actionsHost } from './actions-host.js';
import { runAction } from './run-action.js';

await runAction(actionsHost());
