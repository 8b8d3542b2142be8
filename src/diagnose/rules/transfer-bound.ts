/**
 * Host↔device copies that take as long as the kernels: the GPU spends its time moving data over
 * PCIe rather than computing. Often set-up (weights, a dataset copied in) captured with the run,
 * or pageable memory and per-step copies in the loop.
 */
import { defineRule } from '../rule.js';
import { percent, round } from '../profile-measures.js';

const HOST_COPY_KINDS = ['memcpy-htod', 'memcpy-dtoh'];
/** Kineto names copies from unpinned memory `(Pageable -> Device)` / `(Device -> Pageable)`. */
const PAGEABLE = /pageable/i;

export default defineRule({
  meta: {
    id: 'transfer-bound',
    severity: 'warning',
    title: 'Transfer-bound: host↔device copies rival the kernels',
    stage: 'utilization',
    explainsRun: true,
    needs: ['kernel-breakdown'],
    description: 'Host-to-device and device-to-host copies take at least the configured multiple of the kernel time; a smaller but notable share is info.',
    defaults: { maxCopyToKernelRatio: 1, minCopyToKernelRatio: 0.25, minCopyMs: 1, minExposedCopyShare: 0.25 },
    units: { maxCopyToKernelRatio: 'ratio', minCopyToKernelRatio: 'ratio', minCopyMs: 'ms', minExposedCopyShare: 'fraction' },
  },
  check({ profile, options }) {
    const copies = profile.memops.filter((m) => HOST_COPY_KINDS.includes(m.kind) && (m.totalNs ?? 0) > 0);
    const copyNs = copies.reduce((sum, m) => sum + (m.totalNs ?? 0), 0);
    if (copyNs < options.minCopyMs * 1e6) return [];
    const kernelNs = profile.totalKernelNs;
    const ratio = kernelNs > 0 ? copyNs / kernelNs : Number.POSITIVE_INFINITY;
    if (ratio < options.minCopyToKernelRatio) return [];
    const htodNs = copies.filter((m) => m.kind === 'memcpy-htod').reduce((sum, m) => sum + (m.totalNs ?? 0), 0);
    const pageableNs = copies.filter((m) => PAGEABLE.test(m.name)).reduce((sum, m) => sum + (m.totalNs ?? 0), 0);
    const count = copies.reduce((sum, m) => sum + m.count, 0);
    const bytes = copies.every((m) => m.bytes !== undefined) ? copies.reduce((sum, m) => sum + m.bytes!, 0) : undefined;
    const timeline = profile.timeline;
    const setUp = timeline?.excludedGaps.some((g) => g.reason === 'set-up') ?? false;
    const evidence = {
      copyMs: round(copyNs / 1e6, 3),
      kernelMs: round(kernelNs / 1e6, 3),
      copyToKernelRatio: Number.isFinite(ratio) ? round(ratio, 3) : -1,
      htodShare: round(htodNs / copyNs),
      pageableShare: round(pageableNs / copyNs),
      copies: count,
      ...(bytes !== undefined ? { copyMB: round(bytes / 1e6, 3) } : {}),
      ...(timeline && timeline.activeSpanNs > 0 ? { copyShareOfActiveSpan: round(copyNs / (timeline.activeSpanNs * Math.max(1, timeline.devices))) } : {}),
      setUpGap: setUp,
      ...(timeline?.transfers && timeline.transfers.copyNs > 0 ? { exposedCopyShare: round(timeline.transfers.exposedNs / timeline.transfers.copyNs) } : {}),
    };
    // A per-launch trace shows whether kernels ran meanwhile: copies hidden behind compute cost little.
    const hidden = timeline?.transfers && timeline.transfers.copyNs > 0 && timeline.transfers.exposedNs / timeline.transfers.copyNs < options.minExposedCopyShare;
    const advice = [
      setUp ? 'The capture holds a set-up phase (an idle gap before the work): if these copies load weights or data once, start the profiler after set-up (torch.profiler schedule with wait/warmup) so they are not mistaken for the loop.' : '',
      pageableNs > 0 ? `${percent(pageableNs / copyNs)} of the copy time is from pageable memory: pin it (DataLoader(pin_memory=True), tensor.pin_memory()) and copy with non_blocking=True so copies overlap compute.` : '',
      'Keep tensors on the device across steps, batch many small copies into one, move preprocessing to the GPU, and overlap the remaining copies with compute on a side stream.',
    ]
      .filter(Boolean)
      .join(' ');
    const what = `host↔device copies took ${round(copyNs / 1e6, 1)} ms against ${round(kernelNs / 1e6, 1)} ms of kernels`;
    if (hidden) {
      return [{ severity: 'info', message: `Copies: ${what}, but kernels ran during ${percent(1 - timeline!.transfers!.exposedNs / timeline!.transfers!.copyNs)} of it: the copies are mostly hidden behind compute.`, evidence, advice }];
    }
    if (ratio < options.maxCopyToKernelRatio) {
      return [{ severity: 'info', message: `Copies: ${what} (${percent(ratio)} of kernel time).`, evidence, advice }];
    }
    return [{ message: `Transfer-bound: ${what}${Number.isFinite(ratio) ? ` (${round(ratio, 1)}×)` : ''}; the GPU moves data more than it computes.`, evidence, advice }];
  },
});
