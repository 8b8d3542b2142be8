#!/usr/bin/env node
import module from 'node:module';

// Node (22.1 and later) keeps the code it compiles for the CLI in its compile cache, so that a
// later run on the same machine loads it instead of compiling it again. Only what is imported
// after this line is cached: the CLI itself is loaded below, not imported above.
(module as { enableCompileCache?: () => unknown }).enableCompileCache?.();

const { main } = await import('./program.js');

// A reader that closed the pipe (`| head`) is not an error of ours: stop quietly.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code === 'EPIPE') process.exit(process.exitCode ?? 0);
  throw error;
});

process.exitCode = await main(process.argv.slice(2));
