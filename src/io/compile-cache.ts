/**
 * Node's compile cache for the CLI and the action (Node 22.1 and later): the code Node compiles for
 * them is kept on disk, so that a later run on the same machine (a self-hosted runner) loads it
 * instead of compiling it again. Only modules imported after it is turned on are cached, so the
 * entries turn it on first and load the rest after.
 */
import module from 'node:module';
import { tmpdir } from 'node:os';
import { resolve } from 'node:path';

/** Where Node keeps the cache: NODE_COMPILE_CACHE, else `node-compile-cache` in the temporary folder. */
export function compileCacheFolder(env: NodeJS.ProcessEnv = process.env, temporary: string = tmpdir()): string {
  return resolve(env.NODE_COMPILE_CACHE || resolve(temporary, 'node-compile-cache'));
}

/**
 * True where the cache may be turned on. Not under /proc: there Node (24.21) spins in its first
 * write and never returns, where any other folder it cannot write is only skipped.
 */
export function compileCacheAllowed(folder: string): boolean {
  return folder !== '/proc' && !folder.startsWith('/proc/');
}

/** Turns the cache on where Node has it and the folder allows it (NODE_DISABLE_COMPILE_CACHE=1: Node keeps it off). */
export function enableCompileCache(): void {
  const enable = (module as { enableCompileCache?: () => unknown }).enableCompileCache;
  if (enable && compileCacheAllowed(compileCacheFolder())) enable();
}
