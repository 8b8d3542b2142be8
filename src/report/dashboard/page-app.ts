/**
 * The page script's second half (browser JavaScript, kept as text): the layout (open regressions on
 * top, one card per workload), the shared hover tooltip, the pinned run details with commit and run
 * links, and the tables. Marks `data-ready` on <html> with the milliseconds since navigation.
 */
import { CI_PERCENT } from '../number-format.js';

export const PAGE_APP = String.raw`
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
  if (p.low[i] !== null) text += ' (${CI_PERCENT}% CI ' + num(p.low[i], digits) + '\u2013' + num(p.high[i], digits) + ')';
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
  var table = add(h('table'), add(h('tr'), h('th', null, 'run'), h('th', null, 'commit'), h('th', { class: 'num' }, DATA.metric.unit), h('th', { class: 'num' }, '${CI_PERCENT}% CI'), h('th', { class: 'num' }, 'n'), h('th', null, 'verdict'), h('th', null, 'findings')));
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
    if (p.low[last] !== null) add(stats, add(h('div', { class: 'stat' }), h('span', { class: 'l' }, '${CI_PERCENT}% CI of the median'), h('span', { class: 'u' }, num(p.low[last], digits) + '\u2013' + num(p.high[last], digits))));
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
  if (measured) add(article, add(h('div', { class: 'section-title' }, DATA.metric.label), h('span', { class: 'hint' }, 'median per run, band: ${CI_PERCENT}% CI of the median, dashed: levels between change points')), metric.node);
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
