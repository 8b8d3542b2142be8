/** The dashboard: reports → its data and its static site (pure; the engine reads and writes files). */
export { buildDashboardData, reportIdentity, workloadName, DEFAULT_DASHBOARD_OPTIONS, type DashboardInput, type DashboardOptions } from './build-data.js';
export type { DashboardData, WorkloadSeries, OpenRegression, SkippedReport } from './data.js';
export { buildSite, renderSite, renderDataScript, renderPageScript, renderIndexHtml, scriptJson, DATA_GLOBAL, type SiteFile } from './site.js';
