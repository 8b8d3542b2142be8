import rule from '../../../src/diagnose/rules/empty-capture.js';
import { K } from '../../helpers/profile-builder.js';
import { testRule } from '../../helpers/rule-tester.js';

testRule(rule, {
  passing: [
    { name: 'a real kernel table', profile: { kernels: [[K.decodeGemm, 40, 1000], [K.sdpa, 5, 500]] } },
    // A full capture of few launches (a rocprofv3 kernel trace of 5 dispatches) holding 2.2 s.
    { name: 'five launches holding 2.2 s of kernel time', profile: { format: 'rocprof-csv', kernels: [['laplacian_kernel', 2200, 5]] } },
    // Nsight Compute replays the launches it was asked for: one launch is the point of a deep dive.
    { name: 'an Nsight Compute deep dive of one launch', profile: { format: 'ncu-csv', kernels: [['QuantDotGemmGroupedKernel', 0.05, 1]] } },
    { name: 'utilization samples alone are a valid input', profile: { util: [50, 60] } },
    { name: 'a generate log alone (metrics) is a valid input', profile: { metrics: { decode_tok_s: 100 } } },
    {
      // Notices are read by their code: a sampler's warning that quotes such a line is not the tool's word.
      name: 'a warning of another code whose message says there is no kernel data',
      profile: {
        format: 'max-generate',
        notices: [{ code: 'gpu-snapshot-warning', severity: 'warning', message: 'No GPU kernel data found in profile (/tmp/max-profile.nsys-rep)' }],
        metrics: { decode_tok_s: 100 },
      },
    },
    {
      // The real H200 graph-level nsys capture: kernel report SKIPPED, 32 cudaGraphLaunch calls; graph-level-trace explains it.
      name: 'graph launches without kernels are left to graph-level-trace',
      profile: {
        notices: [{ code: 'nsys-report-skipped', severity: 'warning', message: 'cuda_gpu_kern_sum: x.sqlite does not contain CUDA kernel data.' }],
        apiCalls: [['cudaGraphLaunch', 2, 32]],
        util: [90],
      },
    },
  ],
  failing: [
    {
      name: 'nothing at all',
      profile: {},
      hits: [{ severity: 'error', evidence: { kernels: 0, metrics: 0, utilizationSamples: 0 } }],
    },
    {
      name: 'MAX said there is no kernel data',
      profile: { notices: [{ code: 'max-no-kernel-data', severity: 'error', message: 'No GPU kernel data found in profile (/tmp/max-profile.nsys-rep)' }], metrics: { decode_tok_s: 100 } },
      hits: [{ severity: 'warning', evidence: { kernels: 0, notice: 'max-no-kernel-data', metrics: 1 }, command: /--cuda-graph-trace=node/ }],
    },
    {
      // `max generate --profile` without nsys on PATH records only the Python/CPU profile.
      name: 'MAX captured a CPU profile only, nsys not found',
      profile: {
        format: 'max-generate',
        notices: [{ code: 'max-no-nsys', severity: 'warning', message: 'Nsight Systems (nsys) not found; only Python/CPU profile will be captured' }],
        metrics: { decode_tok_s: 100 },
      },
      hits: [{ severity: 'warning', evidence: { kernels: 0, notice: 'max-no-nsys', metrics: 1 } }],
    },
    {
      // nsys stats on a capture without CUDA kernels (MinerU fixture): every CUDA report is SKIPPED.
      name: 'nsys skipped the kernel report',
      profile: {
        notices: [{ code: 'nsys-report-skipped', severity: 'warning', message: 'cuda_gpu_kern_sum: /data/MinerU/pipeline_nsys.sqlite does not contain CUDA kernel data.' }],
        util: [3],
      },
      hits: [{ evidence: { notice: 'nsys-report-skipped', kernels: 0 } }],
    },
    {
      name: 'a trace format with no kernels',
      profile: { format: 'kineto-json', apiCalls: [['cudaMalloc', 1, 2]], util: [30] },
      hits: [{ severity: 'warning', evidence: { kernels: 0, source: 'kineto-json', utilizationSamples: 1 } }],
    },
    {
      // The SQLite exports list kernels as the CSV reports do: the importer's declaration says so, not a list here.
      name: 'a per-launch SQLite export with no kernels',
      profile: { format: 'rocpd-sqlite', kernels: [], util: [30] },
      hits: [{ severity: 'warning', message: /rocpd-sqlite\), which normally lists kernels/, evidence: { kernels: 0, source: 'rocpd-sqlite' }, advice: /kernel trace/ }],
    },
    {
      // nsys cuda_gpu_mem_size_sum given alone (the vLLM Qwen2.5-7B fixture): a real capture's memory table.
      name: 'a memory summary alone: no kernel data, not an empty capture',
      profile: { format: 'nsys-stats', memops: [['memcpy-htod', 0, 1200], ['memset', 0, 40]] },
      hits: [{ severity: 'warning', message: /only 2 memory-operation row\(s\)/, evidence: { kernels: 0, memops: 2 }, command: /cuda_gpu_kern_sum/ }],
    },
    {
      // rocprofv3 hip_api_stats.csv given alone: host API times only.
      name: 'an API summary alone names the kernel report of its tool',
      profile: { format: 'rocprof-csv', apiCalls: [['hipLaunchKernel', 3, 120], ['hipMemcpy', 1, 4]] },
      hits: [{ severity: 'warning', message: /only 2 host API call row\(s\)/, evidence: { apiCalls: 2 }, command: /--kernel-trace/ }],
    },
    {
      // The app made CUDA calls but nsys says no kernel ran: that is an empty capture of GPU work.
      name: 'API calls while the tool says no kernel data stay an error',
      profile: {
        format: 'nsys-stats',
        apiCalls: [['cudaMalloc', 1, 2]],
        notices: [{ code: 'nsys-report-skipped', severity: 'warning', message: 'cuda_gpu_kern_sum: x.sqlite does not contain CUDA kernel data.' }],
      },
      hits: [{ severity: 'error', message: /Nothing was captured/, evidence: { kernels: 0 } }],
    },
    {
      name: 'five launches',
      profile: { kernels: [[K.decodeGemm, 0.2, 5]] },
      hits: [{ severity: 'warning', evidence: { kernelLaunches: 5, totalKernelMs: 0.2, kernels: 1 } }],
    },
    {
      name: 'many launches but under the time floor',
      profile: { kernels: [[K.decodeGemm, 0.5, 400]] },
      options: { minTotalKernelMs: 2 },
      hits: [{ evidence: { kernelLaunches: 400, totalKernelMs: 0.5 } }],
    },
  ],
});
