/**
 * Names from outside stay inert where they are printed: a capture file whose name holds a newline
 * and workflow commands (the CLI's Inputs lines, the action's log), and kernel names holding ESC/OSC
 * sequences, bidi overrides and zero-width characters (terminal, job summary, PR comment).
 */
import { copyFileSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cli } from '../helpers/cli.js';
import { commandInert, inertLine, inertLines, showHidden } from '../../src/report/inert-text.js';
import { analyze } from '../../src/pipeline/analyze.js';
import { renderTerminal } from '../../src/report/terminal.js';
import { renderSummary } from '../../src/report/markdown/summary.js';
import { renderReportComment } from '../../src/report/markdown/comment.js';
import { E2E_FIXTURES, workspace } from '../helpers/action-workspace.js';
import { runInProcess } from '../helpers/fake-action-host.js';
import type { FakeGitHub } from '../helpers/fake-github.js';
import { PR_EVENT, useFakeGitHub } from '../helpers/fake-github-runner.js';

let fake: FakeGitHub;
useFakeGitHub((started) => (fake = started));

/** Lines the Actions runner would act on: `::` at the start after spaces, or `##[` anywhere. */
function commandLines(text: string): string[] {
  return text.split(/\r\n|\r|\n/).filter((line) => /^\s*::/.test(line) || line.includes('##['));
}

const FORGED = 'decode\n::error title=forged::the gate failed\n::add-mask::decode_tok_s\n##[error]v1.jsonl';

describe('inert text', () => {
  it('escapes controls, bidi, zero-width and tag characters, and the command syntax of a line', () => {
    expect(showHidden('a\nb\r\tc\u001b]52;c;eA==\u0007d')).toBe('a\\nb\\r\\tc\\x1b]52;c;eA==\\x07d');
    expect(showHidden('x\u202ey\u2066z\u2069\u200b\u200d\ufeff\u0085\u{e0041}')).toBe('x\\u202ey\\u2066z\\u2069\\u200b\\u200d\\ufeff\\x85\\u{e0041}');
    expect(showHidden('void at::native::kernel<(int)128> é 日本')).toBe('void at::native::kernel<(int)128> é 日本');
    expect(commandInert('  ::error::x')).toBe('  \\x3a:error::x');
    expect(commandInert('see ##[add-mask]x and at::native')).toBe('see ##\\x5badd-mask]x and at::native');
    expect(inertLine(FORGED)).toBe('decode\\n::error title=forged::the gate failed\\n::add-mask::decode_tok_s\\n##\\x5berror]v1.jsonl');
    expect(commandLines(inertLines(`ok\n::warning::x\n##[group]y`))).toEqual([]);
  });
});

describe('a capture file named with a newline and workflow commands', () => {
  function folderWithForgedName(): { dir: string; path: string } {
    const dir = mkdtempSync(join(tmpdir(), 'pg-forged-'));
    const path = join(dir, FORGED);
    writeFileSync(path, '{"metric": "decode_tok_s", "value": 100}\n');
    return { dir, path };
  }

  it('CLI: the Inputs line shows the name with escapes, and no printed line is a workflow command', async () => {
    const { dir } = folderWithForgedName();
    const r = await cli(['analyze', dir]);
    expect(r.code).toBe(0);
    expect(commandLines(r.stdout)).toEqual([]);
    expect(commandLines(r.stderr)).toEqual([]);
    expect(r.stdout).toContain(`  ${dir}/decode\\n::error title=forged::the gate failed\\n::add-mask::decode_tok_s\\n##\\x5berror]v1.jsonl: workload-metrics-jsonl`);
  });

  it('CLI: an error naming the file stays one inert line', async () => {
    const { path } = folderWithForgedName();
    writeFileSync(path, '{"traceEvents": [');
    const r = await cli(['analyze', path]);
    expect(r.code).toBe(2);
    expect(r.stderr.split('\n')).toHaveLength(2);
    expect(commandLines(r.stderr)).toEqual([]);
    // The message is one line already (its line breaks are spaces); `##[` is still written inert.
    expect(r.stderr).toContain('decode ::error title=forged::the gate failed ::add-mask::decode_tok_s ##\\x5berror]v1.jsonl:byte 17: ');
  });

  it('action: the capture upload names it in the log without a line the runner would act on', async () => {
    const ws = workspace();
    copyFileSync(join(E2E_FIXTURES, 'dense_decode.nvml.jsonl'), join(ws, 'captures', FORGED));
    const r = await runInProcess({ fake, event: PR_EVENT, workspace: ws, inputs: { captures: 'captures', key: 'forged', 'upload-raw-captures': 'true' } });
    expect(r.code).toBe(0);
    const log = r.host.log.filter((line) => !line.startsWith('::group::') && line !== '::endgroup::');
    expect(log.some((line) => line.includes('capture path(s) hold characters the artifact service refuses'))).toBe(true);
    expect(commandLines(log.join('\n'))).toEqual([]);
  });
});

describe('kernel names that hold terminal sequences, bidi overrides and zero-width characters', () => {
  // OSC 52 (write the clipboard), a screen clear, a right-to-left override, an isolate and two zero-width characters.
  const HOSTILE = 'evil\u001b]52;c;ZWNobyBwd25lZA==\u0007\u001b[2Jkernel\u202eexe.gnp\u2066x\u2069\u200b_v\u200d2';
  async function hostileReport() {
    const dir = mkdtempSync(join(tmpdir(), 'pg-hostile-kernel-'));
    mkdirSync(join(dir, 'in'));
    const csv = [
      'Time (%),Total Time (ns),Instances,Avg (ns),Med (ns),Min (ns),Max (ns),StdDev (ns),Name',
      `80.0,8000000,100,80000.0,80000.0,79000,81000,100.0,${HOSTILE}`,
      '20.0,2000000,100,20000.0,20000.0,19000,21000,100.0,nvjet_sm90_tst_64x8_64x16_2x1_v_bz_splitK_NNT',
    ].join('\n');
    const path = join(dir, 'in', 'kern_sum.csv');
    writeFileSync(path, `${csv}\n`);
    return analyze({ inputs: [path] });
  }

  it('terminal: no raw ESC, bidi or zero-width character; each is shown as an escape', async () => {
    const report = await hostileReport();
    expect(report.kernels[0]!.name).toBe(HOSTILE);
    const text = renderTerminal(report, { color: false });
    expect(text).not.toMatch(/[\u001b\u0007\u202e\u2066\u2069\u200b\u200d]/);
    expect(text).toContain('evil\\x1b]52;c;ZWNobyBwd25lZA==\\x07\\x1b[2Jkernel\\u202eexe.gnp\\u2066x\\u2069\\u200b_v\\u200d2');
    // Colour codes of our own still work.
    expect(renderTerminal(report, { color: true })).toMatch(/^profile-gate [^\n]*\u001b\[1m/);
  });

  it('summary and comment: shown as escapes, and nothing zero-width is added inside a kernel name', async () => {
    const report = await hostileReport();
    for (const markdown of [renderSummary(report), renderReportComment(report, { key: 'k' })]) {
      expect(markdown).not.toMatch(/[\u001b\u0007\u202e\u2066\u2069\u200d]/);
      // The name as a code element: its escapes written as entities, no zero-width space anywhere in it.
      // Tables may break a long name at <wbr> (an element, not a character).
      const codes = [...markdown.replace(/<wbr>/g, '').matchAll(/<code>([^<]*ZWNobyBwd25lZA[^<]*)<\/code>/g)].map((m) => m[1]!);
      expect(codes.length).toBeGreaterThan(0);
      for (const code of codes) expect(code).not.toContain('\u200b');
      expect(codes.some((code) => code.includes('evil&#92;x1b&#93;52;c;ZWNobyBwd25lZA==&#92;x07'))).toBe(true);
    }
  });
});
