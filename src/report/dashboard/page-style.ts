/** The dashboard's stylesheet (dashboard.css): a quiet, dense layout that reads well on a wall screen. */
export const PAGE_STYLE = String.raw`
:root {
  --ink: #1f2328; --muted: #59636e; --faint: #8c959f; --line: #d1d9e0; --panel: #ffffff; --page: #f3f5f7;
  --bad: #b34700; --bad-fill: #d55e00; --good: #00795a; --accent: #0072b2;
  font-family: system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif;
  color: var(--ink); background: var(--page); font-size: 14px; line-height: 1.45;
}
* { box-sizing: border-box; }
body { margin: 0; }
a { color: var(--accent); text-decoration: none; }
a:hover { text-decoration: underline; }
code, .mono { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, "Liberation Mono", monospace; font-size: 12px; }
.page { max-width: 1240px; margin: 0 auto; padding: 20px 24px 40px; }
.top { display: flex; align-items: baseline; justify-content: space-between; gap: 16px; flex-wrap: wrap; margin-bottom: 14px; }
.top h1 { font-size: 20px; margin: 0; font-weight: 650; }
.top .meta { color: var(--muted); font-size: 13px; }
.panel { background: var(--panel); border: 1px solid var(--line); border-radius: 8px; padding: 14px 18px; margin-bottom: 16px; }
.panel h2 { font-size: 15px; margin: 0 0 8px; font-weight: 650; }
.regressions { border-left: 5px solid var(--bad-fill); }
.regressions.clear { border-left-color: #009e73; }
.regressions .none { color: var(--good); font-weight: 600; }
.reg { display: grid; grid-template-columns: 92px minmax(180px, 1.2fr) 2fr; gap: 4px 16px; align-items: baseline; padding: 8px 0; border-top: 1px solid #eef1f4; }
.reg:first-of-type { border-top: 0; }
.reg .drop { color: var(--bad); font-weight: 700; font-size: 18px; font-variant-numeric: tabular-nums; }
.reg .name { font-weight: 600; overflow-wrap: anywhere; }
.reg .what { color: var(--muted); font-variant-numeric: tabular-nums; }
.reg .what b { color: var(--ink); font-weight: 600; }
.chips { display: flex; flex-wrap: wrap; gap: 6px; margin: 0 0 16px; }
.chip { display: inline-flex; align-items: center; gap: 6px; padding: 3px 10px; border: 1px solid var(--line); border-radius: 999px; background: var(--panel); color: var(--ink); font-size: 12.5px; max-width: 100%; overflow-wrap: anywhere; }
.chip .sym { font-weight: 700; }
.verdict-pass .sym { color: var(--good); }
.verdict-warn .sym { color: #9a6700; }
.verdict-fail .sym { color: var(--bad); }
.verdict-accepted .sym { color: #8a3f6b; }
.verdict-insufficient-data .sym, .verdict-invalid .sym { color: var(--muted); }
.card { background: var(--panel); border: 1px solid var(--line); border-radius: 8px; padding: 14px 18px 10px; margin-bottom: 18px; }
.card.has-regression { border-top: 4px solid var(--bad-fill); }
.card-head { display: flex; justify-content: space-between; align-items: flex-start; gap: 18px; flex-wrap: wrap; }
.card-head h2 { font-size: 16px; margin: 0; font-weight: 650; overflow-wrap: anywhere; }
.card-head .sub { color: var(--muted); font-size: 12.5px; overflow-wrap: anywhere; }
.stats { display: flex; gap: 22px; align-items: baseline; flex-wrap: wrap; }
.stat { text-align: right; }
.stat .v { font-size: 20px; font-weight: 650; font-variant-numeric: tabular-nums; }
.stat .u { color: var(--muted); font-size: 12px; margin-left: 3px; }
.stat .l { color: var(--muted); font-size: 11.5px; display: block; }
.badge { display: inline-block; padding: 2px 8px; border-radius: 4px; font-size: 12px; font-weight: 650; }
.badge.bad { background: #fbe9df; color: var(--bad); }
.section-title { font-size: 12px; font-weight: 650; color: var(--muted); text-transform: uppercase; letter-spacing: .04em; margin: 12px 0 2px; }
.reconcile { color: var(--muted); font-size: 13px; margin: 4px 0 8px; }
.section-title .hint { text-transform: none; letter-spacing: 0; font-weight: 400; color: var(--faint); margin-left: 6px; }
svg.chart { display: block; width: 100%; height: auto; overflow: visible; cursor: crosshair; }
svg.chart text { font-family: inherit; font-size: 11px; fill: var(--muted); }
svg.chart .grid { stroke: #e6eaef; stroke-width: 1; }
svg.chart .axis { stroke: #afb8c1; stroke-width: 1; }
svg.chart .band { fill: #0072b2; fill-opacity: .16; stroke: none; }
svg.chart .median { fill: none; stroke: #0072b2; stroke-width: 1.3; stroke-linejoin: round; }
svg.chart .pt { fill: #0072b2; stroke: #fff; stroke-width: .6; }
svg.chart .level { stroke: #1f2328; stroke-width: 1.2; stroke-dasharray: 5 3; fill: none; opacity: .7; }
svg.chart .change { stroke-width: 1.4; stroke-dasharray: 3 3; }
svg.chart text.change-label { font-weight: 650; font-size: 11.5px; }
svg.chart text.change-label.worse { fill: var(--bad); }
svg.chart text.change-label.better { fill: var(--good); }
svg.chart text.direct { fill: var(--ink); font-weight: 600; }
svg.chart .guide { stroke: #1f2328; stroke-width: 1; stroke-opacity: .55; pointer-events: none; }
svg.chart .focus { fill: none; stroke: #1f2328; stroke-width: 1.6; pointer-events: none; }
svg.chart .hit { fill: transparent; }
svg.chart .row-bg { fill: #f6f8fa; }
svg.chart text.row-label { fill: var(--ink); }
.lists { display: grid; grid-template-columns: 1.7fr 1fr; gap: 18px; margin-top: 6px; }
table { border-collapse: collapse; width: 100%; font-size: 12.5px; }
th { text-align: left; color: var(--muted); font-weight: 600; border-bottom: 1px solid var(--line); padding: 4px 8px 4px 0; white-space: nowrap; }
td { border-bottom: 1px solid #eef1f4; padding: 4px 8px 4px 0; vertical-align: top; font-variant-numeric: tabular-nums; }
td.kernel { overflow-wrap: anywhere; word-break: break-word; }
td.num, th.num { text-align: right; }
.up { color: var(--bad); }
.down { color: var(--good); }
.neutral { color: var(--muted); }
.empty { color: var(--faint); font-size: 12.5px; padding: 4px 0; }
details { margin-top: 6px; }
summary { cursor: pointer; color: var(--muted); font-size: 12.5px; }
.detail { border: 1px solid var(--line); border-radius: 6px; padding: 10px 12px; margin-top: 8px; background: #fbfcfd; }
.detail h3 { font-size: 13.5px; margin: 0 0 6px; overflow-wrap: anywhere; }
.detail .links a { margin-right: 12px; }
.detail-grid { display: grid; grid-template-columns: 1fr 1.6fr; gap: 16px; }
.legend { display: flex; flex-wrap: wrap; gap: 4px 14px; color: var(--muted); font-size: 12px; margin: 2px 0 0; }
.legend svg { vertical-align: -2px; margin-right: 4px; }
.tooltip { position: fixed; z-index: 10; pointer-events: none; background: #1f2328; color: #fff; border-radius: 6px; padding: 8px 10px; font-size: 12px; line-height: 1.4; max-width: 380px; box-shadow: 0 4px 14px rgba(0,0,0,.2); overflow-wrap: anywhere; }
.tooltip[hidden] { display: none; }
.tooltip .t-head { font-weight: 650; margin-bottom: 3px; }
.tooltip .t-dim { color: #c9d1d9; }
footer { color: var(--muted); font-size: 12px; margin-top: 20px; }
footer li { overflow-wrap: anywhere; }
.error { color: var(--bad); font-weight: 600; }
@media (max-width: 820px) { .lists, .detail-grid { grid-template-columns: 1fr; } .reg { grid-template-columns: 1fr; } }
`;
