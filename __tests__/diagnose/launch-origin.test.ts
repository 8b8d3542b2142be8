/** How a finding names where a kernel was launched from: the workload's Python line, then the op chain. */
import { launchOrigin } from '../../src/diagnose/profile-measures.js';
import type { Kernel } from '../../src/model/profile.js';

const kernel = (extra: Partial<Kernel>): Kernel => ({ name: 'k', totalNs: 1, instances: 1, family: 'copy', share: 1, ...extra });
const sdpa = { function: 'sdpa', file: 'llama_decode.py', line: 142 };

describe('launchOrigin', () => {
  it.each([
    ['neither', {}, ''],
    ['the op chain alone, as before stacks', { launchedBy: 'aten::copy_' }, ' launched from aten::copy_'],
    ['the Python line and the op', { launchedBy: 'aten::repeat_interleave > aten::clone > aten::copy_', pythonSites: [{ ...sdpa, share: 1 }] }, ' launched from `sdpa` (llama_decode.py:142) via aten::repeat_interleave > aten::clone > aten::copy_'],
    ['a module and a share under 90 %', { pythonSites: [{ ...sdpa, module: 'LlamaAttention', share: 0.62 }] }, ' launched from `sdpa` (llama_decode.py:142, in LlamaAttention) (62.0% of its time)'],
    ['a graph replay', { pythonSites: [{ function: '__call__', file: 'vllm/compilation/backends.py', line: 608, graphReplay: true, share: 1 }] }, ' replayed by a CUDA graph launched from `__call__` (vllm/compilation/backends.py:608)'],
    [
      'a graph replay tied to its capture in the trace: the capture\'s line and op',
      { launchedBy: 'aten::repeat_interleave > aten::clone > aten::copy_', pythonSites: [{ ...sdpa, graphReplay: true, graphCapture: true, share: 1 }] },
      ' launched from `sdpa` (llama_decode.py:142) via aten::repeat_interleave > aten::clone > aten::copy_ (captured into a CUDA graph, then replayed)',
    ],
    ['a capture\'s line with a share under 90 %', { pythonSites: [{ ...sdpa, graphReplay: true, graphCapture: true, share: 0.5 }] }, ' launched from `sdpa` (llama_decode.py:142) (50.0% of its time) (captured into a CUDA graph, then replayed)'],
  ])('%s', (_name, extra, text) => {
    expect(launchOrigin(kernel(extra))).toBe(text);
  });
});
