/**
 * The dashboard as files: index.html, data.js (the data assigned to a global, so the page works
 * from file:// and from GitHub Pages without fetching anything), dashboard.js and dashboard.css.
 * No external library, no CDN; a Content-Security-Policy allows only these files.
 */
import { escapeHtml } from '../escape.js';
import { buildDashboardData, type DashboardInput, type DashboardOptions } from './build-data.js';
import type { DashboardData, SkippedReport } from './data.js';
import { PAGE_APP } from './page-app.js';
import { PAGE_CHARTS } from './page-charts.js';
import { PAGE_STYLE } from './page-style.js';

export const DATA_GLOBAL = 'PROFILE_GATE_DASHBOARD';

export interface SiteFile {
  path: string;
  content: string;
}

/**
 * JSON as a JavaScript expression that is safe in any context: `<`, `>`, `&` and the two line
 * separators are escaped, so not even a `</script>` inside report text could end a script element.
 */
export function scriptJson(value: unknown): string {
  return JSON.stringify(value).replace(/[<>&\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

export function renderDataScript(data: DashboardData): string {
  return `window.${DATA_GLOBAL} = ${scriptJson(data)};\n`;
}

export function renderPageScript(): string {
  return `/* profile-gate dashboard: draws window.${DATA_GLOBAL} (data.js). */\n(function () {\n'use strict';\nvar DATA = window.${DATA_GLOBAL};\n${PAGE_CHARTS}\n${PAGE_APP}\n})();\n`;
}

export function renderIndexHtml(title: string): string {
  const safeTitle = escapeHtml(title);
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; script-src 'self'; style-src 'self'; img-src data:; base-uri 'none'; form-action 'none'">
<meta name="referrer" content="no-referrer">
<title>${safeTitle}</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="dashboard.css">
</head>
<body>
<main class="page" id="app"></main>
<noscript><p class="page">This dashboard is drawn by JavaScript (dashboard.js); enable it to see the charts.</p></noscript>
<script src="data.js"></script>
<script src="dashboard.js"></script>
</body>
</html>
`;
}

export function renderSite(data: DashboardData): SiteFile[] {
  return [
    { path: 'index.html', content: renderIndexHtml(data.title) },
    { path: 'data.js', content: renderDataScript(data) },
    { path: 'dashboard.js', content: renderPageScript() },
    { path: 'dashboard.css', content: PAGE_STYLE.trimStart() },
  ];
}

/** Reports in, site files out: the whole pure half of `profile-gate dashboard`. */
export function buildSite(inputs: readonly DashboardInput[], skipped: readonly SkippedReport[] = [], options: Partial<DashboardOptions> = {}): { data: DashboardData; files: SiteFile[] } {
  const data = buildDashboardData(inputs, skipped, options);
  return { data, files: renderSite(data) };
}
