/**
 * The page script's first half (browser JavaScript, kept as text): DOM and SVG helpers, formatting,
 * links, and the three charts of a workload card drawn as inline SVG on one shared x axis (one slot
 * per run). Every piece of report text goes into a text node or an attribute set with setAttribute;
 * links are rebuilt from checked parts and must be https. No template literals in here: the text
 * is a String.raw template itself (its only substitutions: the verdicts' order and drawing, from data.ts).
 */
import { VERDICT_DRAWING, VERDICT_ORDER } from './data.js';

/** A value as JavaScript source in ASCII alone (the script's text stays 7-bit, whatever the page's charset). */
const ascii = (value: unknown): string => JSON.stringify(value).replace(/[\u007f-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);

export const PAGE_CHARTS = String.raw`
var SVGNS = 'http://www.w3.org/2000/svg';
var SCALE = 10000;
var VERDICTS = ${ascii(VERDICT_ORDER)};
var VERDICT_SYMBOL = ${ascii(VERDICT_ORDER.map((verdict) => VERDICT_DRAWING[verdict].symbol))};
var SEVERITIES = ['info', 'warning', 'error'];
/* Okabe-Ito, the colour-blind safe palette; "other" is grey. Bands also carry hatching and direct labels. */
var PALETTE = ['#E69F00', '#56B4E9', '#009E73', '#F0E442', '#0072B2', '#D55E00', '#CC79A7'];
var OTHER_COLOUR = '#BBBBBB';
var BAD = '#D55E00', GOOD = '#009E73';
var VERDICT_FILL = ${ascii(VERDICT_ORDER.map((verdict) => VERDICT_DRAWING[verdict].fill))};
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
