import { blockingMismatches, describeFingerprint, environmentMismatches, fingerprint } from '../../src/compare/fingerprint.js';
import { formatMismatch } from '../../src/report/verdict-lines.js';

const h200 = { gpuName: 'NVIDIA H200', driver: '580.159.04', cuda: '13.0', engine: 'torch', engineVersion: '2.11.0', model: 'llama', dtype: 'bfloat16', batch: '1', sequence: '128+64' };

describe('fingerprint', () => {
  it('normalizes case, spacing and the vendor prefix of the GPU name', () => {
    expect(fingerprint({ gpuName: '  NVIDIA  H200 ', dtype: 'BFloat16' })).toEqual({ gpuName: 'h200', dtype: 'bfloat16' });
    expect(describeFingerprint({ gpuName: 'NVIDIA H200', gpuCount: 1, cuda: '13.0' })).toBe('gpuName=h200 gpuCount=1 cuda=13.0');
  });
});

describe('environmentMismatches', () => {
  it('finds none between equal environments, or where a key is known on one side only', () => {
    expect(environmentMismatches(h200, { ...h200 })).toEqual([]);
    expect(environmentMismatches(h200, { gpuName: 'H200' })).toEqual([]);
    expect(environmentMismatches({ ...h200, engine: undefined }, h200)).toEqual([]);
  });
  it('treats a shorter version as a prefix of a longer one, and nothing else', () => {
    expect(environmentMismatches(h200, { ...h200, cuda: '13.0.48', engineVersion: '2.11' })).toEqual([]);
    expect(environmentMismatches(h200, { ...h200, cuda: '13.1' })).toEqual([{ key: 'cuda', baseline: '13.0', current: '13.1' }]);
    expect(environmentMismatches(h200, { ...h200, driver: '580.159.1' })).toHaveLength(1);
  });
  it('lists every differing key in fingerprint order, as written', () => {
    const list = environmentMismatches(h200, { ...h200, gpuName: 'NVIDIA H100 80GB HBM3', dtype: 'float16', batch: '8' });
    expect(list.map(formatMismatch)).toEqual(['gpuName: NVIDIA H200 → NVIDIA H100 80GB HBM3', 'dtype: bfloat16 → float16', 'batch: 1 → 8']);
    expect(blockingMismatches(list, false)).toHaveLength(3);
    expect(blockingMismatches(list, true)).toEqual([]);
    expect(blockingMismatches(list, ['dtype', 'batch']).map((m) => m.key)).toEqual(['gpuName']);
  });
});
