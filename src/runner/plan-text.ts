/** The plan as a person reads it before a long run (and alone with --dry-run). Plain text. */
import { relative } from 'node:path';
import type { Plan } from './plan.js';
import { formatCommand } from './shell-words.js';

export function formatSeconds(seconds: number): string {
  if (seconds < 90) return `${Math.round(seconds)}s`;
  const minutes = Math.floor(seconds / 60);
  const rest = Math.round(seconds % 60);
  return rest ? `${minutes}m${String(rest).padStart(2, '0')}s` : `${minutes}m`;
}

const PROFILER_TEXT: Record<Plan['profiler'], string> = {
  max: 'max generate --profile (MAX runs itself under nsys)',
  nsys: 'Nsight Systems (nsys profile, then nsys stats)',
  rocprofv3: 'rocprofv3 (kernel trace and stats)',
  torch: "the workload's own PyTorch profiler traces (captures)",
  none: 'none: throughput and utilization only',
};

export function renderPlan(plan: Plan): string {
  const show = (path: string) => (path.startsWith(`${plan.cwd}/`) ? relative(plan.cwd, path) : path);
  const { options, detected } = plan;
  const lines: string[] = ['profile-gate run: plan'];
  const engine =
    options.engine === 'max'
      ? `max ${options.mode}${detected.maxVersion ? ` (MAX ${detected.maxVersion})` : ''}, model ${options.model}`
      : `command${options.model ? `, model ${options.model}` : ''}`;
  const gpu = detected.gpus.length
    ? `${detected.gpus.length} x ${detected.gpus[0]}${detected.driver ? `, driver ${detected.driver}` : ''}${detected.cuda ? `, CUDA ${detected.cuda}` : ''}${detected.rocm ? `, ROCm ${detected.rocm}` : ''}`
    : 'none found';
  const tools = [detected.tools.nsys && `nsys ${detected.tools.nsys}`, detected.tools.ncu && `ncu ${detected.tools.ncu}`, detected.tools.rocprofv3 && `rocprofv3 ${detected.tools.rocprofv3}`].filter(Boolean);
  lines.push(`  engine      ${engine}`);
  lines.push(`  GPU         ${gpu}`);
  lines.push(`  tools       ${tools.length ? tools.join('; ') : 'no profiler found'}`);
  // Without a GPU nothing but throughput can be measured: the lines say so, and agree with the problem below.
  const noGpu = detected.gpus.length === 0 && !detected.vendor;
  const profilerText = plan.profiler === 'none' ? (noGpu || !plan.sampling ? 'none: throughput only' : PROFILER_TEXT.none) : PROFILER_TEXT[plan.profiler];
  const asked = options.profiler !== plan.profiler ? ` (asked: ${options.profiler}${noGpu ? '; no GPU found' : ''})` : '';
  lines.push(`  profiler    ${profilerText}${asked}`);
  lines.push(`  sampling    ${plan.sampling ? 'gpu_snapshot.py every 0.5 s during each measured run' : noGpu ? 'not possible: no GPU found' : 'off'}`);
  lines.push(`  runs        ${options.warmupRuns} warm-up, ${options.runs} measured${options.engine === 'max' && options.mode === 'serve' ? ` benchmark windows of ${Math.ceil(options.captureSeconds)} s` : ''}`);
  if (plan.base) {
    const what = plan.base.run ? `\`${plan.base.run}\`` : 'the same workload';
    const order = options.engine === 'max' && options.mode === 'serve' ? 'server blocks base, head, head, base (ABBA), each restarted' : 'measured runs interleaved base/head in ABBA order';
    lines.push(`  A/B         base build: ${what} in ${plan.base.cwd === plan.cwd ? 'this folder' : plan.base.cwd}; ${order}; its report is the baseline`);
    if (plan.extraPairs.length) lines.push(`  adaptive    while a gated metric is undecided, up to ${plan.extraPairs.length} more ABBA pair${plan.extraPairs.length === 1 ? '' : 's'} (max-runs ${options.maxRuns} per side), alpha spent over the looks`);
  }
  lines.push(`  deep dive   ${plan.deepDive.reason}`);
  lines.push(`  time budget ${formatSeconds(plan.budgetSeconds)} in all (timeout-minutes ${options.timeoutMinutes}); each step stops at its own limit`);
  lines.push(`  output      ${show(plan.outDir)}`);
  lines.push('', 'Steps');
  plan.steps.forEach((step, index) => {
    const limit = step.role === 'serve-stop' ? '' : `  (limit ${formatSeconds(step.timeoutSeconds)})`;
    lines.push(`  ${index + 1}. ${step.title}${limit}`);
    if (step.role === 'serve-stop') lines.push(`     SIGTERM to the server's process group, SIGKILL after the grace period`);
    else lines.push(`     ${step.cwd ? `(in ${step.cwd}) ` : ''}$ ${formatCommand(step.argv.map(show))}${step.stdoutFile ? ` > ${show(step.stdoutFile)}` : ''}`);
    if (step.role === 'serve' && plan.serve) lines.push(`     then wait for ${plan.serve.healthUrl} to answer 200`);
    for (const output of step.outputs.filter((o) => o.analysis)) lines.push(`     -> ${show(output.path)} (${output.kind})`);
    if (step.derive) lines.push(`     -> ${show(step.derive.to)} (max-generate, timings removed)`);
    if (step.collect) lines.push(`     -> ${step.collect.globs.join(', ')} copied to ${show(step.collect.into)}`);
    if (step.findOutputs) lines.push(`     -> ${show(step.findOutputs.dir)}/**/*${step.findOutputs.suffix} (${step.findOutputs.kind})`);
  });
  if (plan.deepDive.enabled) {
    lines.push(`  ${plan.steps.length + 1}. Deep dive, if the analysis asks for one  (limit ${formatSeconds(plan.deepDive.timeoutSeconds)})`);
    lines.push(`     $ ${show(plan.deepDive.ncu!)} --log-file ${show(plan.deepDive.csvFile)} --clock-control none --csv --page details … ${formatCommand(plan.deepDive.workload.map(show))}`);
  }
  if (plan.notices.length) {
    lines.push('', 'Notices');
    for (const notice of plan.notices) {
      lines.push(`  ${notice.severity === 'warning' ? '!' : '-'} ${notice.message}`);
      if (notice.fix) lines.push(`    install/fix: ${notice.fix}`);
    }
  }
  if (detected.notes.length) {
    lines.push('', 'Detection');
    for (const note of detected.notes) lines.push(`  - ${note}`);
  }
  if (plan.problems.length) {
    lines.push('', 'Problems (the run cannot start)');
    for (const problem of plan.problems) lines.push(`  x ${problem}`);
  }
  return `${lines.join('\n')}\n`;
}
