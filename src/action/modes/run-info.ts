/** The `run` block of a report made in this job: where and from what it came. */
import type { Report } from '../../model/report.js';
import type { ModeContext } from '../publish.js';

export function runInfo(ctx: ModeContext): Report['run'] {
  const { sha, ref } = ctx.run;
  return {
    ...(ctx.inputs.key ? { workload: ctx.inputs.key } : {}),
    ...(sha ? { commit: sha } : {}),
    ...(ref ? { ref } : {}),
    repository: `${ctx.run.owner}/${ctx.run.repo}`,
    runId: String(ctx.run.runId),
    runUrl: ctx.run.runUrl,
    timestamp: new Date().toISOString(),
  };
}
