/** report.json: validated against the schema before it is written, so a broken report never ships. */
import { ReportSchema, type Report } from '../model/report.js';

export function serializeReport(report: Report): string {
  return `${JSON.stringify(ReportSchema.parse(report), null, 2)}\n`;
}
