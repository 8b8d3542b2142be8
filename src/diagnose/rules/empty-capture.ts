/**
 * Nothing, or almost nothing, was captured: every other finding would be built on air. "Almost
 * nothing" is measured in kernel time, not in launches: five launches holding two seconds are a
 * real capture. An Nsight Compute deep dive holds a few launches by design and is not a breakdown.
 */
import { defineRule, type RuleHit } from '../rule.js';
import { ms, totalLaunches } from '../profile-measures.js';
import { ROCPROF_KERNEL_COMMAND, toolVendor } from '../vendor-tools.js';
import { capabilitiesOf, suiteOf } from '../../ingest/registry.js';
import type { FormatId } from '../../model/capture.js';
import type { NoticeCode } from '../../model/notice-codes.js';

/**
 * Notices that say the kernel data is missing (MAX without nsys or a GPU, nsys's kernel report
 * skipped), by code: an info notice of these codes concerns another report.
 */
const NO_KERNEL_CODES: ReadonlySet<NoticeCode> = new Set<NoticeCode>(['max-no-kernel-data', 'max-no-nsys', 'max-no-nsys-rep', 'max-nsys-failed', 'max-cpu-only', 'max-no-gpu', 'max-no-cudart', 'nsys-report-skipped']);

const NSYS_CAPTURE_COMMAND =
  'nsys profile --trace=cuda,nvtx --cuda-graph-trace=node --sample=none --cpuctxsw=none --capture-range=cudaProfilerApi --capture-range-end=stop -o profile <workload>';

/** What a capture without kernels still holds, in words; undefined when it holds nothing. */
function otherRecords(profile: { memops: readonly unknown[]; apiCalls: readonly unknown[] }): string | undefined {
  const parts = [
    profile.memops.length ? `${profile.memops.length} memory-operation row(s)` : '',
    profile.apiCalls.length ? `${profile.apiCalls.length} host API call row(s)` : '',
  ].filter(Boolean);
  return parts.length ? parts.join(' and ') : undefined;
}

/** The kernel report of the tool that wrote the capture. */
function kernelReportCommand(format: FormatId, capture: string): string {
  const suite = suiteOf(format);
  if (suite === 'rocprof') return 'rocprofv3 --kernel-trace --stats --output-format csv -- <workload>   # writes *_kernel_stats.csv and *_kernel_trace.csv';
  if (suite === 'nsys') return 'nsys stats --report cuda_gpu_kern_sum --format csv profile.nsys-rep';
  return capture;
}

export default defineRule({
  meta: {
    id: 'empty-capture',
    severity: 'warning',
    title: 'Capture is empty or nearly empty',
    stage: 'capture',
    explainsRun: true,
    needs: [],
    description: 'The inputs hold no GPU kernels (or too little kernel time to mean anything), so kernel findings are not possible.',
    defaults: { minTotalKernelMs: 1 },
    units: { minTotalKernelMs: 'ms' },
  },
  check({ profile, options }) {
    const captureCommand = toolVendor(profile) === 'amd' ? ROCPROF_KERNEL_COMMAND : NSYS_CAPTURE_COMMAND;
    const launches = totalLaunches(profile);
    const kernelMs = ms(profile.totalKernelNs);
    const hasOtherData = profile.metrics.length > 0 || profile.utilization !== null || profile.timeline !== null || profile.ncu.length > 0;
    const evidence = {
      kernels: profile.kernels.length,
      kernelLaunches: launches,
      totalKernelMs: kernelMs,
      metrics: profile.metrics.length,
      utilizationSamples: profile.utilization?.sampleCount ?? 0,
    };
    const hits: RuleHit[] = [];
    const held = otherRecords(profile);
    // The tool's own word that no kernel data is there, and graph launches without kernels (a graph-level trace).
    const notice = profile.notices.find((n) => NO_KERNEL_CODES.has(n.code) && n.severity !== 'info');
    const graphLaunches = profile.apiCalls.some((call) => /GraphLaunch/.test(call.name) && call.calls > 0);
    if (profile.kernels.length === 0 && !hasOtherData && held && !notice && !graphLaunches) {
      // A real capture, read to the end, of something other than kernels (a memory or API summary
      // given alone): the data is there, the kernel report is not. Say which report would do.
      const source = profile.sources[0]!;
      hits.push({
        message: `No kernel data in the inputs: they hold only ${held} (${profile.sources.flatMap((s) => s.parts ?? [s.format]).join(', ')}). Kernel findings need the kernel report of the same capture.`,
        evidence: { ...evidence, memops: profile.memops.length, apiCalls: profile.apiCalls.length },
        advice: 'Give the kernel summary or trace of the same capture alongside:',
        command: kernelReportCommand(source.format, captureCommand),
      });
      return hits;
    }
    if (profile.kernels.length === 0 && !hasOtherData) {
      hits.push({
        severity: 'error',
        message: `Nothing was captured: ${profile.sources.length} input(s), no kernels, metrics or utilization samples.`,
        evidence,
        advice:
          toolVendor(profile) === 'amd'
            ? 'Check that the profiler wrapped the workload (everything after `--`). Re-capture:'
            : 'Check that the profiler wrapped the workload and that the capture range opened (cudaProfilerStart after warm-up). Re-capture:',
        command: captureCommand,
      });
      return hits;
    }
    if (profile.kernels.length === 0) {
      // Graph launches without kernels are a graph-level trace: graph-level-trace names the exact cause.
      if (graphLaunches) return hits;
      // A format that exists to list kernels, as its importer declares.
      const kernelSource = profile.sources.find((s) => capabilitiesOf(s.format).kernels === 'expected');
      if (notice || kernelSource) {
        hits.push({
          message: notice
            ? `No GPU kernel data: the tool said "${notice.message}". Only metrics and utilization can be judged.`
            : `No GPU kernel data in ${kernelSource!.path} (${kernelSource!.format}), which normally lists kernels.`,
          evidence: { ...evidence, ...(notice ? { notice: notice.code } : { source: kernelSource!.format }) },
          advice:
            toolVendor(profile) === 'amd'
              ? 'Kernel data needs a kernel trace that covers GPU work. Capture directly:'
              : 'Kernel data needs nsys on PATH (`max generate --profile` re-runs itself under nsys only when nsys, nvidia-smi and libcudart are all found) and a capture range that covers GPU work. Capture directly:',
          command: captureCommand,
        });
      }
      return hits;
    }
    if (profile.kernelOrigin === 'deep-dive') return hits; // a deep dive of chosen kernels, not a capture of the run
    if (profile.totalKernelNs < options.minTotalKernelMs * 1e6) {
      hits.push({
        message: `Almost nothing was captured: ${launches} kernel launch(es), ${kernelMs} ms of kernel time.`,
        evidence,
        advice:
          'The capture window probably missed the workload (range closed early, or only set-up ran). Widen the range around the steady-state steps and re-capture:',
        command: captureCommand,
      });
    }
    return hits;
  },
});
