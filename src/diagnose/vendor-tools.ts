/**
 * The tools a finding's commands name, by the vendor of the GPU the capture came from: ROCm's
 * (rocprofv3 for timelines, rocprof-compute for one kernel, rocm-smi for clocks and power) for an
 * AMD capture, Nsight Systems / Nsight Compute / nvidia-smi otherwise. The capture says which: the
 * vendor its format's importer declares (rocprof, rocpd, rocm-smi, amd-smi are AMD's) or what the
 * importer read in it (a Kineto trace's warp size of 64 or its hip* runtime calls give
 * `environment.vendor: 'amd'`).
 */
import type { Profile } from '../model/profile.js';
import { kernelKey } from '../classify/kernel-name.js';
import { vendorOf } from '../ingest/registry.js';
import type { ToolVendor } from '../ingest/common/importer.js';

export function toolVendor(profile: Pick<Profile, 'environment' | 'sources'>): ToolVendor {
  if (profile.environment.vendor) return profile.environment.vendor;
  return profile.sources.some((source) => vendorOf(source.format) === 'amd') ? 'amd' : 'nvidia';
}

/** A word as a POSIX shell reads it back: bare when safe, else single-quoted. */
function shellWord(word: string): string {
  return /^[A-Za-z0-9_@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

/** Template bases that name no kernel by themselves (ck_tile's `kentry<…, FmhaFwdKernel<…>>`). */
const GENERIC_BASES = new Set(['kentry', 'kernel', 'Kernel', 'Kernel2', 'device_kernel']);

/**
 * A word of the kernel's name that rocprof-compute's kernel filter (`-k`, a substring of the name)
 * finds it by: its function name, or for a generic wrapper the type it wraps.
 */
export function rocprofComputeKernelFilter(kernelName: string): string {
  const key = kernelKey(kernelName);
  const templated = /^([A-Za-z_]\w*)<([A-Za-z_]\w*)>$/.exec(key);
  if (templated) return GENERIC_BASES.has(templated[1]!) ? templated[2]! : templated[1]!;
  return key;
}

/** One kernel under ROCm Compute Profiler (Omniperf): speed of light, occupancy, memory and roofline. */
export function rocprofComputeCommand(kernelName: string, workload: string): string {
  return `rocprof-compute profile -n deep-dive -k ${shellWord(rocprofComputeKernelFilter(kernelName))} -- ${workload} && rocprof-compute analyze -p workloads/deep-dive/*`;
}

/** A timeline of kernels and HIP runtime calls (the host gaps between launches), with per-kernel stats. */
export const ROCPROF_TIMELINE_COMMAND = 'rocprofv3 --runtime-trace --stats --output-format csv pftrace -d host-gaps -- <workload>';

/** Per-kernel times and a kernel trace, the breakdown profile-gate reads. */
export const ROCPROF_KERNEL_COMMAND = 'rocprofv3 --kernel-trace --stats --output-format csv -d profile -- <workload>';

/** Clocks, power, temperature and use of every GPU, once a second. */
export const ROCM_SMI_CLOCKS_COMMAND = 'watch -n 1 rocm-smi --showuse --showpower --showtemp --showclocks --showperflevel';
