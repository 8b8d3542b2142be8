/**
 * Which profiler a run uses on this box (what `profiler: auto` means, and the fallback with its
 * install line when a tool is missing), and the exact profiler command lines.
 */
import { maxHasProfileFlag, type DetectedEnvironment } from './detect.js';
import { INSTALL } from './install-lines.js';
import type { RunOptions } from './run-options.js';
import type { PlanNotice, ResolvedProfiler } from './plan-types.js';

export function resolveProfiler(options: RunOptions, detected: DetectedEnvironment, notices: PlanNotice[]): ResolvedProfiler {
  const { nsys, rocprofv3 } = detected.tools;
  const nvidia = detected.vendor === 'nvidia';
  const amd = detected.vendor === 'amd';
  const requested = options.profiler;
  const missing = (tool: 'nsys' | 'rocprofv3', fallback: string): ResolvedProfiler => {
    notices.push({ severity: 'warning', message: `${tool} not found: ${fallback}`, fix: INSTALL[tool] });
    return 'none';
  };
  const noGpu = (): ResolvedProfiler => {
    if (requested !== 'auto' && requested !== 'none') notices.push({ severity: 'warning', message: `profiler ${requested}: no GPU found, so no kernel profile; the run measures throughput only` });
    return 'none';
  };

  if (options.engine === 'command') {
    if (requested === 'torch' || (requested === 'auto' && options.captures.length > 0)) return 'torch';
    if (requested === 'none') return 'none';
    if (!detected.vendor) return noGpu();
    if (requested === 'rocprofv3' || (requested === 'auto' && amd)) {
      if (!amd) return noGpu();
      return rocprofv3 ? 'rocprofv3' : missing('rocprofv3', 'no kernel profile; utilization and throughput only');
    }
    if (!nvidia) return noGpu();
    return nsys ? 'nsys' : missing('nsys', 'no kernel profile; utilization and throughput only');
  }

  if (options.mode === 'serve') {
    if (requested === 'auto') {
      notices.push({ severity: 'info', message: 'serve mode records benchmark metrics and GPU utilization; set profiler: nsys to also run the server under nsys launch and trace one benchmark window' });
      return 'none';
    }
    if (requested === 'none') return 'none';
    if (requested === 'rocprofv3') {
      notices.push({ severity: 'warning', message: 'profiler rocprofv3 is not supported with max serve; the run measures throughput only' });
      return 'none';
    }
    if (!nvidia) return noGpu();
    return nsys ? 'nsys' : missing('nsys', 'the server runs without a kernel trace; benchmark metrics and utilization only');
  }

  if (requested === 'none') return 'none';
  if (!detected.vendor) return noGpu();
  if (amd) {
    if (requested !== 'auto' && requested !== 'rocprofv3') notices.push({ severity: 'warning', message: `profiler ${requested} needs an NVIDIA GPU; this box has an AMD GPU, using rocprofv3` });
    return rocprofv3 ? 'rocprofv3' : missing('rocprofv3', 'no kernel profile; utilization and throughput only');
  }
  if (requested === 'rocprofv3') return noGpu();
  if (!nsys) return missing('nsys', `no kernel profile${requested === 'max' || requested === 'auto' ? ' (max generate --profile needs nsys on PATH)' : ''}; utilization and throughput only`);
  if (requested === 'nsys') return 'nsys';
  if (maxHasProfileFlag(detected.maxVersion)) return 'max';
  notices.push({
    severity: requested === 'max' ? 'warning' : 'info',
    message: `MAX ${detected.maxVersion ?? '(version unknown)'} has no max generate --profile (added in 26.4): nsys records the whole profiled run, model load and warm-up included`,
  });
  return 'nsys';
}

/** nsys records between the workload's cudaProfilerStart and cudaProfilerStop (torch.cuda.profiler.start()/stop()). */
export const NSYS_CAPTURE_RANGE_ARGS = ['--capture-range=cudaProfilerApi', '--capture-range-end=stop'] as const;

export function nsysProfileArgs(nsys: string, output: string, captureRange: boolean): string[] {
  return [
    nsys,
    'profile',
    '--trace=cuda,nvtx',
    ...(captureRange ? NSYS_CAPTURE_RANGE_ARGS : []),
    '--cuda-graph-trace=node',
    '--sample=none',
    '--cpuctxsw=none',
    '--force-overwrite=true',
    '--output',
    output,
  ];
}

export function nsysStatsArgs(nsys: string, rep: string): string[] {
  return [nsys, 'stats', '--force-export=true', '--report', 'cuda_gpu_kern_sum,cuda_api_sum', '--format', 'csv', rep];
}

/**
 * Every chunk's in-use share (threshold 100 lists them all), so the rows cover the whole capture
 * range. `--force-export=true`: the SQLite export `nsys stats` just wrote can read as older than
 * the report (seen on an H100 host, 2026-12-06), and nsys analyze then refuses it without this.
 */
export function nsysGpuUtilArgs(nsys: string, rep: string): string[] {
  return [nsys, 'analyze', '--force-export=true', '--rule', 'gpu_time_util:threshold=100', '--format', 'csv', rep];
}

export function rocprofArgs(rocprofv3: string, dir: string): string[] {
  return [rocprofv3, '--kernel-trace', '--stats', '--output-format', 'csv', '-d', dir, '-o', 'profile', '--'];
}
