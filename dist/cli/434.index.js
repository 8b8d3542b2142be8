export const id = 434;
export const ids = [434];
export const modules = {

/***/ 6434:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

// ESM COMPAT FLAG
__webpack_require__.r(__webpack_exports__);

// EXPORTS
__webpack_require__.d(__webpack_exports__, {
  DASHBOARD_HELP: () => (/* binding */ DASHBOARD_HELP),
  runDashboardCommand: () => (/* binding */ runDashboardCommand)
});

// EXTERNAL MODULE: external "node:util"
var external_node_util_ = __webpack_require__(7975);
// EXTERNAL MODULE: external "node:fs/promises"
var promises_ = __webpack_require__(1455);
// EXTERNAL MODULE: external "node:crypto"
var external_node_crypto_ = __webpack_require__(7598);
// EXTERNAL MODULE: external "node:path"
var external_node_path_ = __webpack_require__(6760);
// EXTERNAL MODULE: ./src/errors.ts
var errors = __webpack_require__(3916);
// EXTERNAL MODULE: ./src/report/dashboard/build-data.ts + 3 modules
var build_data = __webpack_require__(5263);
// EXTERNAL MODULE: ./src/report/escape.ts
var report_escape = __webpack_require__(4031);
// EXTERNAL MODULE: ./src/report/number-format.ts
var number_format = __webpack_require__(1329);
;// CONCATENATED MODULE: ./src/report/dashboard/page-app.ts
/**
 * The page script's second half (browser JavaScript, kept as text): the layout (open regressions on
 * top, one card per workload), the shared hover tooltip, the pinned run details with commit and run
 * links, and the tables. Marks `data-ready` on <html> with the milliseconds since navigation.
 */

const PAGE_APP = String.raw `
var tooltip = null;

function tip(lines, evt) {
  if (!tooltip) {
    tooltip = h('div', { class: 'tooltip', role: 'status' });
    add(document.body, tooltip);
  }
  while (tooltip.firstChild) tooltip.removeChild(tooltip.firstChild);
  lines.forEach(function (line, k) { add(tooltip, h('div', { class: k === 0 ? 't-head' : line.dim ? 't-dim' : null }, line.text)); });
  tooltip.hidden = false;
  var box = tooltip.getBoundingClientRect();
  var left = evt.clientX + 14, top = evt.clientY + 14;
  if (left + box.width > window.innerWidth - 8) left = evt.clientX - box.width - 14;
  if (top + box.height > window.innerHeight - 8) top = evt.clientY - box.height - 14;
  tooltip.style.left = Math.max(4, left) + 'px';
  tooltip.style.top = Math.max(4, top) + 'px';
}
function untip() { if (tooltip) tooltip.hidden = true; }

function familyLine(w, i, count) {
  var row = w.points.shares[i];
  return w.families.map(function (name, f) { return { name: name, v: row[f] || 0 }; })
    .sort(function (a, b) { return b.v - a.v; }).slice(0, count)
    .map(function (x) { return x.name + ' ' + share(x.v); }).join(', ');
}
function metricLine(w, i) {
  var p = w.points, v = p.value[i];
  if (v === null) return 'no ' + DATA.metric.name;
  var digits = metricDigits(v), text = num(v, digits) + ' ' + DATA.metric.unit;
  if (p.low[i] !== null) text += ' (${number_format/* CI_PERCENT */.XO}% CI ' + num(p.low[i], digits) + '\u2013' + num(p.high[i], digits) + ')';
  return text + ', n=' + p.n[i];
}
function pointLines(w, i) {
  var p = w.points, lines = [{ text: stamp(p.t[i]) + ' \u00B7 ' + short(p.commit[i]) }];
  lines.push({ text: DATA.metric.label + ': ' + metricLine(w, i) });
  lines.push({ text: 'verdict: ' + verdictText(p, i) });
  if (p.decided && p.decided[i].length) lines.push({ text: 'decided by: ' + p.decided[i].map(function (c) { return cut(c, 60); }).join(', ') });
  if (w.families.length) lines.push({ text: 'families: ' + familyLine(w, i, 3) });
  if (p.stepNs && p.stepNs[i]) lines.push({ text: 'GPU time per step: ' + stepTime(stepTotal(p.stepNs[i])) + ' (' + p.steps[i] + ' steps, ' + p.stepBasis[i] + ')' });
  if (p.top[i].length) lines.push({ text: 'top kernel: ' + cut(w.kernels[p.top[i][0]], 90) + ' ' + share(p.top[i][1]) });
  var found = p.findings[i].map(function (f) { return w.findings[f].id; });
  lines.push({ text: 'findings: ' + (found.length ? found.join(', ') : 'none') });
  lines.push({ text: 'click for details and links', dim: true });
  return lines;
}

function details(w, i, panel) {
  var p = w.points;
  while (panel.firstChild) panel.removeChild(panel.firstChild);
  panel.hidden = false;
  add(panel, h('h3', null, 'Run of ' + stamp(p.t[i]) + ' \u00B7 ' + verdictText(p, i)));
  var links = h('div', { class: 'links' });
  [['commit ' + short(p.commit[i]), commitHref(w, i)], ['changes since the previous run', compareHref(w, i)], ['workflow run', httpsOnly(p.run[i])]].forEach(function (pair) {
    if (pair[1]) add(links, link(pair[0], pair[1]));
  });
  if (!links.firstChild) add(links, h('span', { class: 'empty' }, 'no commit or run links in this report'));
  var grid = h('div', { class: 'detail-grid' });
  var left = add(h('div'), h('div', null, DATA.metric.label + ': ' + metricLine(w, i)));
  var perStep = p.stepNs ? p.stepNs[i] : null;
  var fam = add(h('table'), add(h('tr'), h('th', null, 'family'), h('th', { class: 'num' }, 'share'), perStep ? h('th', { class: 'num' }, 'per step') : null));
  w.families.forEach(function (name, f) { add(fam, add(h('tr'), h('td', null, name), h('td', { class: 'num' }, share(p.shares[i][f] || 0)), perStep ? h('td', { class: 'num' }, stepTime(perStep[f] || 0)) : null)); });
  add(left, fam);
  var found = p.findings[i];
  add(left, h('div', { class: 'section-title' }, 'findings'));
  if (!found.length) add(left, h('div', { class: 'empty' }, 'none'));
  found.forEach(function (f) { add(left, h('div', null, w.findings[f].id + ' (' + SEVERITIES[w.findings[f].severity] + '): ' + w.findings[f].title)); });
  var right = add(h('div'), h('div', { class: 'section-title' }, 'top kernels'));
  var table = add(h('table'), add(h('tr'), h('th', null, 'kernel'), h('th', null, 'family'), h('th', { class: 'num' }, 'share')));
  for (var k = 0; k < p.top[i].length; k += 2) {
    add(table, add(h('tr'), h('td', { class: 'kernel mono' }, w.kernels[p.top[i][k]]), h('td', null, w.kernelFamily[p.top[i][k]] || ''), h('td', { class: 'num' }, share(p.top[i][k + 1]))));
  }
  add(right, table);
  add(panel, links, add(grid, left, right));
}

function kernelTable(w) {
  var box = h('div');
  add(box, add(h('div', { class: 'section-title' }, 'Top-kernel changes'), h('span', { class: 'hint' }, 'entering or leaving the top ' + DATA.topN + ', moves of 2 pts or more between consecutive runs')));
  if (!w.kernelEvents.length) return add(box, h('div', { class: 'empty' }, 'No changes in the top kernels.'));
  function rows(events) {
    var table = add(h('table'), add(h('tr'), h('th', null, 'run'), h('th', null, 'kernel'), h('th', null, 'change'), h('th', { class: 'num' }, 'share')));
    events.forEach(function (e) {
      var kind = e.kind === 'entered' ? 'entered top ' + DATA.topN : e.kind === 'left' ? 'left top ' + DATA.topN : (e.kind === 'up' ? '\u25B2 ' : '\u25BC ') + points(e.after - e.before);
      // A share moving is not good or bad by itself: no colour, the symbol and the numbers say it.
      var cls = 'neutral';
      add(table, add(h('tr', { 'data-kernel-event': e.kind }),
        add(h('td', { class: 'mono' }), link(short(w.points.commit[e.index]), compareHref(w, e.index) || commitHref(w, e.index)), ' ' + day(w.points.t[e.index])),
        h('td', { class: 'kernel mono' }, w.kernels[e.kernel]),
        h('td', { class: cls }, kind),
        h('td', { class: 'num' }, share(e.before) + ' \u2192 ' + share(e.after))));
    });
    return table;
  }
  add(box, rows(w.kernelEvents.slice(0, 8)));
  if (w.kernelEvents.length > 8) add(box, add(h('details'), h('summary', null, 'all ' + w.kernelEvents.length + ' changes'), rows(w.kernelEvents.slice(8))));
  return box;
}

/* A shift that began at an accepted run was intended: who accepted it. */
function acceptedNote(p, i) { return p.accepted && p.accepted[i] ? 'accepted by @' + p.accepted[i] : ''; }

function shiftList(w) {
  var box = add(h('div'), h('div', { class: 'section-title' }, 'Shifts found'));
  var list = h('table');
  var items = w.changes.map(function (c) { return { c: c, what: DATA.metric.name, text: (c.after > c.before ? '\u25B2 ' : '\u25BC ') + percent(c.relative), worse: isWorse(c) }; })
    .concat(w.familyChanges.map(function (c) { return { c: c, what: w.families[c.family] + ' share', text: (c.after > c.before ? '\u25B2 ' : '\u25BC ') + points((c.after - c.before) * SCALE), worse: null }; }))
    .sort(function (a, b) { return b.c.index - a.c.index; });
  if (!items.length) return add(box, h('div', { class: 'empty' }, 'No level shifts in this history.'));
  items.forEach(function (item) {
    add(list, add(h('tr', { 'data-shift': item.c.index }),
      h('td', { class: item.worse === null ? 'neutral' : item.worse ? 'up' : 'down' }, item.text),
      h('td', null, item.what),
      add(h('td', { class: 'mono' }), link(short(w.points.commit[item.c.index]), compareHref(w, item.c.index) || commitHref(w, item.c.index)), ' ' + day(w.points.t[item.c.index])),
      h('td', null, acceptedNote(w.points, item.c.index))));
  });
  return add(box, list);
}

function latestTable(w) {
  var p = w.points, n = p.t.length;
  var table = add(h('table'), add(h('tr'), h('th', null, 'run'), h('th', null, 'commit'), h('th', { class: 'num' }, DATA.metric.unit), h('th', { class: 'num' }, '${number_format/* CI_PERCENT */.XO}% CI'), h('th', { class: 'num' }, 'n'), h('th', null, 'verdict'), h('th', null, 'findings')));
  for (var i = n - 1; i >= Math.max(0, n - 20); i--) {
    var v = p.value[i], digits = v === null ? 1 : metricDigits(v);
    add(table, add(h('tr'), add(h('td'), link(stamp(p.t[i]), p.run[i])), add(h('td', { class: 'mono' }), link(short(p.commit[i]), commitHref(w, i))),
      h('td', { class: 'num' }, num(v, digits)), h('td', { class: 'num' }, p.low[i] === null ? '\u2013' : num(p.low[i], digits) + '\u2013' + num(p.high[i], digits)),
      h('td', { class: 'num' }, p.n[i]), h('td', null, verdictText(p, i)),
      h('td', null, p.findings[i].map(function (f) { return w.findings[f].id; }).join(', '))));
  }
  return add(h('details'), h('summary', null, 'Latest runs as a table'), table);
}

function legend(id) {
  var box = h('div', { class: 'legend' });
  VERDICTS.forEach(function (verdict, v) {
    var icon = add(s('svg', { width: 14, height: 10 }), s('rect', { width: 14, height: 10, fill: VERDICT_FILL[v] }));
    if (v === 1) add(icon, s('rect', { width: 14, height: 10, fill: 'url(#' + id + '-hatch)' }));
    if (v === 2) add(icon, s('rect', { width: 14, height: 10, fill: 'url(#' + id + '-cross)' }));
    add(box, add(h('span'), icon, verdict));
  });
  SEVERITIES.forEach(function (sev, k) {
    var icon = add(s('svg', { width: 14, height: 10 }), s('rect', { x: 0.5, y: 0.5, width: 13, height: 9, fill: k === 0 ? '#ffffff' : SEVERITY_FILL[k], stroke: k === 0 ? SEVERITY_FILL[0] : 'none' }));
    if (k === 1) add(icon, s('rect', { width: 14, height: 10, fill: 'url(#' + id + '-hatch)' }));
    add(box, add(h('span'), icon, 'finding: ' + sev));
  });
  return box;
}

function card(w, index, regressions) {
  var p = w.points, n = p.t.length, id = 'w' + index;
  var article = h('article', { class: 'card' + (regressions.length ? ' has-regression' : ''), id: id, 'data-workload-index': index, 'data-points': n });
  var head = h('div', { class: 'card-head' });
  var title = add(h('div'), h('h2', null, w.name));
  var sub = [w.model, w.gpu].filter(function (x) { return x && w.name.indexOf(x) < 0; }).join(' \u00B7 ');
  add(title, h('div', { class: 'sub' }, (sub ? sub + ' \u00B7 ' : '') + plural(n, 'run', 'runs') + ', ' + day(p.t[0]) + ' to ' + day(p.t[n - 1])));
  var stats = h('div', { class: 'stats' });
  if (regressions.length) add(stats, h('span', { class: 'badge bad' }, '\u25BC open regression ' + percent(regressions[0].latestRelative)));
  var last = -1;
  for (var i = n - 1; i >= 0 && last < 0; i--) if (p.value[i] !== null) last = i;
  if (last >= 0) {
    var digits = metricDigits(p.value[last]);
    add(stats, add(h('div', { class: 'stat' }), h('span', { class: 'l' }, 'latest ' + DATA.metric.label.toLowerCase()), h('span', { class: 'v' }, num(p.value[last], digits)), h('span', { class: 'u' }, DATA.metric.unit)));
    if (p.low[last] !== null) add(stats, add(h('div', { class: 'stat' }), h('span', { class: 'l' }, '${number_format/* CI_PERCENT */.XO}% CI of the median'), h('span', { class: 'u' }, num(p.low[last], digits) + '\u2013' + num(p.high[last], digits))));
  }
  var verdict = p.verdict[n - 1];
  add(stats, add(h('div', { class: 'stat verdict-' + VERDICTS[verdict] }), h('span', { class: 'l' }, 'latest verdict'), add(h('span', { class: 'v' }), h('span', { class: 'sym' }, VERDICT_SYMBOL[verdict] + ' '), VERDICTS[verdict])));
  add(article, add(head, title, stats));
  // A run that passed its own gate can still sit on a lower level than before a change point: say which is which.
  if (regressions.length && (VERDICTS[verdict] === 'pass' || VERDICTS[verdict] === 'warn' || VERDICTS[verdict] === 'accepted')) {
    var began = regressions[0].index;
    add(article, h('div', { class: 'reconcile', 'data-reconcile': 'verdict' }, 'The latest run\u2019s verdict (' + VERDICTS[verdict] + ') is its own gate against its baseline; the open regression is the level since ' + day(p.t[began]) + ' (' + short(p.commit[began]) + ') against the level before it, which no run has recovered.'));
  }

  var metric = metricChart(w, id), families = familyChart(w, id), steps = stepChart(w, id), timeline = timelineChart(w, id);
  // A workload that never reported the metric gets no empty panel for it.
  var measured = p.value.some(function (v) { return v !== null; });
  if (measured) add(article, add(h('div', { class: 'section-title' }, DATA.metric.label), h('span', { class: 'hint' }, 'median per run, band: ${number_format/* CI_PERCENT */.XO}% CI of the median, dashed: levels between change points')), metric.node);
  add(article,
    add(h('div', { class: 'section-title' }, 'Kernel time by family'), h('span', { class: 'hint' }, 'share of GPU kernel time; \u25BC marks a family-share shift')), families.node);
  if (steps) add(article, add(h('div', { class: 'section-title' }, 'GPU time per decode step'), h('span', { class: 'hint' }, 'by family, per device; no bar: the capture does not count its steps')), steps.node);
  add(article,
    add(h('div', { class: 'section-title' }, 'Verdicts and findings'), h('span', { class: 'hint' }, 'bars span consecutive runs')), timeline.node, legend(id));
  var panel = put(article, h('div', { class: 'detail', hidden: 'hidden' }));
  add(article, add(h('div', { class: 'lists' }), kernelTable(w), shiftList(w)), latestTable(w));

  var charts = [measured ? metric : null, families, steps, timeline].filter(Boolean);
  function indexAt(evt, node) {
    var box = node.getBoundingClientRect(), vx = (evt.clientX - box.left) * W / box.width;
    var at = n > 1 ? Math.round((vx - ML) / (PW / (n - 1))) : 0;
    return Math.max(0, Math.min(n - 1, at));
  }
  function show(at, evt) {
    var x = slotX(n)(at);
    charts.forEach(function (c) { attrs(c.guide, { x1: x, x2: x, visibility: 'visible' }); });
    if (metric.focus && p.value[at] !== null) attrs(metric.focus, { cx: x, cy: metric.y(p.value[at]), visibility: 'visible' });
    else if (metric.focus) attrs(metric.focus, { visibility: 'hidden' });
    tip(pointLines(w, at), evt);
  }
  function hide() {
    charts.forEach(function (c) { attrs(c.guide, { visibility: 'hidden' }); });
    if (metric.focus) attrs(metric.focus, { visibility: 'hidden' });
    untip();
  }
  charts.forEach(function (c) {
    c.node.addEventListener('mousemove', function (evt) { show(indexAt(evt, c.node), evt); });
    c.node.addEventListener('mouseleave', hide);
    c.node.addEventListener('click', function (evt) { details(w, indexAt(evt, c.node), panel); });
  });
  return article;
}

function regressionPanel() {
  var panel = h('section', { class: 'panel regressions' + (DATA.regressions.length ? '' : ' clear'), id: 'open-regressions' });
  add(panel, h('h2', null, DATA.regressions.length ? 'Open regressions (' + DATA.regressions.length + ')' : 'Open regressions'));
  if (!DATA.regressions.length) return add(panel, h('div', { class: 'none' }, '\u2714 None: every shift the wrong way has recovered, or there was none.'));
  DATA.regressions.forEach(function (r) {
    var w = DATA.workloads[r.workload], p = w.points, at = r.index, digits = metricDigits(r.before);
    var row = h('div', { class: 'reg', 'data-regression': r.workload });
    add(row, h('div', { class: 'drop' }, '\u25BC ' + percent(r.latestRelative)));
    add(row, add(h('div'), add(h('a', { href: '#w' + r.workload, class: 'name' }), w.name)));
    var what = add(h('div', { class: 'what' }),
      add(h('b'), num(r.before, digits) + ' \u2192 ' + num(r.after, digits) + ' ' + DATA.metric.unit), ', level now ' + num(r.latest, digits) + '. Began at ',
      link(short(p.commit[at]), commitHref(w, at)), ' (' + day(p.t[at]) + ', ' + plural(p.t.length - at, 'run', 'runs') + ' ago)');
    if (compareHref(w, at)) add(what, ' \u00B7 ', link('changes', compareHref(w, at)));
    if (p.run[at]) add(what, ' \u00B7 ', link('run', p.run[at]));
    if (acceptedNote(p, at)) add(what, ' \u00B7 ' + acceptedNote(p, at));
    add(what, ' \u00B7 ' + pText(r.pValue));
    add(panel, add(row, what));
  });
  return panel;
}

function render() {
  var app = document.getElementById('app');
  var latest = 0;
  DATA.workloads.forEach(function (w) { latest = Math.max(latest, w.points.t[w.points.t.length - 1] || 0); });
  var top = add(h('header', { class: 'top' }), h('h1', null, DATA.title));
  add(top, h('div', { class: 'meta' }, plural(DATA.workloads.length, 'workload', 'workloads') + ' \u00B7 ' + plural(DATA.reportCount, 'report', 'reports') + (latest ? ' \u00B7 latest run ' + stamp(latest) : '') + ' \u00B7 generated ' + DATA.generatedAt.slice(0, 16).replace('T', ' ') + ' UTC'));
  add(app, top, regressionPanel());
  var chips = h('nav', { class: 'chips', 'aria-label': 'workloads' });
  DATA.workloads.forEach(function (w, index) {
    var v = w.points.verdict[w.points.verdict.length - 1];
    add(chips, add(h('a', { class: 'chip verdict-' + VERDICTS[v], href: '#w' + index, title: 'latest verdict: ' + VERDICTS[v] }), h('span', { class: 'sym' }, VERDICT_SYMBOL[v]), w.name));
  });
  add(app, chips);
  if (!DATA.workloads.length) add(app, h('div', { class: 'panel empty' }, 'No reports.'));
  DATA.workloads.forEach(function (w, index) {
    add(app, card(w, index, DATA.regressions.filter(function (r) { return r.workload === index; })));
  });
  var foot = add(h('footer'), h('p', null, DATA.method));
  if (DATA.skipped.length) {
    var list = h('ul');
    DATA.skipped.forEach(function (x) { add(list, h('li', null, x.source + ': ' + x.reason)); });
    add(foot, h('p', null, DATA.skipped.length + ' report' + (DATA.skipped.length === 1 ? ' was' : 's were') + ' left out:'), list);
  }
  add(foot, h('p', null, 'Made by profile-gate. Hover a chart for exact values; click for the run\u2019s details and links.'));
  add(app, foot);
}

try {
  if (!DATA || DATA.version !== 1 || !Array.isArray(DATA.workloads)) throw new Error('data.js is missing or not a profile-gate dashboard (version 1)');
  render();
  document.documentElement.setAttribute('data-ready', String(Math.round(performance.now())));
} catch (error) {
  var box = document.getElementById('app');
  add(box, h('p', { class: 'error' }, 'The dashboard could not be drawn: ' + (error && error.message ? error.message : String(error))));
  document.documentElement.setAttribute('data-error', '1');
  throw error;
}
`;

// EXTERNAL MODULE: ./src/report/dashboard/data.ts
var data = __webpack_require__(9781);
;// CONCATENATED MODULE: ./src/report/dashboard/page-charts.ts
/**
 * The page script's first half (browser JavaScript, kept as text): DOM and SVG helpers, formatting,
 * links, and the three charts of a workload card drawn as inline SVG on one shared x axis (one slot
 * per run). Every piece of report text goes into a text node or an attribute set with setAttribute;
 * links are rebuilt from checked parts and must be https. No template literals in here: the text
 * is a String.raw template itself (its only substitutions: the verdicts' order and drawing, from data.ts).
 */

/** A value as JavaScript source in ASCII alone (the script's text stays 7-bit, whatever the page's charset). */
const ascii = (value) => JSON.stringify(value).replace(/[\u007f-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
const PAGE_CHARTS = String.raw `
var SVGNS = 'http://www.w3.org/2000/svg';
var SCALE = 10000;
var VERDICTS = ${ascii(data/* VERDICT_ORDER */.jT)};
var VERDICT_SYMBOL = ${ascii(data/* VERDICT_ORDER */.jT.map((verdict) => data/* VERDICT_DRAWING */.z6[verdict].symbol))};
var SEVERITIES = ['info', 'warning', 'error'];
/* Okabe-Ito, the colour-blind safe palette; "other" is grey. Bands also carry hatching and direct labels. */
var PALETTE = ['#E69F00', '#56B4E9', '#009E73', '#F0E442', '#0072B2', '#D55E00', '#CC79A7'];
var OTHER_COLOUR = '#BBBBBB';
var BAD = '#D55E00', GOOD = '#009E73';
var VERDICT_FILL = ${ascii(data/* VERDICT_ORDER */.jT.map((verdict) => data/* VERDICT_DRAWING */.z6[verdict].fill))};
/* A run's verdict with who accepted it, when a reviewer accepted its regression. */
function verdictText(p, i) { return VERDICTS[p.verdict[i]] + (p.accepted && p.accepted[i] ? ' by @' + p.accepted[i] : ''); }
var SEVERITY_FILL = ['#56B4E9', '#E69F00', '#D55E00'];
var W = 1000, ML = 70, MR = 190, PW = W - ML - MR;
var SHA = /^[0-9a-f]{7,64}$/;
var REPO = /^[A-Za-z0-9_.-]+\/[A-Za-z0-9_.-]+$/;

function attrs(node, values) {
  if (values) for (var key in values) {
    if (Object.prototype.hasOwnProperty.call(values, key) && values[key] !== null && values[key] !== undefined) node.setAttribute(key, String(values[key]));
  }
  return node;
}
function merge(a, b) {
  var out = {}, key;
  for (key in a) if (Object.prototype.hasOwnProperty.call(a, key)) out[key] = a[key];
  for (key in b) if (Object.prototype.hasOwnProperty.call(b, key)) out[key] = b[key];
  return out;
}
function h(tag, values, text) {
  var node = attrs(document.createElement(tag), values);
  if (text !== undefined && text !== null) node.textContent = String(text);
  return node;
}
function s(tag, values, text) {
  var node = attrs(document.createElementNS(SVGNS, tag), values);
  if (text !== undefined && text !== null) node.textContent = String(text);
  return node;
}
function add(parent) {
  for (var i = 1; i < arguments.length; i++) {
    var child = arguments[i];
    if (child === null || child === undefined || child === false) continue;
    parent.appendChild(typeof child === 'string' ? document.createTextNode(child) : child);
  }
  return parent;
}

/** Appends one node and returns it (add returns the parent). */
function put(parent, node) { parent.appendChild(node); return node; }

function num(v, digits) {
  if (v === null || v === undefined || !isFinite(v)) return '\u2013';
  return Number(v).toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });
}
function signed(v, digits, unit) { return (v > 0 ? '+' : v < 0 ? '\u2212' : '\u00B1') + num(Math.abs(v), digits) + unit; }
function percent(relative) { return signed(relative * 100, 1, '%'); }
function plural(count, one, many) { return count + ' ' + (count === 1 ? one : many); }
/** A p-value as a reader takes it: below 0.001 it is that, never p=0. */
function pText(p) { return !(p >= 0.001) ? 'p<0.001' : 'p=' + (p < 0.01 ? p.toFixed(3) : p.toFixed(2)); }
function points(delta) { return signed(delta / 100, 1, ' pts'); }
function share(v) { return num(v / 100, 1) + '%'; }
function day(t) { return new Date(t).toISOString().slice(0, 10); }
function stamp(t) { return new Date(t).toISOString().slice(0, 16).replace('T', ' ') + ' UTC'; }
function short(sha) { return sha ? sha.slice(0, 7) : 'no commit'; }
function cut(text, max) { text = String(text); return text.length > max ? text.slice(0, max - 1) + '\u2026' : text; }
function metricDigits(v) { return Math.abs(v) >= 1000 ? 1 : Math.abs(v) >= 10 ? 2 : 3; }

function httpsOnly(url) { return typeof url === 'string' && url.indexOf('https://') === 0 && !/[\s"'<>\\]/.test(url) ? url : ''; }
function repoOf(w, i) { var r = w.points.repo[i]; var name = r >= 0 ? w.repos[r] : ''; return typeof name === 'string' && REPO.test(name) ? name : ''; }
function commitHref(w, i) {
  var sha = w.points.commit[i], repo = repoOf(w, i);
  return sha && SHA.test(sha) && repo ? httpsOnly(DATA.serverUrl + '/' + repo + '/commit/' + sha) : '';
}
function compareHref(w, i) {
  if (i <= 0) return '';
  var a = w.points.commit[i - 1], b = w.points.commit[i], repo = repoOf(w, i);
  if (!repo || repoOf(w, i - 1) !== repo || !SHA.test(a || '') || !SHA.test(b || '') || a === b) return '';
  return httpsOnly(DATA.serverUrl + '/' + repo + '/compare/' + a + '...' + b);
}
function link(text, href, title) {
  href = httpsOnly(href);
  if (!href) return h('span', null, text);
  return h('a', { href: href, target: '_blank', rel: 'noopener noreferrer', title: title }, text);
}
/** Is this change bad for the metric? */
function isWorse(change) { return DATA.metric.direction === 'higher' ? change.after < change.before : change.after > change.before; }

function frame(height, label) {
  return s('svg', { viewBox: '0 0 ' + W + ' ' + height, class: 'chart', role: 'img', 'aria-label': label });
}
function slotX(count) {
  var step = count > 1 ? PW / (count - 1) : 0;
  var x = function (i) { return count > 1 ? ML + i * step : ML + PW / 2; };
  x.step = count > 1 ? step : 24;
  return x;
}
function linear(d0, d1, r0, r1) {
  var k = d1 === d0 ? 0 : (r1 - r0) / (d1 - d0);
  return function (v) { return d1 === d0 ? (r0 + r1) / 2 : r0 + (v - d0) * k; };
}
function niceTicks(lo, hi, want) {
  if (!(hi > lo)) { var pad = Math.abs(hi) * 0.05 || 1; lo -= pad; hi += pad; }
  var raw = (hi - lo) / want, mag = Math.pow(10, Math.floor(Math.log(raw) / Math.LN10)), norm = raw / mag;
  var step = (norm < 1.5 ? 1 : norm < 3 ? 2 : norm < 7 ? 5 : 10) * mag;
  var ticks = [];
  for (var v = Math.ceil(lo / step) * step; v <= hi + step * 1e-9; v += step) ticks.push(Math.round(v / step) * step);
  return { lo: lo, hi: hi, ticks: ticks, digits: Math.max(0, -Math.floor(Math.log(step) / Math.LN10)) };
}
function dateAxis(g, count, times, x, y0) {
  add(g, s('line', { class: 'axis', x1: ML, x2: ML + PW, y1: y0, y2: y0 }));
  var every = Math.max(1, Math.ceil(count / 7));
  var ticks = [];
  for (var i = 0; i < count; i += every) ticks.push(i);
  // The last run always gets its date; a regular tick too close to it gives way.
  if (count > 1) {
    while (ticks.length > 1 && x(count - 1) - x(ticks[ticks.length - 1]) < 110) ticks.pop();
    ticks.push(count - 1);
  }
  ticks.forEach(function (i, k) {
    var anchor = count > 1 && k === 0 ? 'start' : count > 1 && k === ticks.length - 1 ? 'end' : 'middle';
    add(g, s('line', { class: 'axis', x1: x(i), x2: x(i), y1: y0, y2: y0 + 4 }));
    add(g, s('text', { x: x(i), y: y0 + 16, 'text-anchor': anchor }, day(times[i])));
  });
}
function hover(root, height, top, bottom) {
  var guide = s('line', { class: 'guide', x1: 0, x2: 0, y1: top, y2: height - bottom, visibility: 'hidden' });
  add(root, guide, s('rect', { class: 'hit', x: ML - 6, y: 0, width: PW + 12, height: height - bottom }));
  return guide;
}
function patterns(root, id) {
  var defs = s('defs');
  var hatch = s('pattern', { id: id + '-hatch', patternUnits: 'userSpaceOnUse', width: 6, height: 6, patternTransform: 'rotate(45)' });
  add(hatch, s('line', { x1: 0, y1: 0, x2: 0, y2: 6, stroke: '#ffffff', 'stroke-width': 2, 'stroke-opacity': 0.7 }));
  var cross = s('pattern', { id: id + '-cross', patternUnits: 'userSpaceOnUse', width: 6, height: 6 });
  add(cross, s('path', { d: 'M0 0L6 6M6 0L0 6', stroke: '#ffffff', 'stroke-width': 1.3, 'stroke-opacity': 0.8 }));
  add(defs, hatch, cross);
  add(root, defs);
}

/** Metric over time: median line and points, CI band, level steps between change points, change marks. */
function metricChart(w, id) {
  var p = w.points, n = p.t.length, H = 250, MT = 34, MB = 28, PH = H - MT - MB;
  var root = frame(H, DATA.metric.label + ' over time');
  var lo = Infinity, hi = -Infinity;
  for (var i = 0; i < n; i++) {
    [p.value[i], p.low[i], p.high[i]].forEach(function (v) { if (v !== null && isFinite(v)) { lo = Math.min(lo, v); hi = Math.max(hi, v); } });
  }
  var x = slotX(n);
  if (!isFinite(lo)) {
    add(root, s('text', { x: ML + PW / 2, y: H / 2, 'text-anchor': 'middle' }, 'No ' + DATA.metric.name + ' in these reports'));
    return { node: root, guide: hover(root, H, MT, MB), focus: null, y: null };
  }
  // At least ±4% of the level in view: night-to-night noise should look like noise, not like a cliff.
  var middle = (lo + hi) / 2, least = Math.abs(middle) * 0.08;
  if (hi - lo < least) { lo = middle - least / 2; hi = middle + least / 2; }
  var pad = (hi - lo) * 0.06;
  var t = niceTicks(lo - pad, hi + pad, 5);
  var y = linear(t.lo, t.hi, MT + PH, MT);
  var g = put(root, s('g'));
  t.ticks.forEach(function (v) {
    add(g, s('line', { class: 'grid', x1: ML, x2: ML + PW, y1: y(v), y2: y(v) }));
    add(g, s('text', { x: ML - 8, y: y(v) + 4, 'text-anchor': 'end' }, num(v, t.digits)));
  });
  add(g, s('text', { x: ML - 8, y: MT - 20, 'text-anchor': 'end' }, DATA.metric.unit || DATA.metric.name));
  dateAxis(g, n, p.t, x, MT + PH);
  // Band and line, broken where a run has no value.
  var band = '', line = '', run = [];
  function flush() {
    if (!run.length) return;
    var up = run.map(function (j) { return x(j).toFixed(1) + ',' + y(p.high[j] !== null ? p.high[j] : p.value[j]).toFixed(1); });
    var down = run.slice().reverse().map(function (j) { return x(j).toFixed(1) + ',' + y(p.low[j] !== null ? p.low[j] : p.value[j]).toFixed(1); });
    if (run.length === 1) { up.push((x(run[0]) + 0.5).toFixed(1) + up[0].slice(up[0].indexOf(','))); }
    band += 'M' + up.concat(down).join('L') + 'Z';
    line += 'M' + run.map(function (j) { return x(j).toFixed(1) + ',' + y(p.value[j]).toFixed(1); }).join('L');
    run = [];
  }
  for (i = 0; i < n; i++) { if (p.value[i] === null) flush(); else run.push(i); }
  flush();
  add(g, s('path', { class: 'band', d: band }), s('path', { class: 'median', d: line }));
  // Levels between change points make a shift visible at a glance.
  if (w.changes.length) {
    var bounds = [0].concat(w.changes.map(function (c) { return c.index; }), [n]);
    for (var k = 0; k + 1 < bounds.length; k++) {
      var level = k === 0 ? w.changes[0].before : w.changes[k - 1].after;
      add(g, s('line', { class: 'level', x1: x(bounds[k]), x2: x(bounds[k + 1] - 1), y1: y(level), y2: y(level), 'data-level': level }));
    }
  }
  var r = n > 150 ? 1.8 : n > 50 ? 2.6 : 3.6;
  var dots = put(root, s('g'));
  for (i = 0; i < n; i++) {
    if (p.value[i] !== null) add(dots, s('circle', { class: 'pt', cx: x(i).toFixed(1), cy: y(p.value[i]).toFixed(1), r: r, 'data-point': i }));
  }
  w.changes.forEach(function (c, k) {
    var worse = isWorse(c), colour = worse ? BAD : GOOD, cx = x(c.index);
    add(root, s('line', { class: 'change', x1: cx, x2: cx, y1: MT - 4, y2: MT + PH, stroke: colour, 'data-change': c.index }));
    var label = (c.after > c.before ? '\u25B2 ' : '\u25BC ') + percent(c.relative) + ' at ' + short(p.commit[c.index]);
    var right = cx > ML + PW * 0.72;
    add(root, s('text', { class: 'change-label ' + (worse ? 'worse' : 'better'), x: cx + (right ? -4 : 4), y: MT - 8 - (k % 2) * 13, 'text-anchor': right ? 'end' : 'start' }, label));
  });
  var lastIndex = -1;
  for (i = n - 1; i >= 0 && lastIndex < 0; i--) if (p.value[i] !== null) lastIndex = i;
  if (lastIndex >= 0) {
    add(root, s('text', { class: 'direct', x: x(lastIndex) + 8, y: y(p.value[lastIndex]) + 4 }, num(p.value[lastIndex], metricDigits(p.value[lastIndex])) + ' ' + DATA.metric.unit));
  }
  var focus = put(root, s('circle', { class: 'focus', r: r + 3, cx: -10, cy: -10, visibility: 'hidden' }));
  return { node: root, guide: hover(root, H, MT - 4, MB), focus: focus, y: y };
}

/** Kernel time by family as a stacked area (share of all GPU kernel time), labelled at the right. */
function familyChart(w, id) {
  var p = w.points, n = p.t.length, H = 200, MT = 10, MB = 28, PH = H - MT - MB;
  var root = frame(H, 'Kernel time by family');
  patterns(root, id);
  var x = slotX(n);
  var y = function (v) { return MT + PH - (v / SCALE) * PH; };
  var g = put(root, s('g'));
  [0, 2500, 5000, 7500, 10000].forEach(function (v) {
    add(g, s('line', { class: 'grid', x1: ML, x2: ML + PW, y1: y(v), y2: y(v) }));
    add(g, s('text', { x: ML - 8, y: y(v) + 4, 'text-anchor': 'end' }, v / 100 + '%'));
  });
  dateAxis(g, n, p.t, x, MT + PH);
  var base = p.t.map(function () { return 0; });
  var labels = [];
  var edge = function (j) { return n > 1 ? x(j) : j === 0 ? x(0) - 12 : x(0) + 12; };
  w.families.forEach(function (family, f) {
    var upper = base.map(function (b, j) { return b + (p.shares[j][f] || 0); });
    var ends = n > 1 ? p.t.map(function (_, j) { return j; }) : [0, 0];
    var top = ends.map(function (j, k) { return edge(n > 1 ? j : k).toFixed(1) + ',' + y(upper[j]).toFixed(1); });
    var bottom = ends.slice().reverse().map(function (j, k) { return edge(n > 1 ? j : 1 - k).toFixed(1) + ',' + y(base[j]).toFixed(1); });
    var d = 'M' + top.concat(bottom).join('L') + 'Z';
    var colour = family === 'other' && f === w.families.length - 1 ? OTHER_COLOUR : PALETTE[f % PALETTE.length];
    add(g, s('path', { d: d, fill: colour, 'data-family': f }));
    if (f % 2 === 1) add(g, s('path', { d: d, fill: 'url(#' + id + '-hatch)', 'pointer-events': 'none' }));
    var last = p.shares[n - 1][f] || 0;
    if (last > 0) labels.push({ f: f, colour: colour, y: y(base[n - 1] + last / 2), share: last, name: family });
    base = upper;
  });
  // Direct labels at the right edge, pushed apart so they never overlap.
  labels.sort(function (a, b) { return a.y - b.y; });
  var gap = 13;
  for (var i = 1; i < labels.length; i++) labels[i].y = Math.max(labels[i].y, labels[i - 1].y + gap);
  var overflow = labels.length ? labels[labels.length - 1].y - (MT + PH - 2) : 0;
  if (overflow > 0) for (i = labels.length - 1; i >= 0; i--) labels[i].y = Math.max(MT + 6 + i * gap, labels[i].y - overflow);
  labels.forEach(function (l) {
    var lx = ML + PW + 10;
    add(root, s('rect', { x: lx, y: l.y - 8, width: 10, height: 10, fill: l.colour, stroke: '#ffffff' }));
    if (l.f % 2 === 1) add(root, s('rect', { x: lx, y: l.y - 8, width: 10, height: 10, fill: 'url(#' + id + '-hatch)' }));
    add(root, s('text', { class: 'row-label', x: lx + 15, y: l.y + 1, 'data-family-label': l.f }, cut(l.name, 20) + ' ' + share(l.share)));
  });
  w.familyChanges.forEach(function (c) {
    var cx = x(c.index);
    add(root, s('path', { d: 'M' + (cx - 5) + ',' + (MT - 1) + 'L' + (cx + 5) + ',' + (MT - 1) + 'L' + cx + ',' + (MT + 7) + 'Z', fill: '#1f2328', 'data-family-change': c.family }));
  });
  return { node: root, guide: hover(root, H, MT, MB), focus: null, y: null };
}

function stepTime(ns) { return ns >= 1e6 ? num(ns / 1e6, 2) + ' ms' : num(ns / 1e3, ns >= 1e5 ? 0 : 1) + ' \u00B5s'; }
function stepTotal(row) { var t = 0; row.forEach(function (v) { t += v || 0; }); return t; }

/**
 * GPU time per decode step by family: one stacked bar per run whose capture counts its steps (time
 * per step adds up, where shares do not); a run without a step count gets no bar. Null when no run has one.
 */
function stepChart(w, id) {
  var p = w.points, n = p.t.length, H = 200, MT = 10, MB = 28, PH = H - MT - MB;
  var hi = 0;
  for (var i = 0; i < n; i++) if (p.stepNs[i]) hi = Math.max(hi, stepTotal(p.stepNs[i]));
  if (!(hi > 0)) return null;
  var root = frame(H, 'GPU time per decode step by family');
  patterns(root, id);
  var x = slotX(n), t = niceTicks(0, hi, 4);
  // The axis reaches a tick at or above the tallest stacked bar, so every bar stays inside the plot.
  var tick = t.ticks.length > 1 ? t.ticks[1] - t.ticks[0] : hi;
  while (t.ticks[t.ticks.length - 1] < hi) t.ticks.push(t.ticks[t.ticks.length - 1] + tick);
  var y = linear(0, t.ticks[t.ticks.length - 1] || hi, MT + PH, MT);
  var g = put(root, s('g'));
  t.ticks.forEach(function (v) {
    add(g, s('line', { class: 'grid', x1: ML, x2: ML + PW, y1: y(v), y2: y(v) }));
    add(g, s('text', { x: ML - 8, y: y(v) + 4, 'text-anchor': 'end' }, stepTime(v)));
  });
  dateAxis(g, n, p.t, x, MT + PH);
  var width = Math.max(2, Math.min(24, x.step * 0.7));
  for (i = 0; i < n; i++) {
    var row = p.stepNs[i];
    if (!row) continue;
    var base = 0;
    w.families.forEach(function (family, f) {
      var v = row[f] || 0;
      if (!(v > 0)) return;
      var colour = family === 'other' && f === w.families.length - 1 ? OTHER_COLOUR : PALETTE[f % PALETTE.length];
      var box = { x: (x(i) - width / 2).toFixed(1), y: y(base + v).toFixed(1), width: width.toFixed(1), height: Math.max(0.5, y(base) - y(base + v)).toFixed(1) };
      add(g, s('rect', merge({ fill: colour, 'data-step-family': f, 'data-index': i }, box)));
      if (f % 2 === 1) add(g, s('rect', merge({ fill: 'url(#' + id + '-hatch)', 'pointer-events': 'none' }, box)));
      base += v;
    });
  }
  return { node: root, guide: hover(root, H, MT, MB), focus: null, y: null };
}

function runs(n, test) {
  var out = [], start = -1;
  for (var i = 0; i <= n; i++) {
    var on = i < n && test(i);
    if (on && start < 0) start = i;
    if (!on && start >= 0) { out.push([start, i - 1]); start = -1; }
  }
  return out;
}

/** Verdicts and findings per run: one row each, runs of consecutive points drawn as one bar. */
function timelineChart(w, id) {
  var p = w.points, n = p.t.length, RH = 18, MT = 4, MB = 28;
  var counts = w.findings.map(function () { return 0; });
  p.findings.forEach(function (list) { list.forEach(function (f) { counts[f]++; }); });
  var rows = w.findings.map(function (_, f) { return f; }).filter(function (f) { return counts[f] > 0; });
  rows.sort(function (a, b) { return w.findings[b].severity - w.findings[a].severity || counts[b] - counts[a]; });
  var hidden = Math.max(0, rows.length - 8);
  rows = rows.slice(0, 8);
  var H = MT + (rows.length + 1) * RH + MB;
  var root = frame(H, 'Verdicts and findings per run');
  patterns(root, id);
  var x = slotX(n), half = x.step / 2;
  var left = function (i) { return Math.max(ML - (n > 1 ? 0 : half), x(i) - half); };
  var right = function (i) { return Math.min(ML + PW + (n > 1 ? 0 : half), x(i) + half); };
  var g = put(root, s('g'));
  function row(k, label) {
    var top = MT + k * RH;
    if (k % 2 === 0) add(g, s('rect', { class: 'row-bg', x: ML, y: top, width: PW, height: RH }));
    add(g, s('text', { class: 'row-label', x: ML + PW + 10, y: top + RH / 2 + 4 }, cut(label, 30)));
    return top;
  }
  var top = row(0, 'verdict');
  VERDICTS.forEach(function (verdict, v) {
    runs(n, function (i) { return p.verdict[i] === v; }).forEach(function (r) {
      var box = { x: left(r[0]).toFixed(1), y: top + 3, width: Math.max(1.5, right(r[1]) - left(r[0])).toFixed(1), height: RH - 6 };
      add(g, s('rect', merge({ fill: VERDICT_FILL[v], 'data-verdict': verdict, 'data-from': r[0], 'data-to': r[1] }, box)));
      if (v === 1) add(g, s('rect', merge({ fill: 'url(#' + id + '-hatch)' }, box)));
      if (v === 2) add(g, s('rect', merge({ fill: 'url(#' + id + '-cross)' }, box)));
    });
  });
  rows.forEach(function (f, k) {
    var info = w.findings[f];
    var rowTop = row(k + 1, info.id + ' \u00B7 ' + SEVERITIES[info.severity]);
    runs(n, function (i) { return p.findings[i].indexOf(f) >= 0; }).forEach(function (r) {
      var box = { x: left(r[0]).toFixed(1), y: rowTop + 3, width: Math.max(1.5, right(r[1]) - left(r[0])).toFixed(1), height: RH - 6 };
      var sev = info.severity;
      add(g, s('rect', merge({ fill: sev === 0 ? '#ffffff' : SEVERITY_FILL[sev], stroke: sev === 0 ? SEVERITY_FILL[0] : 'none', 'data-finding': f, 'data-from': r[0], 'data-to': r[1] }, box)));
      if (sev === 1) add(g, s('rect', merge({ fill: 'url(#' + id + '-hatch)' }, box)));
    });
  });
  if (hidden) add(root, s('text', { x: ML, y: H - 2 }, '+' + hidden + ' more findings in the run details'));
  dateAxis(g, n, p.t, x, MT + (rows.length + 1) * RH);
  return { node: root, guide: hover(root, H, MT, MB), focus: null, y: null };
}
`;

;// CONCATENATED MODULE: ./src/report/dashboard/page-style.ts
/** The dashboard's stylesheet (dashboard.css): a quiet, dense layout that reads well on a wall screen. */
const PAGE_STYLE = String.raw `
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

;// CONCATENATED MODULE: ./src/report/dashboard/site.ts
/**
 * The dashboard as files: index.html, data.js (the data assigned to a global, so the page works
 * from file:// and from GitHub Pages without fetching anything), dashboard.js and dashboard.css.
 * No external library, no CDN; a Content-Security-Policy allows only these files.
 */





const DATA_GLOBAL = 'PROFILE_GATE_DASHBOARD';
/**
 * JSON as a JavaScript expression that is safe in any context: `<`, `>`, `&` and the two line
 * separators are escaped, so not even a `</script>` inside report text could end a script element.
 */
function scriptJson(value) {
    return JSON.stringify(value).replace(/[<>&\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
function renderDataScript(data) {
    return `window.${DATA_GLOBAL} = ${scriptJson(data)};\n`;
}
function renderPageScript() {
    return `/* profile-gate dashboard: draws window.${DATA_GLOBAL} (data.js). */\n(function () {\n'use strict';\nvar DATA = window.${DATA_GLOBAL};\n${PAGE_CHARTS}\n${PAGE_APP}\n})();\n`;
}
function renderIndexHtml(title) {
    const safeTitle = (0,report_escape/* escapeHtml */.ZD)(title);
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
function renderSite(data) {
    return [
        { path: 'index.html', content: renderIndexHtml(data.title) },
        { path: 'data.js', content: renderDataScript(data) },
        { path: 'dashboard.js', content: renderPageScript() },
        { path: 'dashboard.css', content: PAGE_STYLE.trimStart() },
    ];
}
/** Reports in, site files out: the whole pure half of `profile-gate dashboard`. */
function buildSite(inputs, skipped = [], options = {}) {
    const data = (0,build_data/* buildDashboardData */.vt)(inputs, skipped, options);
    return { data, files: renderSite(data) };
}

;// CONCATENATED MODULE: ./src/report/dashboard/index.ts
/** The dashboard: reports → its data and its static site (pure; the engine reads and writes files). */



// EXTERNAL MODULE: ./src/model/report.ts + 1 modules
var model_report = __webpack_require__(949);
// EXTERNAL MODULE: ./src/report/json.ts
var json = __webpack_require__(2794);
// EXTERNAL MODULE: ./src/report/bounded-report.ts
var bounded_report = __webpack_require__(4114);
// EXTERNAL MODULE: ./src/github/http.ts
var http = __webpack_require__(8003);
;// CONCATENATED MODULE: ./src/github/client.ts
/**
 * The GitHub REST client of profile-gate, for the action and the CLI alike: the repository, workflow
 * runs, artifacts (by name across the repository, or of one run), the artifact zip download (a 302
 * to storage, fetched without the token, within a size cap), pull requests, issue comments and
 * events, and a user's permission on the repository.
 * Every call goes through `Http` (retries, timeouts, body limits); list calls follow Link rel="next"
 * within a page bound, and never leave the API host. An issue's comments and events are scanned
 * newest first (from Link rel="last" back along rel="prev") to the end, within a much larger bound
 * that, when hit, is said (`Scan.cut`), never silent.
 */


/**
 * True when `url` is on the API itself: the same origin (scheme, host and port, compared parsed, so
 * `:39734` is not `:3973` and `api.github.com.example` is not `api.github.com`), no credentials, and
 * under the API's base path (`/api/v3` on GitHub Enterprise). The token goes only there.
 */
function onApi(url, apiUrl) {
    let next;
    let api;
    try {
        next = new URL(url);
        api = new URL(apiUrl);
    }
    catch {
        return false;
    }
    if (next.origin !== api.origin || next.username || next.password)
        return false;
    const base = api.pathname.replace(/\/+$/, '');
    return next.pathname === base || next.pathname.startsWith(`${base}/`);
}
/** Pages read at most from one list endpoint. */
const MAX_PAGES = 20;
/** Pages read at most by a newest-first scan of an issue's comments or events: 100,000 items. */
const MAX_SCAN_PAGES = 1000;
function linkOf(headers, rel) {
    for (const part of (headers.get('link') ?? '').split(',')) {
        const m = /<([^>]+)>\s*;\s*rel="([^"]+)"/.exec(part);
        if (m && m[2] === rel)
            return m[1];
    }
    return undefined;
}
class GitHubClient {
    access;
    http;
    constructor(access) {
        this.access = access;
        this.http = new http/* Http */.lw(access);
    }
    headers(json = false) {
        return {
            accept: 'application/vnd.github+json',
            authorization: `Bearer ${this.access.token}`,
            'x-github-api-version': '2022-11-28',
            'user-agent': 'profile-gate',
            ...(json ? { 'content-type': 'application/json' } : {}),
        };
    }
    async call(method, path, route, body) {
        const response = await this.http.request(`${this.access.apiUrl}${path}`, { method, headers: this.headers(body !== undefined), ...(body !== undefined ? { body: JSON.stringify(body) } : {}) }, route);
        return response.json(this.http.limits.maxJsonBytes);
    }
    /** A list endpoint, following Link rel="next" (on the API host only) until `enough` or the page bound. */
    async list(path, route, key, enough = () => false) {
        const items = [];
        let url = `${this.access.apiUrl}${path}`;
        const seen = new Set();
        for (let page = 0; url && page < MAX_PAGES && !enough(items); page += 1) {
            if (seen.has(url))
                break;
            seen.add(url);
            const response = await this.http.request(url, { headers: this.headers() }, route);
            const body = await response.json(this.http.limits.maxJsonBytes);
            const list = key === null ? body : body?.[key];
            if (!Array.isArray(list))
                throw new errors/* InputError */.dz(route, key ? `expected a '${key}' list in the answer` : 'expected a list in the answer');
            items.push(...list);
            url = /<([^>]+)>;\s*rel="next"/.exec(response.headers.get('link') ?? '')?.[1];
            if (url && !onApi(url, this.access.apiUrl))
                url = undefined;
        }
        return items;
    }
    /** One page of a list that answers a bare JSON array, with its Link header. */
    async page(url, route) {
        const response = await this.http.request(url, { headers: this.headers() }, route);
        const body = await response.json(this.http.limits.maxJsonBytes);
        if (!Array.isArray(body))
            throw new errors/* InputError */.dz(route, 'expected a list in the answer');
        return { items: body, headers: response.headers };
    }
    /**
     * A list that answers a bare array, newest item first: its last page (Link rel="last"), then back
     * along rel="prev" to the first, each page read backwards. `visit` returning true stops the scan.
     * Where GitHub gives no rel="last", the pages are read forward, then visited backwards.
     * Within `maxScanPages` pages; a scan the bound stopped says so in `cut`.
     */
    async scanNewestFirst(path, route, visit) {
        const bound = this.access.maxScanPages ?? MAX_SCAN_PAGES;
        const first = `${this.access.apiUrl}${path}`;
        let read = 0;
        const visitPage = (items) => {
            for (let i = items.length - 1; i >= 0; i--) {
                read += 1;
                if (visit(items[i]))
                    return true;
            }
            return false;
        };
        const cut = (pages) => ({ read, cut: `${read} read, newest first, in ${pages} pages: the scan stops at ${bound} pages of ${route}, and older ones were not read` });
        const head = await this.page(first, route);
        const onApiOnly = (url) => (url && onApi(url, this.access.apiUrl) ? url : undefined);
        const last = onApiOnly(linkOf(head.headers, 'last'));
        if (!last) {
            // No rel="last": forward to the end, then backwards.
            const pages = [head.items];
            const seen = new Set([first]);
            let cutAt;
            for (let url = onApiOnly(linkOf(head.headers, 'next')); url && !seen.has(url);) {
                if (pages.length >= bound) {
                    cutAt = pages.length;
                    break;
                }
                seen.add(url);
                const next = await this.page(url, route);
                pages.push(next.items);
                url = onApiOnly(linkOf(next.headers, 'next'));
            }
            // Cut here, the newest pages were not read: what was read is still visited, and the cut said.
            for (let p = pages.length - 1; p >= 0; p--)
                if (visitPage(pages[p]))
                    return { read };
            return cutAt === undefined ? { read } : { read, cut: `${read} read, oldest first, in ${cutAt} pages: the scan stops at ${bound} pages of ${route}, and newer ones were not read` };
        }
        const seen = new Set([first]);
        let pages = 1;
        for (let url = last; url && !seen.has(url);) {
            if (pages >= bound)
                return cut(pages);
            seen.add(url);
            const page = await this.page(url, route);
            pages += 1;
            if (visitPage(page.items))
                return { read };
            const prev = onApiOnly(linkOf(page.headers, 'prev'));
            // No rel="prev": this was the first page. A prev that is the first page: it was read first.
            if (!prev)
                return { read };
            if (prev === linkOf(page.headers, 'first'))
                break;
            url = prev;
        }
        visitPage(head.items);
        return { read };
    }
    repository(repo) {
        return this.call('GET', `/repos/${repo}`, 'GET /repos/{owner}/{repo}');
    }
    /** Workflow runs, newest first as GitHub lists them. */
    async workflowRuns(repo, query) {
        const params = new URLSearchParams({ per_page: '100', exclude_pull_requests: 'true' });
        if (query.branch)
            params.set('branch', query.branch);
        if (query.event)
            params.set('event', query.event);
        if (query.status)
            params.set('status', query.status);
        if (query.headSha)
            params.set('head_sha', query.headSha);
        const path = query.workflow ? `/repos/${repo}/actions/workflows/${encodeURIComponent(query.workflow)}/runs` : `/repos/${repo}/actions/runs`;
        const route = query.workflow ? 'GET /repos/{owner}/{repo}/actions/workflows/{workflow}/runs' : 'GET /repos/{owner}/{repo}/actions/runs';
        const accept = (run) => Number.isInteger(run.id) && (query.accept?.(run) ?? true);
        const runs = await this.list(`${path}?${params}`, route, 'workflow_runs', (items) => items.filter(accept).length >= query.limit || (query.until?.(items) ?? false));
        return runs.filter(accept).slice(0, query.limit);
    }
    /** Artifacts of the whole repository with exactly this name, newest first. */
    async artifactsNamed(repo, name, limit = 100) {
        const params = new URLSearchParams({ name, per_page: String(Math.min(100, limit)) });
        const found = await this.list(`/repos/${repo}/actions/artifacts?${params}`, 'GET /repos/{owner}/{repo}/actions/artifacts', 'artifacts', (items) => items.length >= limit);
        return found.filter((a) => Number.isInteger(a.id) && a.name === name).slice(0, limit);
    }
    /** The artifacts of one run (only those named `name`, when given). */
    async runArtifacts(repo, runId, name) {
        const params = new URLSearchParams({ per_page: '100', ...(name !== undefined ? { name } : {}) });
        const found = await this.list(`/repos/${repo}/actions/runs/${runId}/artifacts?${params}`, 'GET /repos/{owner}/{repo}/actions/runs/{run}/artifacts', 'artifacts');
        return found.filter((a) => Number.isInteger(a.id) && typeof a.name === 'string');
    }
    /** The artifact's zip, at most `maxBytes`: the API answers 302 to storage, fetched without the token. */
    async artifactZip(repo, artifactId, maxBytes) {
        const route = 'GET /repos/{owner}/{repo}/actions/artifacts/{id}/zip';
        const url = `${this.access.apiUrl}/repos/${repo}/actions/artifacts/${artifactId}/zip`;
        let response = await this.http.request(url, { headers: this.headers(), redirect: 'manual' }, route);
        if (response.status >= 300 && response.status < 400) {
            const location = response.headers.get('location');
            response.cancel();
            if (!location)
                throw new errors/* InputError */.dz(route, `a ${response.status} without a Location header`);
            response = await this.http.request(new URL(location, url).toString(), { redirect: 'follow' }, `${route} (storage)`);
        }
        return response.bytes(maxBytes, 'artifact zip');
    }
    pull(repo, number) {
        return this.call('GET', `/repos/${repo}/pulls/${number}`, 'GET /repos/{owner}/{repo}/pulls/{pull_number}');
    }
    /** The issue's comments, newest first, to the end (or the scan bound, said in `cut`); `visit` returning true stops. */
    scanComments(repo, issue, visit) {
        return this.scanNewestFirst(`/repos/${repo}/issues/${issue}/comments?per_page=100`, 'GET /repos/{owner}/{repo}/issues/{issue_number}/comments', visit);
    }
    /** The issue's events (labels added and removed, force pushes, with who did it), newest first, as scanComments. */
    scanIssueEvents(repo, issue, visit) {
        return this.scanNewestFirst(`/repos/${repo}/issues/${issue}/events?per_page=100`, 'GET /repos/{owner}/{repo}/issues/{issue_number}/events', visit);
    }
    /** The issue's comments, oldest first, to the end of the scan. */
    async comments(repo, issue) {
        const all = [];
        await this.scanComments(repo, issue, (c) => void all.push(c));
        return all.reverse();
    }
    /** The issue's events, oldest first, to the end of the scan. */
    async issueEvents(repo, issue) {
        const all = [];
        await this.scanIssueEvents(repo, issue, (e) => void all.push(e));
        return all.reverse();
    }
    /** What `login` may do in the repository (the token needs metadata: read, which every GITHUB_TOKEN has). */
    permission(repo, login) {
        return this.call('GET', `/repos/${repo}/collaborators/${encodeURIComponent(login)}/permission`, 'GET /repos/{owner}/{repo}/collaborators/{username}/permission');
    }
    createComment(repo, issue, body) {
        return this.call('POST', `/repos/${repo}/issues/${issue}/comments`, 'POST /repos/{owner}/{repo}/issues/{issue_number}/comments', { body });
    }
    updateComment(repo, id, body) {
        return this.call('PATCH', `/repos/${repo}/issues/comments/${id}`, 'PATCH /repos/{owner}/{repo}/issues/comments/{comment_id}', { body });
    }
}

// EXTERNAL MODULE: ./src/github/limits.ts
var github_limits = __webpack_require__(1679);
;// CONCATENATED MODULE: ./src/github/artifact-names.ts
/**
 * Names the artifact service accepts. It refuses " : < > | * ? \r \n \ in artifact names and in the
 * paths of the files inside, so a capture named decode-12:00:00.jsonl would sink the whole upload.
 * Captures travel in an artifact of their own beside the report's, under mapped paths, with the
 * mapping kept in the artifact.
 */
/** What a file path inside an artifact may not hold (besides `/`, its separator). */
const REFUSED_IN_PATH = /[%":<>|*?\r\n\\]/g;
/** The captures of the report artifact NAME are in NAME + this. */
const CAPTURES_SUFFIX = '-captures';
/** The file in the captures artifact that maps each stored path back to the capture's own. */
const CAPTURE_NAMES_FILE = 'capture-names.json';
function capturesArtifactName(reportArtifact) {
    return `${reportArtifact}${CAPTURES_SUFFIX}`;
}
function isCapturesArtifact(name) {
    return name.endsWith(CAPTURES_SUFFIX);
}
/**
 * A path the service accepts: each refused character (and `%`, so the mapping can be undone)
 * becomes %XX. Paths that need no change stay as they are.
 */
function storablePath(relativePath) {
    return relativePath
        .split('/')
        .map((part) => part.replace(REFUSED_IN_PATH, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`))
        .join('/');
}

// EXTERNAL MODULE: ./src/github/report-artifacts.ts + 1 modules
var report_artifacts = __webpack_require__(407);
;// CONCATENATED MODULE: ./src/github/dashboard-artifacts.ts
/**
 * `dashboard --from-artifacts`: the report artifacts of a workflow's last N completed runs on a
 * branch, whatever their conclusion, through the GitHub REST API with plain fetch (no @actions dependency):
 * list the workflow's runs, each run's artifacts named PREFIX*, download each zip (a 302 to
 * storage, followed without the token), and take the report.json files out of it.
 * Everything downloaded is untrusted: sizes are capped (limits.ts), reports are schema-validated and
 * cut down one at a time, and a bad artifact is left out with a note rather than failing the dashboard.
 */






function validRepository(repository) {
    return /^[A-Za-z0-9_.-]+\/[A-Za-z0-9_.-]+$/.test(repository) && !repository.includes('..');
}
/**
 * When the run happened: the API's record of it (when it started, else when it was created), which
 * the uploader cannot choose; the report's own claim only when the API gives none. Never later than
 * `now`: a report dated 2099 would otherwise stay the newest point of every history.
 */
function runTimestamp(report, run, now = Date.now()) {
    for (const text of [run.run_started_at, run.created_at, report.run.timestamp, report.generatedAt]) {
        const time = text ? Date.parse(text) : NaN;
        if (Number.isFinite(time))
            return new Date(Math.min(time, now)).toISOString();
    }
    return new Date(now).toISOString();
}
/** What the run says about itself wins over what the report claims: the API knows which commit it built, and when. */
function withRunInfo(report, run, query, serverUrl) {
    const runUrl = run.html_url?.startsWith('https://') ? run.html_url : `${serverUrl}/${query.repository}/actions/runs/${run.id}`;
    return {
        ...report,
        run: {
            ...report.run,
            repository: query.repository,
            runId: String(run.id),
            runUrl,
            ...(run.head_sha ? { commit: run.head_sha } : {}),
            timestamp: runTimestamp(report, run),
        },
    };
}
async function downloadReportArtifacts(query, access) {
    if (!validRepository(query.repository))
        throw new errors/* InputError */.dz('--repo', `${JSON.stringify(query.repository)}; expected OWNER/NAME`);
    if (!access.token)
        throw new errors/* InputError */.dz('GITHUB_TOKEN', "not set; --from-artifacts reads the GitHub API with it (a token with 'actions: read')");
    const client = new GitHubClient(access);
    const limits = { ...github_limits/* DEFAULT_ARTIFACT_LIMITS */.SN, ...access.artifactLimits };
    const log = access.log ?? (() => undefined);
    const repo = query.repository;
    // Every completed run, failed ones included: the nights the gate fails are the nights the page
    // must show, and the action uploads the report before it fails the job. A run with no report
    // artifact (it broke before the gate) is listed as left out.
    const accepted = (run) => (run.status === undefined || run.status === 'completed') && (run.head_branch === undefined || run.head_branch === query.branch) && query.events.includes(run.event ?? '');
    const listed = await client.workflowRuns(repo, { workflow: query.workflow, branch: query.branch, status: 'completed', limit: query.limit, accept: accepted });
    const byId = new Map();
    for (const run of listed)
        byId.set(run.id, run);
    const time = (run) => Date.parse(run.run_started_at ?? run.created_at ?? '') || 0;
    const runs = [...byId.values()].sort((a, b) => time(b) - time(a) || b.id - a.id).slice(0, query.limit);
    const failed = runs.filter((run) => run.conclusion !== 'success').length;
    log(`${runs.length} completed ${query.events.join('/')} runs of ${query.workflow} on ${query.branch} (${failed} not successful: their reports are read too)`);
    const inputs = [];
    const skipped = [];
    let read = 0;
    let alreadySeen = 0;
    for (const run of runs) {
        const artifacts = (await client.runArtifacts(repo, run.id)).filter((a) => a.name.startsWith(query.prefix) && !isCapturesArtifact(a.name));
        if (!artifacts.length)
            skipped.push({ source: `run ${run.id}`, reason: `no artifact named ${query.prefix}*` });
        for (const artifact of artifacts) {
            const source = `run ${run.id} artifact ${artifact.name}`;
            if (query.seenArtifacts?.has(artifact.id)) {
                alreadySeen += 1;
                continue;
            }
            if (artifact.expired) {
                skipped.push({ source, reason: 'expired' });
                continue;
            }
            if ((artifact.size_in_bytes ?? 0) > limits.maxZipBytes) {
                skipped.push({ source, reason: `${artifact.size_in_bytes} bytes; larger than ${limits.maxZipBytes}` });
                continue;
            }
            if (read >= limits.maxArtifacts) {
                skipped.push({ source, reason: `more than ${limits.maxArtifacts} artifacts; the rest are not read` });
                continue;
            }
            read += 1;
            try {
                const zip = await client.artifactZip(repo, artifact.id, limits.maxZipBytes);
                let found = 0;
                // One report at a time, cut down at once: a long history needs one report's memory, not all of them.
                for (const entry of (0,report_artifacts/* reportsInZip */.GN)(zip, source, limits)) {
                    found += 1;
                    if ('error' in entry)
                        skipped.push({ source: entry.path, reason: entry.error });
                    else
                        inputs.push({ report: (0,bounded_report/* boundReport */.N)(withRunInfo(entry.report, run, query, access.serverUrl)), source: entry.path, artifact: { id: artifact.id, name: artifact.name, run: run.id } });
                }
                if (!found)
                    skipped.push({ source, reason: 'no report.json inside' });
            }
            catch (error) {
                // Listing failures (token, permissions) already stopped us above; one bad artifact is only left out.
                skipped.push({ source, reason: (0,report_artifacts/* unreadableReason */.Qk)(error) });
            }
        }
    }
    return { inputs, skipped, runs: runs.length, alreadySeen };
}

// EXTERNAL MODULE: ./src/io/reports.ts
var reports = __webpack_require__(7759);
// EXTERNAL MODULE: ./src/io/input-paths.ts
var input_paths = __webpack_require__(3053);
// EXTERNAL MODULE: ./src/io/secrets.ts
var io_secrets = __webpack_require__(3965);
// EXTERNAL MODULE: ./src/compare/history-summary.ts
var history_summary = __webpack_require__(3666);
// EXTERNAL MODULE: external "node:fs"
var external_node_fs_ = __webpack_require__(3024);
// EXTERNAL MODULE: external "node:readline"
var external_node_readline_ = __webpack_require__(481);
;// CONCATENATED MODULE: ./src/io/history-store.ts
/**
 * The history store: one line of JSON per report (compare/history-summary.ts), appended once when
 * the report is first seen, in one file kept on a branch. Line-delimited JSON because the store is
 * appended to each night and kept in git: a night adds lines (a text diff of a few kilobytes, where
 * a database file would be a new binary copy every night), two branches' appends merge line by line
 * (`merge=union`), and jq, grep or any database's JSON loader read it as it is.
 */






/** A store that holds nothing yet. */
function emptyHistoryStore() {
    return { summaries: [], ids: new Set(), artifacts: new Set(), lines: 0, names: new Map() };
}
const isObject = (value) => typeof value === 'object' && value !== null && !Array.isArray(value);
/** What a line must hold to be drawn; the reason it is not, or undefined. */
function problem(value) {
    if (!isObject(value))
        return 'a JSON object';
    if (value['v'] !== history_summary/* HISTORY_SUMMARY_VERSION */.hT)
        return `"v": ${history_summary/* HISTORY_SUMMARY_VERSION */.hT} (a history summary of this version)`;
    if (typeof value['id'] !== 'string' || typeof value['generatedAt'] !== 'string' || typeof value['verdict'] !== 'string')
        return '"id", "generatedAt" and "verdict" strings';
    if (!isObject(value['run']) || !isObject(value['environment']) || !isObject(value['steps']) || !isObject(value['provenance']))
        return '"run", "environment", "steps" and "provenance" objects';
    for (const list of ['metrics', 'families', 'kernels', 'findings'])
        if (!Array.isArray(value[list]))
            return `a "${list}" array`;
    const kernels = value['kernels'];
    if (!kernels.every((k) => isObject(k) && typeof k['name'] === 'string' && typeof k['family'] === 'string' && typeof k['share'] === 'number'))
        return 'kernels of a "name", a "family" and a "share"';
    const metrics = value['metrics'];
    if (!metrics.every((m) => isObject(m) && typeof m['name'] === 'string' && Array.isArray(m['samples']) && typeof m['value'] === 'number'))
        return 'metrics of a "name", "samples" and a "value"';
    const families = value['families'];
    if (!families.every((f) => isObject(f) && typeof f['family'] === 'string' && typeof f['share'] === 'number' && typeof f['totalNs'] === 'number'))
        return 'families of a "family", a "share" and a "totalNs"';
    return undefined;
}
/**
 * Reads the store (none yet: an empty one), or with `appended` only the lines appended after it was
 * read (appendHistoryLines), numbered after the lines read then. Kernel and family names repeat
 * night after night: each is held once. A line that is not a summary stops the read with its line
 * number: a history read in part would draw a wrong page. Each summary is kept as `keep` makes it,
 * as soon as its line is read (the dashboard keeps the report its page reads: the summary itself
 * is then never held).
 */
async function readHistoryStore(path, appended, keep = (summary) => summary) {
    const store = { ...emptyHistoryStore(), names: appended?.after.names ?? new Map() };
    const names = store.names;
    const intern = (text) => {
        const known = names.get(text);
        if (known !== undefined)
            return known;
        names.set(text, text);
        return text;
    };
    let stream;
    try {
        stream = (0,external_node_fs_.createReadStream)(path, { encoding: 'utf8', start: appended?.offset ?? 0 });
        await new Promise((resolve, reject) => stream.once('open', () => resolve()).once('error', reject));
    }
    catch (error) {
        if (error.code === 'ENOENT')
            return store;
        throw new errors/* InputError */.dz(path, `a readable history store (${error.message})`);
    }
    let line = appended?.after.lines ?? 0;
    const first = line;
    try {
        for await (const text of (0,external_node_readline_.createInterface)({ input: stream, crlfDelay: Infinity })) {
            line += 1;
            if (!text.trim())
                continue;
            let value;
            try {
                value = JSON.parse(text);
            }
            catch {
                throw new errors/* InputError */.dz(path, 'one JSON object per line (a history summary)', `line ${line}`);
            }
            const why = problem(value);
            if (why)
                throw new errors/* InputError */.dz(path, `a history summary: ${why}`, `line ${line}`);
            const summary = value;
            // A line appended twice (two branches' appends merged) is one report.
            if (store.ids.has(summary.id))
                continue;
            for (const k of summary.kernels) {
                k.name = intern(k.name);
                k.family = intern(k.family);
            }
            store.ids.add(summary.id);
            if (summary.provenance.artifact)
                store.artifacts.add(summary.provenance.artifact.id);
            store.summaries.push(keep(summary));
        }
    }
    catch (error) {
        if (error instanceof errors/* InputError */.dz)
            throw error;
        throw new errors/* InputError */.dz(path, `a readable history store (${error.message})`, line > first ? `line ${line + 1}` : undefined);
    }
    store.lines = line;
    return store;
}
/** One summary as its line. */
function historyLine(summary) {
    return `${JSON.stringify(summary)}\n`;
}
/** Lines written to the store at a time: whole lines, about this many bytes. */
const APPEND_BATCH_BYTES = 1 << 20;
/**
 * Appends the lines (already made public: redacted) to the store, creating it, and says where they
 * begin. The lines are made as they are written, a batch of whole lines at a time: a first import
 * of a year of reports is about 100 MB of lines, which held at once (and joined) would double the
 * build's peak memory. When making them fails, the store is cut back to what it held (removed when
 * there was none) before the error goes on: it never holds part of the new lines. A store whose
 * last line has no newline (edited by hand) gets one first, so that line and the first new one
 * stay two lines.
 */
async function appendHistoryLines(path, lines) {
    let batch = [];
    let bytes = 0;
    let before;
    let offset = 0;
    const flush = async () => {
        if (!before) {
            await (0,promises_.mkdir)((0,external_node_path_.dirname)(path), { recursive: true });
            before = await storeEnd(path);
            offset = before.size;
            if (!before.newline) {
                batch.unshift('\n');
                offset += 1;
            }
        }
        await (0,promises_.appendFile)(path, batch.join(''));
        batch = [];
        bytes = 0;
    };
    try {
        for await (const line of lines) {
            batch.push(line);
            bytes += line.length;
            if (bytes >= APPEND_BATCH_BYTES)
                await flush();
        }
        if (batch.length)
            await flush();
    }
    catch (error) {
        if (before)
            await (before.existed ? (0,promises_.truncate)(path, before.size) : (0,promises_.rm)(path, { force: true }));
        throw error;
    }
    return before ? offset : (await storeEnd(path)).size;
}
/** The store's size in bytes (none: 0), whether it ends in a newline (an empty store does), and whether it is there. */
async function storeEnd(path) {
    let file;
    try {
        file = await (0,promises_.open)(path, 'r');
    }
    catch (error) {
        if (error.code === 'ENOENT')
            return { size: 0, newline: true, existed: false };
        throw error;
    }
    try {
        const { size } = await file.stat();
        if (size === 0)
            return { size, newline: true, existed: true };
        const last = Buffer.alloc(1);
        await file.read(last, 0, 1, size - 1);
        return { size, newline: last[0] === 0x0a, existed: true };
    }
    finally {
        await file.close();
    }
}

;// CONCATENATED MODULE: ./src/cli/dashboard-site.ts
/**
 * The I/O half of `profile-gate dashboard`: read report.json files (and, with --from-artifacts,
 * download them), build the site with the pure renderer, and write it to a directory.
 * A report that does not validate is left out and listed on the page, not fatal: one broken
 * nightly artifact must not take the whole history down.
 */














/**
 * The site is public and its reports come from other runs' artifacts: what it writes is redacted
 * (credential-shaped tokens, credential assignments, this process's secret variables), whatever
 * the runs that made the reports did.
 */
function published(text) {
    return typeof text === 'string' ? (0,io_secrets/* redact */.E$)(text, (0,io_secrets/* secretsFromEnv */.zr)(process.env)) : text;
}
/**
 * A report redacted as data: its JSON text in one pass (JSON.stringify escapes only quotes,
 * backslashes and controls, whose escaped forms the redaction also knows), field by field when a
 * replacement would break the text's structure.
 */
function redactedData(value, secrets) {
    const text = JSON.stringify(value);
    const clean = (0,io_secrets/* redact */.E$)(text, secrets);
    if (clean === text)
        return value;
    try {
        return JSON.parse(clean);
    }
    catch {
        return (0,io_secrets/* redactValue */.FI)(value, secrets).value;
    }
}
/**
 * Every report.json under the paths, read one at a time and cut down at once to what the page shows
 * (as the downloaded artifacts are): a year of reports of thousands of kernels each is held as a
 * year of bounded summaries, never whole. Invalid ones become notes. A path that does not exist is
 * an error.
 */
async function loadDashboardReports(paths) {
    const inputs = [];
    const skipped = [];
    for (const found of await findReportFiles(paths)) {
        try {
            inputs.push({ report: boundReport(await loadReport(found.path)), source: found.path });
        }
        catch (error) {
            if (!(error instanceof InputError))
                throw error;
            skipped.push({ source: found.path, reason: error.expected });
        }
    }
    return { inputs, skipped };
}
async function writeSite(directory, files) {
    await (0,input_paths.makeOutputFolder)(directory, 'the site');
    const written = [];
    for (const file of files) {
        const path = (0,external_node_path_.join)(directory, file.path);
        // The page's code and style are ours; the data is the reports'.
        await (0,promises_.writeFile)(path, file.path === 'data.js' ? published(file.content) : file.content);
        written.push(path);
    }
    return written;
}
/**
 * Downloaded reports kept as files (e.g. on a branch), so the history outlives artifact retention.
 * A report's folder is named by what the dashboard counts as the same report (workload, run,
 * commit, time), so saving the same runs again night after night rewrites the same files.
 */
async function saveReports(directory, inputs) {
    const names = new Set();
    for (const { report } of inputs) {
        const identity = (0,external_node_crypto_.createHash)('sha256').update((0,build_data/* reportIdentity */.he)(report)).digest('hex').slice(0, 12);
        const name = `${report.run.runId ?? 'run'}-${(report.run.workload ?? 'report').replace(/[^A-Za-z0-9_.-]+/g, '_').slice(0, 80)}-${identity}`;
        if (names.has(name))
            continue;
        names.add(name);
        await (0,promises_.mkdir)((0,external_node_path_.join)(directory, name), { recursive: true });
        await (0,promises_.writeFile)((0,external_node_path_.join)(directory, name, model_report/* REPORT_FILE */.Uq), published((0,json.serializeReport)(report)));
    }
    return names.size;
}
/** A report as the dashboard reads it: its history summary, the same record the store keeps. */
function dashboardSummary(input) {
    return (0,history_summary/* summarizeReport */.SM)(input.report, (0,build_data/* reportIdentity */.he)(input.report), { readFrom: input.source, ...(input.artifact ? { artifact: input.artifact } : {}) });
}
async function buildDashboard(request) {
    const log = request.log ?? (() => undefined);
    // Redacted as data, before it is serialised (the store's lines, the page's data.js) and its < > &
    // escaped: an escaped secret no longer looks like one.
    const secrets = (0,io_secrets/* secretsFromEnv */.zr)(process.env);
    // The report the page reads of a summary: it shares the summary's small parts, and the summary
    // itself is let go (a store's summaries are never all held beside the page's reports).
    const pageInput = (summary) => ({ report: redactedData((0,history_summary/* reportOfSummary */.ib)(summary), secrets), source: (0,io_secrets/* redact */.E$)(summary.provenance.readFrom, secrets) });
    const store = request.history ? await readHistoryStore(request.history, undefined, pageInput) : emptyHistoryStore();
    const skipped = [];
    // Downloaded first (the artifacts' reports are held as they come), so that a failed download
    // leaves the store as it was; read after the folders' reports, as given.
    let downloaded = [];
    if (request.artifacts) {
        const query = request.history ? { ...request.artifacts.query, seenArtifacts: store.artifacts } : request.artifacts.query;
        const got = await downloadReportArtifacts(query, { ...request.artifacts.access, log });
        log(`downloaded ${got.inputs.length} reports from ${got.runs} runs${request.history ? ` (${got.alreadySeen} artifacts already in the history, not downloaded)` : ''}`);
        if (request.artifacts.saveTo)
            log(`saved ${await saveReports(request.artifacts.saveTo, got.inputs)} reports under ${request.artifacts.saveTo}`);
        downloaded = got.inputs;
        skipped.push(...got.skipped);
    }
    // Each report is summarised as soon as it is read, and the report dropped.
    const found = request.inputs.length ? await (0,reports/* findReportFiles */.jU)(request.inputs) : [];
    // The same report read twice (a saved copy and its artifact, or one already in the store) is one point.
    const firstSeen = (input) => {
        const summary = dashboardSummary(input);
        if (store.ids.has(summary.id))
            return undefined;
        store.ids.add(summary.id);
        return summary;
    };
    async function* newSummaries() {
        for (const file of found) {
            let input;
            try {
                input = { report: (0,bounded_report/* boundReport */.N)(await (0,reports/* loadReport */.N1)(file.path)), source: file.path };
            }
            catch (error) {
                if (!(error instanceof errors/* InputError */.dz))
                    throw error;
                skipped.push({ source: file.path, reason: error.expected });
                continue;
            }
            const summary = firstSeen(input);
            if (summary)
                yield summary;
        }
        for (const [i, input] of downloaded.entries()) {
            downloaded[i] = undefined;
            const summary = firstSeen(input);
            if (summary)
                yield summary;
        }
    }
    let fresh;
    if (request.history) {
        // Each new summary is written to the store as it is made, and the page drawn from the store's
        // lines: a first import of a year of reports never holds the reports' summaries while it reads
        // them (so what the reading leaves behind is collected at a small heap), and what the page
        // draws of a report is its line in the store.
        const path = request.history;
        const lines = (async function* () {
            for await (const summary of newSummaries())
                yield historyLine(redactedData(summary, secrets));
        })();
        const offset = await appendHistoryLines(path, lines);
        fresh = (await readHistoryStore(path, { offset, after: store }, pageInput)).summaries;
        log(`history ${path}: ${store.summaries.length} reports held, ${fresh.length} added`);
    }
    else {
        // Names repeat from report to report: each is held once.
        const names = store.names;
        const intern = (text) => names.get(text) ?? (names.set(text, text), text);
        fresh = [];
        for await (const summary of newSummaries()) {
            for (const k of summary.kernels) {
                k.name = intern(k.name);
                k.family = intern(k.family);
            }
            fresh.push(pageInput(summary));
        }
    }
    const inputs = [...store.summaries, ...fresh];
    const added = request.history ? fresh.length : 0;
    if (!inputs.length) {
        const why = skipped.length ? `; ${skipped.length} left out, the first: ${skipped[0].source}: ${skipped[0].reason}` : '';
        throw new errors/* UsageError */.eb(`dashboard: no valid report.json found${why}`);
    }
    const cleanSkipped = skipped.map((s) => ({ ...s, source: (0,io_secrets/* redact */.E$)(s.source, secrets), reason: (0,io_secrets/* redact */.E$)((0,errors/* withoutQuotedText */.sx)(s.reason), secrets) }));
    const { data, files } = buildSite(inputs, cleanSkipped, request.options);
    return { data, written: await writeSite(request.out, files), added };
}

// EXTERNAL MODULE: ./src/cli/flag-errors.ts
var flag_errors = __webpack_require__(9156);
// EXTERNAL MODULE: ./src/options/read.ts
var read = __webpack_require__(4800);
// EXTERNAL MODULE: ./src/version.ts
var version = __webpack_require__(311);
// EXTERNAL MODULE: ./src/report/inert-text.ts
var inert_text = __webpack_require__(8036);
;// CONCATENATED MODULE: ./src/cli/dashboard-command.ts
/**
 * `profile-gate dashboard --out DIR [INPUT...] [--from-artifacts ...]`: a static site (index.html,
 * data.js, dashboard.js, dashboard.css) from many report.json files: throughput with its confidence
 * band, family shares, top-kernel changes, findings and verdicts per workload, change points and the
 * open regressions on top. It needs no server: open index.html, or publish DIR to GitHub Pages.
 */








const DASHBOARD_HELP = `Usage: profile-gate dashboard --out DIR [options] [REPORT.json|DIR...]

Builds a static dashboard (DIR/index.html) from report.json files or directories of them, with
--from-artifacts from the report artifacts of a workflow's recent runs, and with --history FILE from
a history store (one summary per report) that it appends the reports it has not seen to.

${(0,read/* flagsHelp */.zo)('dashboard', ['output', 'dashboard'], 24)}

${(0,read/* flagsHelp */.zo)('dashboard', ['artifacts', 'publish'], 24, ['from-artifacts', 'repo', 'workflow', 'branch', 'limit', 'prefix'])}
`;
/** `1 workload`, `2 workloads`. */
function plural(count, one) {
    return `${count} ${count === 1 ? one : `${one}s`}`;
}
async function runDashboardCommand(argv, env = process.env) {
    const config = { args: argv, allowPositionals: true, strict: true, options: (0,read/* flagOptions */.vo)('dashboard') };
    const { values, positionals } = (0,external_node_util_.parseArgs)(config);
    (0,flag_errors/* refuseRepeatedFlags */.k)(config, 'dashboard');
    const options = (0,read/* readFlags */.uW)(values, 'dashboard', env);
    const out = options.outDir;
    if (!out)
        throw new errors/* UsageError */.eb('dashboard: expected --out DIR; see profile-gate dashboard --help');
    if (!options.fromArtifacts && positionals.length === 0 && !options.history)
        throw new errors/* UsageError */.eb('dashboard: expected report.json files or directories, --from-artifacts, or --history FILE');
    let artifacts;
    if (options.fromArtifacts) {
        const limits = (0,github_limits/* limitsFromEnv */.E9)(env);
        const repository = options.repo;
        if (!repository)
            throw new errors/* UsageError */.eb('dashboard --from-artifacts: expected --repo OWNER/NAME (or GITHUB_REPOSITORY)');
        if (!options.workflow)
            throw new errors/* UsageError */.eb('dashboard --from-artifacts: expected --workflow FILE, e.g. nightly.yml');
        if (!env['GITHUB_TOKEN'])
            throw new errors/* UsageError */.eb("dashboard --from-artifacts: GITHUB_TOKEN is not set (a token with 'actions: read')");
        artifacts = {
            query: {
                repository,
                workflow: options.workflow,
                branch: options.workflowBranch,
                limit: options.limit,
                prefix: options.artifactPrefix,
                events: options.events,
            },
            access: {
                token: env['GITHUB_TOKEN'],
                apiUrl: (env['GITHUB_API_URL'] || 'https://api.github.com').replace(/\/+$/, ''),
                serverUrl: (env['GITHUB_SERVER_URL'] || 'https://github.com').replace(/\/+$/, ''),
                limits: limits.http,
                retry: limits.retry,
                artifactLimits: limits.artifacts,
            },
            ...(options.saveReports ? { saveTo: options.saveReports } : {}),
        };
    }
    else if (values['repo'] || values['workflow'] || values['limit'] || values['save-reports']) {
        // Given on the command line, not taken from the environment or the defaults.
        throw new errors/* UsageError */.eb('dashboard: --repo, --workflow, --limit and --save-reports go with --from-artifacts');
    }
    if (options.seed !== undefined) {
        process.stderr.write('profile-gate dashboard: --seed has no effect: change points are found without random draws, so the same history gives the same page\n');
    }
    const { data, written } = await buildDashboard({
        out,
        inputs: positionals,
        ...(artifacts ? { artifacts } : {}),
        ...(options.history ? { history: options.history } : {}),
        options: {
            generatedAt: new Date().toISOString(),
            serverUrl: env['GITHUB_SERVER_URL'] || 'https://github.com',
            ...(options.dashboardTitle ? { title: options.dashboardTitle } : {}),
            ...(options.dashboardMetric ? { metric: options.dashboardMetric } : {}),
            topN: options.dashboardTop,
            minChange: options.minChange,
        },
        log: (line) => process.stderr.write(`profile-gate dashboard: ${(0,inert_text/* inertLine */.Fq)(line)}\n`),
    });
    // Artifact, workload and commit names come from the reports: printed inert.
    for (const skipped of data.skipped)
        process.stderr.write(`profile-gate dashboard: ${(0,inert_text/* inertLine */.Fq)(`left out ${skipped.source}: ${skipped.reason}`)}\n`);
    const lines = data.regressions.map((r) => {
        const w = data.workloads[r.workload];
        return (0,inert_text/* inertLine */.Fq)(`  open regression ${(r.latestRelative * 100).toFixed(1)}% ${w.name} since ${w.points.commit[r.index]?.slice(0, 7) || 'an unknown commit'}`);
    });
    process.stdout.write(`profile-gate dashboard ${version/* TOOL_VERSION */.w}: ${plural(data.reportCount, 'report')}, ${plural(data.workloads.length, 'workload')}, ${plural(data.regressions.length, 'open regression')}\n${lines.join('\n')}${lines.length ? '\n' : ''}wrote ${written[0]}\n`);
    return errors/* EXIT_OK */.Ij;
}


/***/ }),

/***/ 3965:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   Cp: () => (/* binding */ PRIVATE_KEY_END),
/* harmony export */   E$: () => (/* binding */ redact),
/* harmony export */   FI: () => (/* binding */ redactValue),
/* harmony export */   FL: () => (/* binding */ isEnvironmentBlock),
/* harmony export */   Rd: () => (/* binding */ redactText),
/* harmony export */   SS: () => (/* binding */ stripEnvironmentValues),
/* harmony export */   XF: () => (/* binding */ REDACTED),
/* harmony export */   _g: () => (/* binding */ longestSecretBytes),
/* harmony export */   lh: () => (/* binding */ PRIVATE_KEY_START),
/* harmony export */   mt: () => (/* binding */ findSecret),
/* harmony export */   zr: () => (/* binding */ secretsFromEnv)
/* harmony export */ });
/* unused harmony exports isCredentialName, isCredentialFlag, NO_SECRETS, encodedForms, mergeSecrets, redactArgvPairs, secretBytes */
/**
 * Secrets kept out of everything that leaves the runner: the job log, the summary, the comment,
 * the outputs and the artifacts. A secret is known three ways:
 * - by its variable: the value of any environment variable whose name says it holds a credential
 *   (HF_TOKEN, WANDB_API_KEY, AWS_SECRET_ACCESS_KEY, …) or that the workflow names (`redact-env`);
 * - by its shape: token formats that announce themselves (hf_…, ghp_…, github_pat_…, sk-…, AKIA…,
 *   xox?-…, glpat-…, JWTs, PEM private keys), wherever they appear;
 * - by its place: the value of a credential-named assignment in text (`HF_TOKEN=…`, `"api_key": "…"`,
 *   `--hf-token …=`), even when the variable was never in this process's environment.
 * Pure: the doors hand in the environment.
 */
/** What replaces a secret. */
const REDACTED = '***';
/** Values shorter than this are never redacted by value: `true`, `1` or `none` would mangle text. */
const SHORTEST_SECRET = 8;
/** Name segments that mark a credential (compared whole, so `max_new_tokens` is not a token). */
const CREDENTIAL_SEGMENTS = new Set(['token', 'secret', 'password', 'passwd', 'passphrase', 'apikey', 'credential', 'credentials', 'cookie', 'auth', 'authorization', 'pat']);
/** A `_KEY` name is a credential after one of these (API_KEY, SECRET_ACCESS_KEY), or when written as an environment variable. */
const KEY_QUALIFIERS = new Set(['api', 'access', 'private', 'secret', 'session', 'signing', 'encryption', 'master', 'license', 'account', 'service', 'client']);
/** Whether a variable or field of this name holds a credential. */
function isCredentialName(fullName) {
    // An action input's variable is judged by the input's own name: INPUT_KEY is the `key` input, not a key.
    const name = fullName.replace(/^INPUT_/, '');
    const segments = name.split(/[^A-Za-z0-9]+|(?<=[a-z])(?=[A-Z])/).filter(Boolean).map((s) => s.toLowerCase());
    if (segments.some((s) => CREDENTIAL_SEGMENTS.has(s)))
        return true;
    const last = segments.length - 1;
    if (last >= 1 && segments[last] === 'key')
        return KEY_QUALIFIERS.has(segments[last - 1]) || /^[A-Z0-9_]+$/.test(name);
    return false;
}
/** `_KEY` flags that name no credential (`--cache-key`, `--sort-key`). */
const PLAIN_KEY_FLAG = /(?:^|[-_])(?:cache|sort|group|partition|dict|hash|lookup|index|metric|config|primary|foreign|kernel|join|shard|routing|order|row|column|map|dataset|data|text|label|input|output|prompt|model)[-_]?key$/i;
/** Whether a command-line flag (without its dashes) takes a credential: a credential name, or any other `-key` (`--wandb-key`, `--hf-key`). */
function isCredentialFlag(name) {
    return isCredentialName(name) || (/[-_]key$/i.test(name) && !PLAIN_KEY_FLAG.test(name));
}
/** Token formats that say what they are; matched anywhere, also after an underscore (`kernel_ghp_…`). */
const CREDENTIAL_SHAPES = [
    /(?<![A-Za-z0-9])hf_[A-Za-z0-9]{20,}/g,
    /(?<![A-Za-z0-9])gh[pousr]_[A-Za-z0-9]{20,}/g,
    /(?<![A-Za-z0-9])github_pat_[A-Za-z0-9_]{20,}/g,
    /(?<![A-Za-z0-9])glpat-[A-Za-z0-9_-]{20,}/g,
    /(?<![A-Za-z0-9])sk-(?:ant-|proj-)?[A-Za-z0-9_-]{20,}/g,
    /(?<![A-Za-z0-9])(?:AKIA|ASIA)[0-9A-Z]{16}\b/g,
    /(?<![A-Za-z0-9])xox[abposr]-[A-Za-z0-9-]{10,}/g,
    /(?<![A-Za-z0-9])AIza[0-9A-Za-z_-]{35}/g,
    /(?<![A-Za-z0-9])npm_[A-Za-z0-9]{36}/g,
    /(?<![A-Za-z0-9])eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}/g,
    /(?<![A-Za-z0-9])Bearer\s+[A-Za-z0-9._~+/-]{16,}=*/g,
    // HTTP basic credentials: base64 of user:password.
    /(?<![A-Za-z0-9])Basic\s+[A-Za-z0-9+/]{8,}=*/g,
    // PEM private keys and PGP private key blocks.
    /-----BEGIN [A-Z ]*PRIVATE KEY(?: BLOCK)?-----[\s\S]*?-----END [A-Z ]*PRIVATE KEY(?: BLOCK)?-----/g,
];
/** The start of a private key block: text after it is held back until its end is seen (scrub-uploads.ts). */
const PRIVATE_KEY_START = /-----BEGIN [A-Z ]*PRIVATE KEY(?: BLOCK)?-----/g;
const PRIVATE_KEY_END = /-----END [A-Z ]*PRIVATE KEY(?: BLOCK)?-----/g;
/**
 * `NAME=value`, `NAME="value"`, `"name": "value"`, `name: value`, `--name=value`: the name, what
 * joins it to the value, and the value (up to a space, a quote, a separator or a NUL).
 */
const ASSIGNMENT = /([A-Za-z_][A-Za-z0-9_.-]*)("?[ \t]*[:=][ \t]*["']?)([^\s"'\x00,;&|<>`]+)/g;
/**
 * `--name VALUE` (argparse's usual form; also `-name VALUE`): a flag, the spaces (and an opening
 * quote), and the next word when it is not itself a flag. Only a word is taken, so that `-c 'cmd
 * --token VALUE'` still reaches the flag inside the quotes.
 */
const FLAG_VALUE = /(?<![A-Za-z0-9_-])(--?[A-Za-z][A-Za-z0-9_.-]*)([ \t]+["']?)([^\s"'\x00,;&|<>`-][^\s"'\x00,;&|<>`]*)/g;
const NO_SECRETS = { values: [], names: [] };
/**
 * The secret values of an environment: every credential-named variable's value, and those of the
 * variables named in `extraNames` (the workflow's own list), each at least SHORTEST_SECRET long.
 */
function secretsFromEnv(env, extraNames = []) {
    const extra = new Set(extraNames);
    const found = new Map();
    for (const [name, value] of Object.entries(env)) {
        if (value === undefined || value.length < SHORTEST_SECRET)
            continue;
        if (!extra.has(name) && !isCredentialName(name))
            continue;
        for (const candidate of [value, value.trim()]) {
            if (candidate.length < SHORTEST_SECRET)
                continue;
            for (const form of encodedForms(candidate))
                if (!found.has(form))
                    found.set(form, name);
        }
    }
    const values = [...found.keys()].sort((a, b) => b.length - a.length);
    return { values, names: [...new Set(found.values())].sort() };
}
/**
 * A value and the forms it takes when written by other code: URL-encoded (`%2F`, `+` for a space),
 * JSON-escaped (`\"`, `\/`, and `\u00fc` for every non-ASCII character, as Python's json writes
 * it), and base64 at each of the three alignments it can fall on inside a longer encoded text
 * (`Basic base64(user:token)`): the characters that encode only the value's own bytes. Forms
 * shorter than SHORTEST_SECRET are left out (too likely to occur by chance).
 */
function encodedForms(value) {
    const forms = new Set([value]);
    const url = encodeURIComponent(value);
    forms.add(url);
    forms.add(url.replace(/%20/g, '+'));
    forms.add(url.replace(/%[0-9A-F]{2}/g, (hex) => hex.toLowerCase()));
    const json = JSON.stringify(value).slice(1, -1);
    forms.add(json);
    forms.add(json.replace(/\//g, '\\/'));
    forms.add(json.replace(/[\u007f-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`));
    const bytes = Buffer.from(value, 'utf8');
    for (let shift = 0; shift < 3; shift++) {
        const encoded = Buffer.concat([Buffer.alloc(shift), bytes]).toString('base64');
        // Characters that mix in a neighbour's bits: the first ones (from the padding) and the last group.
        const skip = shift === 0 ? 0 : shift === 1 ? 2 : 3;
        const full = Math.floor((shift + bytes.length) / 3) * 4;
        const form = encoded.slice(skip, full);
        forms.add(form);
    }
    return [...forms].filter((form) => form.length >= SHORTEST_SECRET);
}
/** Both sets at once (this job's secrets and another's). */
function mergeSecrets(a, b) {
    const values = [...new Set([...a.values, ...b.values])].sort((x, y) => y.length - x.length);
    return { values, names: [...new Set([...a.names, ...b.names])].sort() };
}
/** The text with every known secret, credential-shaped token and credential assignment replaced. */
function redactText(text, secrets) {
    let count = 0;
    let out = text;
    for (const value of secrets.values) {
        if (!out.includes(value))
            continue;
        const parts = out.split(value);
        count += parts.length - 1;
        out = parts.join(REDACTED);
    }
    for (const shape of CREDENTIAL_SHAPES) {
        shape.lastIndex = 0;
        if (!shape.test(out))
            continue;
        shape.lastIndex = 0;
        out = out.replace(shape, () => {
            count += 1;
            return REDACTED;
        });
    }
    if (out.includes('-')) {
        out = out.replace(FLAG_VALUE, (whole, flag, space, value) => {
            if (value === REDACTED || value.length < SHORTEST_SECRET / 2 || !isCredentialFlag(flag.replace(/^-+/, '')))
                return whole;
            count += 1;
            return `${flag}${space}${REDACTED}`;
        });
    }
    if (out.includes('=') || out.includes(':')) {
        out = out.replace(ASSIGNMENT, (whole, name, joiner, value) => {
            const credential = name.startsWith('-') ? isCredentialFlag(name.replace(/^-+/, '')) : isCredentialName(name);
            if (value === REDACTED || value.length < SHORTEST_SECRET / 2 || !credential)
                return whole;
            count += 1;
            return `${name}${joiner}${REDACTED}`;
        });
    }
    return { text: out, count };
}
/**
 * An argv held as a list: the word after a credential-named flag (`['--wandb-key', VALUE]`) is a
 * credential, which no single word's redaction can tell. Other lists are returned as they are.
 */
function redactArgvPairs(list, counted = () => undefined) {
    let out;
    for (let i = 0; i + 1 < list.length; i++) {
        const flag = list[i];
        const value = list[i + 1];
        if (typeof flag !== 'string' || typeof value !== 'string' || !/^--?[A-Za-z][A-Za-z0-9_.-]*$/.test(flag) || value.startsWith('-') || value === REDACTED)
            continue;
        if (value.length < SHORTEST_SECRET / 2 || !isCredentialFlag(flag.replace(/^-+/, '')))
            continue;
        out ??= [...list];
        out[i + 1] = REDACTED;
        counted();
    }
    return out ?? list;
}
/** Only the text (for log lines and messages). */
function redact(text, secrets) {
    return redactText(text, secrets).text;
}
/**
 * Every string of a JSON-like value redacted (a report, run.json), keys included; other values kept.
 * Returns a new value; the count is of replacements made.
 */
function redactValue(value, secrets) {
    let count = 0;
    const walk = (v) => {
        if (typeof v === 'string') {
            const r = redactText(v, secrets);
            count += r.count;
            return r.text;
        }
        if (Array.isArray(v))
            return redactArgvPairs(v.map(walk), () => (count += 1));
        if (v && typeof v === 'object') {
            const out = Object.create(Object.getPrototypeOf(v) === null ? null : Object.prototype);
            for (const [k, item] of Object.entries(v)) {
                // A credential-named field keeps its name and loses its value.
                if (typeof item === 'string' && item.length >= SHORTEST_SECRET / 2 && isCredentialName(k)) {
                    count += 1;
                    out[walk(k)] = REDACTED;
                }
                else
                    out[walk(k)] = walk(item);
            }
            return out;
        }
        return v;
    };
    return { value: walk(value), count };
}
/** The first known secret value found in these bytes (its variable is not said: only that one is there). */
function findSecret(bytes, secrets) {
    const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    return secrets.values.find((value) => secretBytes(value).some((form) => buffer.includes(form)));
}
const bytesCache = new Map();
/** A value's bytes as files hold it: UTF-8, UTF-16LE and UTF-16BE. */
function secretBytes(value) {
    let forms = bytesCache.get(value);
    if (!forms) {
        const le = Buffer.from(value, 'utf16le');
        forms = [Buffer.from(value, 'utf8'), le, Buffer.from(le).swap16()];
        if (bytesCache.size > 1000)
            bytesCache.clear();
        bytesCache.set(value, forms);
    }
    return forms;
}
/** The longest byte form of any value (how much a streamed search keeps between chunks). */
function longestSecretBytes(secrets) {
    return Math.max(0, ...secrets.values.map((v) => Math.max(...secretBytes(v).map((b) => b.length))));
}
/**
 * An environment block (the whole environment as one string: nsys keeps it so): three or more
 * `NAME=` words separated by spaces, NULs or new lines. Every value in it is removed, not only the
 * credentials: the environment is nobody's business outside the runner.
 */
const ENV_WORD = /(^|[\s\x00])([A-Z_][A-Z0-9_]+)=("[^"\x00\n]*"|[^\s\x00]*)/g;
/** A variable every process environment has: tells an environment from a list of template arguments. */
const ALWAYS_SET = new Set(['PATH', 'HOME', 'PWD', 'USER', 'LANG', 'SHELL', 'LD_LIBRARY_PATH', 'LD_PRELOAD']);
function isEnvironmentBlock(text) {
    let n = 0;
    let common = false;
    ENV_WORD.lastIndex = 0;
    for (let m = ENV_WORD.exec(text); m; m = ENV_WORD.exec(text)) {
        n += 1;
        if (ALWAYS_SET.has(m[2]))
            common = true;
        if (n >= 3 && common)
            return true;
    }
    return false;
}
/** The block with every value removed: `PATH=/usr/bin HF_TOKEN=hf_…` → `PATH=*** HF_TOKEN=***`. */
function stripEnvironmentValues(text) {
    return text.replace(ENV_WORD, (_whole, before, name) => `${before}${name}=${REDACTED}`);
}


/***/ }),

/***/ 4114:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   N: () => (/* binding */ boundReport)
/* harmony export */ });
/* unused harmony export BOUNDED_REPORT */
const BOUNDED_REPORT = {
    kernels: 200,
    listRows: 100,
    samples: 1000,
};
function top(list, n) {
    return list.length > n ? list.slice(0, n) : [...list];
}
function boundReport(report) {
    const cut = [];
    const keep = (what, list, n) => {
        if (list.length > n)
            cut.push(`${what} ${n} of ${list.length}`);
        return top(list, n);
    };
    const bounded = {
        ...report,
        sources: keep('sources', report.sources, BOUNDED_REPORT.listRows),
        kernels: keep('kernels', report.kernels, BOUNDED_REPORT.kernels),
        families: keep('families', report.families, BOUNDED_REPORT.listRows),
        metrics: keep('metrics', report.metrics, BOUNDED_REPORT.listRows).map((m) => (m.samples.length > BOUNDED_REPORT.samples ? { ...m, samples: m.samples.slice(0, BOUNDED_REPORT.samples) } : m)),
        memops: keep('memory operations', report.memops, BOUNDED_REPORT.listRows),
        apiCalls: keep('API calls', report.apiCalls, BOUNDED_REPORT.listRows),
        cpuFunctions: keep('CPU functions', report.cpuFunctions, BOUNDED_REPORT.listRows),
        notices: keep('notices', report.notices, BOUNDED_REPORT.listRows),
        skippedInputs: keep('skipped inputs', report.skippedInputs, BOUNDED_REPORT.listRows),
        deepDive: keep('Nsight Compute results', report.deepDive, BOUNDED_REPORT.listRows),
        findings: keep('findings', report.findings, BOUNDED_REPORT.listRows),
        decision: { ...report.decision, causes: keep('causes of the verdict', report.decision.causes, BOUNDED_REPORT.kernels) },
        timeline: report.timeline ? { ...report.timeline, steps: top(report.timeline.steps, BOUNDED_REPORT.samples) } : null,
        comparison: report.comparison
            ? { ...report.comparison, rows: keep('comparison rows', report.comparison.rows, BOUNDED_REPORT.kernels), kernelChanges: keep('kernel changes', report.comparison.kernelChanges, BOUNDED_REPORT.kernels) }
            : null,
    };
    if (cut.length)
        bounded.notices = [...bounded.notices, { code: 'read-back-in-part', severity: 'info', message: `read back in part: ${cut.join(', ')} kept (the artifact holds the whole report)` }];
    return bounded;
}


/***/ })

};
