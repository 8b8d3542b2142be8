#!/usr/bin/env node
import { enableCompileCache } from '../io/compile-cache.js';

// Turned on before the CLI is loaded, so that its code is cached (io/compile-cache.ts).
enableCompileCache();

const { main } = await import('./program.js');

// A reader that closed the pipe (`| head`) is not an error of ours: stop quietly.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code === 'EPIPE') process.exit(process.exitCode ?? 0);
  throw error;
});

process.exitCode = await main(process.argv.slice(2));
