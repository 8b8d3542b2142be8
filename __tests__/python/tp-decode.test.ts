/**
 * python/workloads/tp_decode.py needs GPUs and torch to run; here it is only compiled, and its
 * launcher settings and output names are checked against what the importers read.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT } from '../ingest/sniff-sweep.js';

const SCRIPT = join(REPO_ROOT, 'python/workloads/tp_decode.py');
const source = readFileSync(SCRIPT, 'utf8');

describe('tp_decode.py', () => {
  it('compiles', () => {
    // compile() only: no .pyc is written into the tree, and torch need not be installed.
    const run = spawnSync('python3', ['-c', 'import sys; compile(open(sys.argv[1]).read(), sys.argv[1], "exec")', SCRIPT], { encoding: 'utf8' });
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
  });

  it('keeps NVLink multicast off before NCCL starts', () => {
    const torchImport = source.indexOf('import torch');
    for (const setting of ['NCCL_NVLS_ENABLE", "0"', 'TORCH_SYMM_MEM_DISABLE_MULTICAST", "1"']) {
      const at = source.indexOf(`os.environ.setdefault("${setting})`);
      expect(at).toBeGreaterThan(0);
      expect(at).toBeLessThan(torchImport);
    }
    expect(source).not.toMatch(/cuMulticastCreate/);
  });

  it('writes traces the Kineto sniffer claims by name and run lines the metrics reader takes', () => {
    expect(source).toMatch(/\.rank%d\.pt\.trace\.json/);
    expect(source).toMatch(/record_shapes=True, with_stack=False/);
    expect(source).toMatch(/\{"kind": "run", .*"tok_s": .*"t_start": .*"t_end"/);
    expect(source).toMatch(/choices=sorted\(VARIANTS\)/);
    for (const variant of ['healthy', 'comm-heavy', 'straggler']) expect(source).toContain(`"${variant}": dict(`);
  });
});
