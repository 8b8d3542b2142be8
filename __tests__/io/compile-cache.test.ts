import { compileCacheAllowed, compileCacheFolder } from '../../src/io/compile-cache.js';

describe("Node's compile cache folder", () => {
  it('is NODE_COMPILE_CACHE where set, else node-compile-cache in the temporary folder', () => {
    expect(compileCacheFolder({ NODE_COMPILE_CACHE: '/var/cache/pg' }, '/tmp')).toBe('/var/cache/pg');
    expect(compileCacheFolder({}, '/tmp')).toBe('/tmp/node-compile-cache');
    expect(compileCacheFolder({ NODE_COMPILE_CACHE: '' }, '/run/user/1000')).toBe('/run/user/1000/node-compile-cache');
  });

  it('is not used under /proc (Node spins there), and is anywhere else', () => {
    expect(compileCacheAllowed(compileCacheFolder({}, '/proc/self'))).toBe(false);
    expect(compileCacheAllowed('/proc')).toBe(false);
    expect(compileCacheAllowed('/tmp/node-compile-cache')).toBe(true);
    expect(compileCacheAllowed('/processes/cache')).toBe(true);
  });
});
