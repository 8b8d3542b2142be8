/**
 * profile.json: the normalized profile a report was made from (kernels, families, steps and the
 * timeline, utilization, metrics, copies), for a reviewer or a script, without the verdict. Each
 * source is named by its format and tool only: paths stay in report.json.
 */
import type { Report } from '../model/report.js';

export const PROFILE_FILE = 'profile.json';

export interface TraceFileEntry {
  /** The trace's path in the artifact, beside profile.json. */
  file: string;
  format: string;
  /** The capture's file name, redacted. */
  capture: string;
  events: number;
}

export function renderProfileJson(report: Report, traces: readonly TraceFileEntry[]): string {
  const profile = {
    schema: 'profile-gate/profile',
    tool: report.tool,
    environment: report.environment,
    sources: report.sources.map((s) => ({ format: s.format, ...(s.tool ? { tool: s.tool } : {}), ...(s.toolVersion ? { toolVersion: s.toolVersion } : {}) })),
    totalKernelNs: report.totalKernelNs,
    kernels: report.kernels,
    families: report.families,
    timeline: report.timeline,
    stepCount: report.stepCount,
    utilization: report.utilization,
    metrics: report.metrics,
    memops: report.memops,
    traces,
  };
  return `${JSON.stringify(profile, null, 2)}\n`;
}
