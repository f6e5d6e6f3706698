/**
 * The summary chart of a run with variants: part of the page script's closure (it uses `el`, `$`, `header`, `usd`,
 * `pct`, `count`, `ms`). An inline SVG scatter, one labelled point per variant: x = cost per case, else tokens per
 * case, else latency p50 — the first known for every variant and not 0 for all (the axis says which); y = accuracy
 * with its 95% interval as an error bar.
 */
export const CHART_SCRIPT = String.raw`
  var SVG_NS = 'http://www.w3.org/2000/svg';
  var CHART = { W: 520, H: 260, L: 56, R: 150, T: 14, B: 44 };

  function svg(tag, attrs, text) {
    var node = document.createElementNS(SVG_NS, tag);
    Object.keys(attrs).forEach(function (k) { node.setAttribute(k, String(attrs[k])); });
    if (text !== undefined) node.textContent = text;
    return node;
  }
  function svgLine(x1, y1, x2, y2, stroke) { return svg('line', { x1: x1, y1: y1, x2: x2, y2: y2, stroke: stroke }); }
  function svgText(x, y, text, attrs) {
    var node = svg('text', { x: x, y: y, 'font-size': 11, fill: '#656d76' }, text);
    Object.keys(attrs || {}).forEach(function (k) { node.setAttribute(k, String(attrs[k])); });
    return node;
  }

  // the first measure every variant has and some variant is above 0 on: all at 0 (a target that reports no usage
  // counts 0 tokens) would stack every point on the y axis
  function chartAxis(list) {
    var axes = [
      { label: 'cost per case (USD)', unit: 'per case', of: function (v) { return v.costPerCaseUsd; }, format: usd },
      { label: 'tokens per case (cost unknown)', unit: 'tokens per case', of: function (v) { return v.tokensPerCase; },
        format: function (t) { return count(Math.round(t)); } },
      { label: 'latency p50 (cost and tokens unknown)', unit: 'latency p50',
        of: function (v) { return v.latencyMs === null ? null : v.latencyMs.p50; }, format: ms }
    ];
    return axes.find(function (axis) {
      var values = list.map(axis.of);
      return values.every(function (x) { return x !== null; }) && values.some(function (x) { return x > 0; });
    }) || null;
  }

  function chartPoint(v, name, x, y, axis) {
    var acc = v.accuracy, px = x(axis.of(v)), color = v.baseline ? '#1b1f24' : '#0969da';
    var point = svg('g', { 'class': 'point' });
    point.dataset.variant = name;
    point.appendChild(svg('title', {}, name + ': accuracy ' + pct(acc.value) + ' (' + pct(acc.interval.low) + '–' +
      pct(acc.interval.high) + '), ' + axis.format(axis.of(v)) + ' ' + axis.unit));
    point.appendChild(svgLine(px, y(acc.interval.low), px, y(acc.interval.high), color));
    [acc.interval.low, acc.interval.high].forEach(function (end) { point.appendChild(svgLine(px - 4, y(end), px + 4, y(end), color)); });
    point.appendChild(svg('circle', { cx: px, cy: y(acc.value), r: 4.5, fill: color }));
    point.appendChild(svgText(px + 8, y(acc.value) + 4, name + (v.baseline ? ' (baseline)' : ''), { 'font-size': 12, fill: '#1b1f24' }));
    return point;
  }

  function renderChart() {
    var all = header.variants ? header.variants.variants : [];
    var list = all.filter(function (v) { return v.accuracy !== null; });
    var axis = chartAxis(list);
    if (list.length === 0 || !axis) return;
    var suites = new Set(all.map(function (v) { return v.suite; }));
    var W = CHART.W, H = CHART.H, L = CHART.L, R = CHART.R, T = CHART.T, B = CHART.B;
    var top = Math.max.apply(null, list.map(axis.of)), max = top * 1.1 || 1;
    function x(value) { return L + (value / max) * (W - L - R); }
    function y(value) { return T + (1 - value) * (H - T - B); }
    var chart = svg('svg', { viewBox: '0 0 ' + W + ' ' + H, width: W, height: H, role: 'img' });
    chart.appendChild(svg('title', {}, 'Accuracy vs ' + axis.label + ', one point per variant'));
    [0, 0.25, 0.5, 0.75, 1].forEach(function (tick) {
      chart.appendChild(svgLine(L, y(tick), W - R, y(tick), '#d0d7de'));
      chart.appendChild(svgText(L - 6, y(tick) + 4, pct(tick), { 'text-anchor': 'end' }));
    });
    (top > 0 ? [0, max / 2, max] : [0]).forEach(function (tick) {
      chart.appendChild(svgText(x(tick), H - B + 16, axis.format(tick), { 'text-anchor': 'middle' }));
    });
    chart.appendChild(svgLine(L, H - B, W - R, H - B, '#656d76'));
    var middle = (T + H - B) / 2;
    chart.appendChild(svgText((L + W - R) / 2, H - 6, axis.label, { 'class': 'x-axis', 'text-anchor': 'middle', 'font-size': 12 }));
    chart.appendChild(svgText(12, middle, 'accuracy (95% CI)',
      { 'class': 'y-axis', 'text-anchor': 'middle', 'font-size': 12, transform: 'rotate(-90 12 ' + middle + ')' }));
    list.forEach(function (v) { chart.appendChild(chartPoint(v, (suites.size > 1 ? v.suite + ' › ' : '') + v.variant, x, y, axis)); });
    var figure = el('figure');
    figure.id = 'chart';
    figure.appendChild(chart);
    var left = all.length - list.length;
    figure.appendChild(el('figcaption', 'hint', 'Accuracy vs ' + axis.label + ' per variant' +
      (left ? ' · ' + left + ' without a verdict left out' : '')));
    $('cards').parentNode.insertBefore(figure, $('gate'));
  }
`
