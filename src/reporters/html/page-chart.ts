/**
 * The summary chart of a run with variants: part of the page script's closure (it uses `el`, `$`, `header`, `usd`,
 * `pct`, `count`). An inline SVG scatter, one labelled point per variant: x = cost per case, or tokens per case when
 * some variant's cost is unknown (the axis says which); y = accuracy with its 95% interval as an error bar.
 */
export const CHART_SCRIPT = String.raw`
  var SVG_NS = 'http://www.w3.org/2000/svg';
  function svg(tag, attrs, text) {
    var node = document.createElementNS(SVG_NS, tag);
    Object.keys(attrs).forEach(function (k) { node.setAttribute(k, String(attrs[k])); });
    if (text !== undefined) node.textContent = text;
    return node;
  }

  function chartAxis(list) {
    if (list.every(function (v) { return v.costPerCaseUsd !== null; }))
      return { label: 'cost per case (USD)', of: function (v) { return v.costPerCaseUsd; }, format: usd };
    if (list.every(function (v) { return v.tokensPerCase !== null; }))
      return { label: 'tokens per case (cost unknown)', of: function (v) { return v.tokensPerCase; }, format: function (t) { return count(Math.round(t)); } };
    return null;
  }

  function renderChart() {
    var all = header.variants ? header.variants.variants : [];
    var list = all.filter(function (v) { return v.accuracy !== null; });
    var axis = chartAxis(list);
    if (list.length === 0 || !axis) return;
    var suites = new Set(all.map(function (v) { return v.suite; }));
    var W = 520, H = 260, L = 56, R = 150, T = 14, B = 44;
    var top = Math.max.apply(null, list.map(axis.of)), max = top * 1.1 || 1;
    function x(value) { return L + (value / max) * (W - L - R); }
    function y(value) { return T + (1 - value) * (H - T - B); }
    var chart = svg('svg', { viewBox: '0 0 ' + W + ' ' + H, width: W, height: H, role: 'img' });
    chart.appendChild(svg('title', {}, 'Accuracy vs ' + axis.label + ', one point per variant'));
    [0, 0.25, 0.5, 0.75, 1].forEach(function (tick) {
      chart.appendChild(svg('line', { x1: L, x2: W - R, y1: y(tick), y2: y(tick), stroke: '#d0d7de' }));
      chart.appendChild(svg('text', { x: L - 6, y: y(tick) + 4, 'text-anchor': 'end', 'font-size': 11, fill: '#656d76' }, pct(tick)));
    });
    (top > 0 ? [0, max / 2, max] : [0]).forEach(function (tick) {
      chart.appendChild(svg('text', { x: x(tick), y: H - B + 16, 'text-anchor': 'middle', 'font-size': 11, fill: '#656d76' }, axis.format(tick)));
    });
    chart.appendChild(svg('line', { x1: L, x2: W - R, y1: H - B, y2: H - B, stroke: '#656d76' }));
    chart.appendChild(svg('text', { 'class': 'x-axis', x: (L + W - R) / 2, y: H - 6, 'text-anchor': 'middle', 'font-size': 12 }, axis.label));
    chart.appendChild(svg('text', { 'class': 'y-axis', x: 12, y: (T + H - B) / 2, 'text-anchor': 'middle', 'font-size': 12,
      transform: 'rotate(-90 12 ' + (T + H - B) / 2 + ')' }, 'accuracy (95% CI)'));
    list.forEach(function (v) {
      var name = (suites.size > 1 ? v.suite + ' › ' : '') + v.variant;
      var px = x(axis.of(v)), acc = v.accuracy;
      var point = svg('g', { 'class': 'point' });
      point.dataset.variant = name;
      point.appendChild(svg('title', {}, name + ': accuracy ' + pct(acc.value) + ' (' + pct(acc.interval.low) + '–' + pct(acc.interval.high) + '), ' +
        axis.format(axis.of(v)) + ' ' + axis.label.split(' (')[0]));
      point.appendChild(svg('line', { x1: px, x2: px, y1: y(acc.interval.low), y2: y(acc.interval.high), stroke: '#0969da' }));
      [acc.interval.low, acc.interval.high].forEach(function (end) {
        point.appendChild(svg('line', { x1: px - 4, x2: px + 4, y1: y(end), y2: y(end), stroke: '#0969da' }));
      });
      point.appendChild(svg('circle', { cx: px, cy: y(acc.value), r: 4.5, fill: v.baseline ? '#1b1f24' : '#0969da' }));
      point.appendChild(svg('text', { x: px + 8, y: y(acc.value) + 4, 'font-size': 12 }, name + (v.baseline ? ' (baseline)' : '')));
      chart.appendChild(point);
    });
    var figure = el('figure');
    figure.id = 'chart';
    figure.appendChild(chart);
    var left = all.length - list.length;
    figure.appendChild(el('figcaption', 'hint', 'Accuracy vs ' + axis.label + ' per variant' + (left ? ' · ' + left + ' without a verdict left out' : '')));
    $('cards').parentNode.insertBefore(figure, $('gate'));
  }
`
