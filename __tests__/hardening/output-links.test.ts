/**
 * An output path that is a symbolic link (a checkout can hold `profile-gate/report.md -> ~/.bashrc`):
 * nothing is written through it, and the file it points at stays as it was.
 */
import { lstatSync, mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeOutput } from '../../src/io/input-paths.js';
import { InputError } from '../../src/errors.js';
import { runInProcess } from '../helpers/fake-action-host.js';
import { workspace } from '../helpers/action-workspace.js';
import type { FakeGitHub } from '../helpers/fake-github.js';
import { PR_EVENT, useFakeGitHub } from '../helpers/fake-github-runner.js';
import { cli } from '../helpers/cli.js';

let fake: FakeGitHub;
useFakeGitHub((started) => (fake = started));

function outsideFile(): string {
  const path = join(mkdtempSync(join(tmpdir(), 'pg-outside-')), 'bashrc');
  writeFileSync(path, 'export PATH=/usr/bin\n');
  return path;
}

describe('an output path that is a symbolic link', () => {
  it('writeOutput refuses it in one line naming the path; the file it points at is unchanged', async () => {
    const outside = outsideFile();
    const dir = mkdtempSync(join(tmpdir(), 'pg-out-'));
    const link = join(dir, 'report.md');
    symlinkSync(outside, link);
    const error = await writeOutput(link, '# report\n').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InputError);
    expect((error as Error).message).toBe(`${link}: is a symbolic link; expected a path that is not one (an output is never written through a link: remove it, or choose another path)`);
    expect(readFileSync(outside, 'utf8')).toBe('export PATH=/usr/bin\n');
    // A regular file is still overwritten, and a new one created.
    writeFileSync(join(dir, 'old.md'), 'old text that is longer\n');
    await writeOutput(join(dir, 'old.md'), 'new\n');
    expect(readFileSync(join(dir, 'old.md'), 'utf8')).toBe('new\n');
    await writeOutput(join(dir, 'sub', 'new.md'), 'x\n');
    expect(readFileSync(join(dir, 'sub', 'new.md'), 'utf8')).toBe('x\n');
  });

  it('the action: report.md linked out of the workspace is not written through; the summary is still published, the job fails naming it', async () => {
    const outside = outsideFile();
    const ws = workspace();
    mkdirSync(join(ws, 'profile-gate'));
    symlinkSync(outside, join(ws, 'profile-gate', 'report.md'));
    const r = await runInProcess({ fake, event: PR_EVENT, workspace: ws, inputs: { captures: 'captures', key: 'linked' } });
    expect(readFileSync(outside, 'utf8')).toBe('export PATH=/usr/bin\n');
    expect(lstatSync(join(ws, 'profile-gate', 'report.md')).isSymbolicLink()).toBe(true);
    expect(r.code).toBe(1);
    expect(r.failures).toEqual(['profile-gate could not write its report files: profile-gate/report.md: is a symbolic link; expected a path that is not one (an output is never written through a link: remove it, or choose another path); the job summary holds the report']);
    expect(r.summary).toMatch(/^## profile-gate: /);
  });

  it('the CLI: --markdown onto a link exits 2 with one line', async () => {
    const outside = outsideFile();
    const dir = mkdtempSync(join(tmpdir(), 'pg-out-'));
    writeFileSync(join(dir, 'm.jsonl'), '{"metric": "decode_tok_s", "value": 100}\n');
    symlinkSync(outside, join(dir, 'out.md'));
    const r = await cli(['analyze', join(dir, 'm.jsonl'), '--markdown', join(dir, 'out.md')]);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(`profile-gate: ${join(dir, 'out.md')}: is a symbolic link; expected a path that is not one (an output is never written through a link: remove it, or choose another path)\n`);
    expect(readFileSync(outside, 'utf8')).toBe('export PATH=/usr/bin\n');
  });
});
