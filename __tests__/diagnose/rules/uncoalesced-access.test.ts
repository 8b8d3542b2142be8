import rule from '../../../src/diagnose/rules/uncoalesced-access.js';
import { testRule } from '../../helpers/rule-tester.js';
import { loadCaptures, only } from '../ncu-captures.js';

const c = await loadCaptures();

// Expected numbers: read from the CSVs with Python's csv module (see deep-dive.test.ts for how).
testRule(rule, {
  passing: [
    { name: 'decode GEMV: no source counters', profile: { ncu: c.decodeGemv } },
    // 50,331,648 excessive of 412,270,592 shared wavefronts: 12.2%, below 25%.
    { name: 'fp32 SGEMM: some shared-memory conflicts', profile: { ncu: only(c.fp32Raw, /xmma_gemm/) } },
    { name: 'fp32 addcmul: fully coalesced', profile: { ncu: only(c.fp32Raw, /addcmul/) } },
    { name: 'a higher threshold', profile: { ncu: c.fp32Raw }, options: { minExcessShare: 0.8 } },
  ],
  failing: [
    {
      name: 'fp32 transposing copy, raw page: 78% excess global sectors, 4 of 32 bytes used',
      profile: { ncu: c.fp32Raw },
      // derived__memory_l2_theoretical_sectors_global_excessive 58,720,256 vs ideal 16,777,216: 58720256 / 75497472 = 0.7778.
      hits: [{ severity: 'warning', evidence: { space: 'global', excessShare: 0.7778, source: 'metrics', excess: 58720256, ideal: 16777216, globalLoadBytesPerSector: 4 }, command: /--section MemoryWorkloadAnalysis_Tables --section SourceCounters / }],
    },
    {
      name: 'fp32 transposing copy, details page: only ncu rule rows',
      profile: { ncu: c.fp32 },
      hits: [{ evidence: { space: 'global', excessShare: 0.78, source: 'ncu rule', ncuRule: 'MemoryCacheAccessPattern (OPT)', ncuEstimatedSpeedupPercent: 82.49 } }],
    },
    {
      name: 'fp32 transposing copy, details page with --print-details all',
      profile: { ncu: c.fp32All },
      // "L2 Theoretical Sectors Global Excessive" prints 58.72 (Mbyte): 58,720,000 after unit scaling.
      hits: [{ evidence: { space: 'global', excessShare: 0.7778, source: 'metrics', excess: 58720000, ideal: 16777216, globalLoadBytesPerSector: 4 } }],
    },
    {
      name: 'shared-memory conflicts above a lower threshold',
      profile: { ncu: only(c.fp32Raw, /xmma_gemm/) },
      options: { minExcessShare: 0.1 },
      // 50331648 / (50331648 + 361938944) = 0.12208.
      hits: [{ evidence: { space: 'shared', excessShare: 0.1221, excess: 50331648, ideal: 361938944 } }],
    },
  ],
});
