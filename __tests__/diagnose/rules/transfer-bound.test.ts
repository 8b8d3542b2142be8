import rule from '../../../src/diagnose/rules/transfer-bound.js';
import { K } from '../../helpers/profile-builder.js';
import { testRule } from '../../helpers/rule-tester.js';

const HTOD_PAGEABLE = 'Memcpy HtoD (Pageable -> Device)';
const HTOD = '[CUDA memcpy Host-to-Device]';
const DTOD = 'Memcpy DtoD (Device -> Device)';

testRule(rule, {
  passing: [
    { name: 'no copies', profile: { kernels: [[K.decodeGemm, 10]] } },
    { name: 'copies small against kernels (vLLM TP4: 0.07 ms against 233 ms)', profile: { kernels: [[K.decodeGemm, 233]], memops: [['memcpy-htod', 0.067, 60, HTOD]] } },
    { name: 'device-to-device copies are not host transfers', profile: { kernels: [[K.decodeGemm, 10]], memops: [['memcpy-dtod', 22, 2040, DTOD]] } },
    { name: 'under a millisecond of copies is thin evidence', profile: { kernels: [[K.decodeGemm, 0.1]], memops: [['memcpy-htod', 0.5, 3, HTOD]] } },
  ],
  failing: [
    {
      // The AlexNet A100 trace: 16 pageable host-to-device copies, 55.5 ms, against 10.7 ms of kernels.
      name: 'copies five times the kernel time: warning',
      profile: { kernels: [[K.ampereGemm, 10.692, 79]], memops: [['memcpy-htod', 55.503, 16, HTOD_PAGEABLE]] },
      hits: [{ severity: 'warning', evidence: { copyMs: 55.503, kernelMs: 10.692, copyToKernelRatio: 5.191, pageableShare: 1, copies: 16 } }],
    },
    {
      name: 'copies a third of kernel time: info',
      profile: { kernels: [[K.ampereGemm, 30]], memops: [['memcpy-htod', 6, 10, HTOD], ['memcpy-dtoh', 4, 10, '[CUDA memcpy Device-to-Host]']] },
      hits: [{ severity: 'info', evidence: { copyToKernelRatio: 0.3333, htodShare: 0.6, pageableShare: 0 } }],
    },
    {
      name: 'copies a trace shows overlapped by kernels (90 % hidden): info',
      profile: { kernels: [[K.ampereGemm, 30]], memops: [['memcpy-htod', 60, 100, HTOD]], timeline: { spanNs: 100e6, busyNs: 90e6, transfers: { copyNs: 60e6, exposedNs: 6e6 } } },
      hits: [{ severity: 'info', evidence: { copyToKernelRatio: 2, exposedCopyShare: 0.1 } }],
    },
    {
      name: 'copies a trace shows with no kernel meanwhile stay a warning',
      profile: { kernels: [[K.ampereGemm, 30]], memops: [['memcpy-htod', 60, 100, HTOD]], timeline: { spanNs: 100e6, busyNs: 90e6, transfers: { copyNs: 60e6, exposedNs: 60e6 } } },
      hits: [{ severity: 'warning', evidence: { copyToKernelRatio: 2, exposedCopyShare: 1 } }],
    },
    {
      name: 'a lower bar makes the third a warning',
      profile: { kernels: [[K.ampereGemm, 30]], memops: [['memcpy-htod', 10, 10, HTOD]] },
      options: { maxCopyToKernelRatio: 0.3 },
      hits: [{ severity: 'warning', evidence: { copyToKernelRatio: 0.3333 } }],
    },
  ],
});
