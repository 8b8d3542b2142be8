/**
 * Legacy rocprof (v1) `results.json`: a Chrome trace that rocprof writes beside `results.csv`. It is
 * not a PyTorch trace: its `ph:"X"` events carry no `cat`, `ts`/`dur` are strings in µs, and each
 * kernel event's `args` repeat the per-dispatch row of `results.csv` (`KernelName`, `gpu-id`,
 * `BeginNs`, `EndNs`, `DurationNs`, `grd`, `wgr`). Kernels are read from those args, so times are
 * the exact ns rocprof measured, not the rounded µs of `ts`/`dur`; the timeline is built as for
 * `results.csv`. `otherData` (rocminfo) gives the GPU's marketing name.
 * Limits: events without `KernelName` args (HIP/HSA API and copy rows of `--hip-trace`) are counted
 * and left out; the whole file is parsed at once (rocprof v1 traces stay well under the text limit).
 */
import { InputError } from '../../errors.js';
import type { CaptureInput, Environment } from '../../model/capture.js';
import { defineImporter } from '../common/importer.js';
import { isRecord, parseJsonDocument } from '../common/json-values.js';
import { KernelTraceReader } from '../common/kernel-trace.js';

const V1_HEADER = 'Index,KernelName,gpu-id,BeginNs,EndNs,grd,wgr';

function text(value: unknown): string | undefined {
  if (typeof value === 'string') return value.trim();
  if (typeof value === 'number' && Number.isInteger(value)) return String(value);
  return undefined;
}

/** rocminfo's GPU agents, as rocprof copies them into otherData (`Agent2.MarketingName`, `Agent2.VendorName`). */
function environmentOf(other: unknown): Environment {
  const env: Environment = { vendor: 'amd' };
  if (!isRecord(other)) return env;
  const names: string[] = [];
  let count = 0;
  for (const [key, value] of Object.entries(other)) {
    const agent = /^(Agent\d+)\.MarketingName$/.exec(key)?.[1];
    if (!agent || typeof value !== 'string') continue;
    if (other[`${agent}.VendorName`] !== 'AMD' || other[`${agent}.DeviceType`] === 'CPU') continue;
    count += 1;
    if (!names.includes(value)) names.push(value);
  }
  if (names.length) env.gpuName = names.join(', ');
  if (count) env.gpuCount = count;
  return env;
}

/** True when a Chrome-trace head is rocprof's: per-dispatch ns args on events that have no `cat`. */
export function isRocprofTraceHead(head: string): boolean {
  const text = head.replace(/^\uFEFF/, '').trimStart();
  return text.startsWith('{') && text.includes('"traceEvents"') && /"BeginNs"\s*:\s*"\d+"/.test(text) && /"KernelName"\s*:/.test(text) && !/"cat"\s*:/.test(text);
}

export default defineImporter({
  id: 'rocprof-json',
  label: 'ROCm rocprof (v1) results.json trace',
  capabilities: { kernels: 'expected', timeline: true },
  vendor: 'amd',
  suite: 'rocprof',
  sniff: isRocprofTraceHead,
  async read(file, ctx): Promise<CaptureInput> {
    const doc = parseJsonDocument(file.path, await file.text(), 'a complete rocprof results.json');
    if (!isRecord(doc) || !Array.isArray(doc['traceEvents'])) {
      throw new InputError(file.path, 'expected a rocprof results.json: an object with a "traceEvents" array', 'byte 0');
    }
    const trace = new KernelTraceReader(file.path, V1_HEADER, 1, false, ctx);
    trace.fieldWord = 'field';
    const events = doc['traceEvents'] as unknown[];
    for (let i = 0; i < events.length; i++) {
      const event = events[i];
      if (!isRecord(event) || event['ph'] !== 'X') continue;
      const args = event['args'];
      const name = isRecord(args) ? text(args['KernelName']) : undefined;
      if (!isRecord(args) || !name) {
        ctx.count('non-kernel-event', 'info', 'trace events without KernelName args (API calls, copies) are left out');
        continue;
      }
      const where = `traceEvents[${i}]`;
      const begin = text(args['BeginNs']) ?? '';
      const end = text(args['EndNs']) ?? '';
      const duration = text(args['DurationNs']);
      if (duration !== undefined && /^\d+$/.test(begin) && /^\d+$/.test(end) && /^\d+$/.test(duration) && BigInt(end) - BigInt(begin) !== BigInt(duration)) {
        ctx.count('duration-mismatch', 'info', 'DurationNs differs from EndNs − BeginNs; the timestamps are used');
      }
      const grid = Number(text(args['grd']) ?? NaN);
      const block = Number(text(args['wgr']) ?? NaN);
      const shape = Number.isFinite(grid) && Number.isFinite(block) ? { grid: [grid], block: [block] } : {};
      trace.addDispatch({ name, agent: text(args['gpu-id']) ?? '0', start: begin, end, ...shape }, where);
    }
    const read = trace.finish();
    if (read.kernels.length === 0) {
      throw new InputError(file.path, 'expected kernel events (ph "X" with KernelName, BeginNs and EndNs args) in the rocprof trace, found none', 'byte 0');
    }
    return {
      source: { path: file.path, format: 'rocprof-json', tool: 'rocprof', parts: ['results.json'] },
      kernels: read.kernels,
      ...(read.timeline ? { timeline: read.timeline } : {}),
      ...(read.trace ? { trace: read.trace } : {}),
      environment: environmentOf(doc['otherData']),
    };
  },
});
