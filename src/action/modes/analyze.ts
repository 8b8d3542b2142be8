/** Mode `analyze`: capture files that an earlier step produced → one report, published. */
import { analyze } from '../../engine/analyze.js';
import { expandInputs } from '../../engine/files.js';
import { publishReport, type ModeContext } from '../publish.js';
import { gateOptions, resolveBaseline } from '../baseline.js';
import { runInfo } from './run-info.js';

export async function analyzeMode(ctx: ModeContext): Promise<void> {
  const captures = await expandInputs(ctx.inputs.captures);
  const gate = gateOptions(ctx);
  const { baseline, note } = await resolveBaseline(ctx);
  const budget = ctx.inputs.analyzeTimeoutSeconds;
  const report = await analyze({ inputs: captures, failOn: ctx.inputs.failOn, run: runInfo(ctx), baseline, gate, ...(budget ? { timeoutMs: budget * 1000 } : {}) });
  await publishReport(ctx, { report, extraFiles: captures, ...(note ? { baselineNote: note } : {}) });
}
