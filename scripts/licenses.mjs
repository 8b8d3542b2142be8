// The third-party licenses of what the bundles hold, written the same on every machine.
// ncc's own --license list keeps one entry per package name, and which copy of a package installed
// twice (isarray 1.0.0 and 2.0.5, say) it describes depends on the order it meets them, which a
// fresh `npm ci` may change: CI then sees a stale dist/. Here every bundled copy is listed, ordered
// by its path, from the modules webpack reports (ncc --stats-out).
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

/** The package folders (node_modules/…/pkg) of every module in the stats files, sorted. */
function bundledPackages(statsFiles) {
  const folders = new Set();
  for (const file of statsFiles) {
    const stats = JSON.parse(readFileSync(file, 'utf8'));
    const names = [...(stats.modules ?? [])].flatMap((m) => [m.name ?? '', ...(m.modules ?? []).map((inner) => inner.name ?? '')]);
    for (const name of names) {
      const match = /^(?:\.\/)?((?:node_modules\/(?:@[^/]+\/)?[^/]+\/)+)/.exec(name.replace(/ \+ \d+ modules$/, ''));
      if (match) folders.add(match[1].replace(/\/$/, ''));
    }
  }
  return [...folders].sort();
}

function licenseText(folder) {
  const file = readdirSync(folder).filter((name) => /^(licen[cs]e|copying)(\.|$)/i.test(name)).sort()[0];
  return file ? readFileSync(join(folder, file), 'utf8').trim() : undefined;
}

export function writeLicenses(statsFiles, out) {
  // One entry per name@version (a version installed at two paths is one copy of the same code).
  const entries = new Map();
  for (const folder of bundledPackages(statsFiles)) {
    const manifest = join(root, folder, 'package.json');
    if (!existsSync(manifest)) continue;
    const pkg = JSON.parse(readFileSync(manifest, 'utf8'));
    if (!pkg.name || entries.has(`${pkg.name}@${pkg.version}`)) continue;
    const license = typeof pkg.license === 'string' ? pkg.license : pkg.license?.type ?? 'see the package';
    entries.set(`${pkg.name}@${pkg.version}`, `${license}\n${licenseText(join(root, folder)) ?? `(no license file in the package; package.json says ${license})`}`);
  }
  const keys = [...entries.keys()].sort();
  writeFileSync(out, `${keys.map((key) => `${key}\n${entries.get(key)}`).join('\n\n')}\n`);
  return keys.length;
}
