// After ncc: make the CLI bundle executable, so `bin.profile-gate` works when installed or linked.
import { chmodSync } from 'node:fs';

chmodSync(new URL('../dist/cli/index.js', import.meta.url), 0o755);
