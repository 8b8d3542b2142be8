/** Mode `analyze`: capture files that an earlier step produced → one report, published. */
import { analyze } from '../../pipeline/analyze.js';
import { gatherCaptures } from '../../io/gather-captures.js';
import { INPUTS } from '../inputs.js';
import { publishReport, type ModeContext } from '../publish.js';
import { gateOptions, resolveBaseline } from '../baseline.js';
import { runInfo } from './run-info.js';
import type { Capture } from '../../model/capture.js';
import { loadFamilies } from '../../io/families-file.js';

export async function analyzeMode(ctx: ModeContext): Promise<void> {
  const { files: captures, fromDirectories, skipped } = await gatherCaptures(ctx.inputs.captures, {
    policy: ctx.inputs.ifNoCaptures,
    option: `input '${INPUTS.ifNoCaptures}'`,
    warn: (line) => ctx.host.warning(line),
    strict: ctx.inputs.strict,
    strictOption: `input '${INPUTS.strict}'`,
  });
  const gate = gateOptions(ctx);
  const { baseline, note } = await resolveBaseline(ctx);
  const budget = ctx.inputs.analyzeTimeoutSeconds;
  let read: readonly Capture[] = [];
  const families = ctx.inputs.families ? await loadFamilies(ctx.inputs.families) : [];
  const report = await analyze({
    onCaptures: (captures) => (read = captures),
    inputs: captures,
    run: runInfo(ctx),
    baseline,
    gate,
    diagnose: { options: ctx.inputs.ruleOptions },
    families,
    allowMixed: ctx.inputs.allowMixed,
    ...(ctx.inputs.strict ? {} : { skippable: fromDirectories }),
    ...(skipped.length ? { skippedInputs: skipped } : {}),
    ...(ctx.inputs.smiColumns ? { ingest: { smiColumns: ctx.inputs.smiColumns } } : {}),
    ...(budget ? { timeoutMs: budget * 1000 } : {}),
  });
  await publishReport(ctx, { report, extraFiles: captures, captures: read, ...(note ? { baselineNote: note } : {}) });
}
