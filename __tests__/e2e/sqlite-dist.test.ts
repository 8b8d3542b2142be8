/** The bundled CLI reads SQLite captures: sql.js ships beside the bundle (run `npm run build` first). */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const fixture = (name: string) => join(ROOT, '__tests__/fixtures/sqlite', name);

it('node dist/cli/index.js analyze x.sqlite and x_results.db read the databases', () => {
  for (const [name, format, total] of [
    ['rocpd_llamacpp_r9700_built_results.db', 'rocpd-sqlite', 662_138_329],
    ['nsys_h200_dense_decode_built.sqlite', 'nsys-sqlite', 1_893_526],
  ] as const) {
    const result = spawnSync(process.execPath, [join(ROOT, 'dist/cli/index.js'), 'analyze', '--json', '-', fixture(name)], { encoding: 'utf8' });
    expect({ name, stderr: result.stderr }).toEqual({ name, stderr: '' });
    const report = JSON.parse(result.stdout) as { totalKernelNs: number; sources: Array<{ format: string }> };
    expect(report.sources.map((s) => s.format)).toEqual([format]);
    expect(report.totalKernelNs).toBe(total);
  }
});
