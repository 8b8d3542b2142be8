/**
 * Metric names: a capture holds only the names this version knows (METRIC_CATALOG), while a report,
 * which may come from another version, keeps whatever names it was written with.
 */
import { readFileSync } from 'node:fs';
import { CaptureSchema } from '../../src/model/capture.js';
import { migrateReport } from '../../src/model/migrate.js';
import { METRIC_CATALOG, METRIC_NAMES, isMetricName, metricInfo } from '../../src/model/metrics.js';

const REAL_REPORT = '__tests__/fixtures/h200-run/graph_capture/report.json';

describe('metric names', () => {
  it('the names are the catalog, each once', () => {
    expect([...METRIC_NAMES].sort()).toEqual(Object.keys(METRIC_CATALOG).sort());
    for (const name of METRIC_NAMES) expect(isMetricName(name)).toBe(true);
    expect(isMetricName('decode_tok')).toBe(false);
    expect(isMetricName('constructor')).toBe(false);
  });

  it('a capture with a name outside the catalog is refused', () => {
    const capture = (name: string) => ({ source: { path: 'run.log', format: 'max-generate' }, metrics: [{ name, value: 1 }] });
    expect(CaptureSchema.safeParse(capture('decode_tok_s')).success).toBe(true);
    expect(CaptureSchema.safeParse(capture('my_custom_metric')).success).toBe(false);
  });

  it('a report holding a name this version does not know still reads, and the name is shown as written', () => {
    const data = JSON.parse(readFileSync(REAL_REPORT, 'utf8')) as { metrics: unknown[] };
    // The real report's one metric is decode_tok_s; a metric of another version is added beside it.
    data.metrics.push({ name: 'goodput_req_s', unit: 'req/s', direction: 'higher', samples: [2], value: 2 });
    const report = migrateReport(data, REAL_REPORT);
    expect(report.metrics.map((m) => m.name)).toEqual(['decode_tok_s', 'goodput_req_s']);
    expect(metricInfo('goodput_req_s').label).toBe('goodput_req_s');
  });
});
