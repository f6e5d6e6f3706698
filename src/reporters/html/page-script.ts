import { CHART_SCRIPT } from './page-chart.ts'
import { MATRIX_SCRIPT } from './page-matrix.ts'
import { SPANS_SCRIPT } from './page-spans.ts'

/**
 * Inline JavaScript of the HTML report (plain ES2020, no dependencies). It reads the embedded JSON, renders the
 * summary, filters, and a virtualized table that creates only the rows in view, and shows one case in detail; a run
 * with several variants also gets the accuracy-vs-cost chart and the cases × variants matrix.
 * Data only ever reaches the DOM through `textContent`, never as HTML, so hostile output stays inert.
 */
export const PAGE_SCRIPT = String.raw`
(function () {
  'use strict';
  var data = JSON.parse(document.getElementById('evals-data').textContent);
  var header = data.header, cases = data.cases;
  var ROW = 28, OVERSCAN = 10;
  var hasBaseline = cases.some(function (c) { return c.b !== undefined; });
  var STATUSES = ['passed', 'failed', 'errored', 'skipped'];
  var state = { statuses: new Set(STATUSES), tag: '', evaluator: '', text: '' };
  var shown = cases.map(function (_, i) { return i; });
  var selected = -1;
  var haystacks = null;
  var variants = variantNames();
  var matrix = null;

  function el(tag, cls, text) {
    var node = document.createElement(tag);
    if (cls) node.className = cls;
    if (text !== undefined && text !== null) node.textContent = String(text);
    return node;
  }
  function $(id) { return document.getElementById(id); }
  function ms(v) { return v === undefined || v === null ? '' : v < 1000 ? Math.round(v) + ' ms' : (v / 1000).toFixed(2) + ' s'; }
  function usd(v) { return v === undefined ? '' : v === null ? 'unknown' : v === 0 ? '$0' : '$' + (v < 0.01 ? v.toFixed(4) : v.toFixed(2)); }
  function pct(v) { return v === null || v === undefined ? 'n/a' : (v * 100).toFixed(1) + '%'; }
  function count(v) { return Number(v).toLocaleString('en-US'); }

  function renderHeader() {
    var run = header.run, sum = header.summary;
    var meta = ['run ' + run.id, run.startedAt];
    if (run.git) meta.push('commit ' + run.git.commit.slice(0, 12) + (run.git.branch ? ' (' + run.git.branch + ')' : ''));
    run.suites.forEach(function (s) { meta.push(s.name + (s.variant === undefined ? '' : ' [' + s.variant + ']') + ': ' + s.targetId + (s.model ? ' · ' + s.model : '')); });
    run.judges.forEach(function (j) { meta.push('judge ' + j.evaluator + (j.model ? ' · ' + j.model : '')); });
    meta.push('evals ' + run.cliVersion);
    $('meta').textContent = meta.join(' · ');
    var cards = [
      ['Accuracy', pct(sum.accuracy)],
      ['Passed', count(sum.counts.passed - (sum.counts.partial || 0))], ['Failed', count(sum.counts.failed)],
      ['Errored', count(sum.counts.errored)], ['Skipped', count(sum.counts.skipped)],
      ['Latency p50', sum.latencyMs ? ms(sum.latencyMs.p50) : 'n/a'],
      ['p95', sum.latencyMs ? ms(sum.latencyMs.p95) : 'n/a'], ['p99', sum.latencyMs ? ms(sum.latencyMs.p99) : 'n/a'],
      ['Cost', usd(sum.costUsd)], ['Duration', ms(run.durationMs)]
    ];
    if (sum.counts.partial > 0) cards.splice(2, 0, ['Partial', count(sum.counts.partial)]);
    if (sum.notRun > 0) cards.push(['Not run', count(sum.notRun)]);
    cards.forEach(function (c) { var card = el('div', 'card'); card.appendChild(el('b', '', c[1])); card.appendChild(el('span', '', c[0])); $('cards').appendChild(card); });
    if (header.gate) {
      var gate = el('div', 'box ' + header.gate.decision);
      gate.appendChild(el('b', '', 'Gate: ' + header.gate.decision));
      if (header.gate.minimumDetectableDrop !== undefined) gate.appendChild(el('span', 'sees', ' · sees drops of ≥ ' + (header.gate.minimumDetectableDrop * 100).toFixed(1) + ' points at 80% power'));
      var list = el('ul');
      header.gate.reasons.concat(header.gate.warnings).forEach(function (r) { list.appendChild(el('li', '', r)); });
      gate.appendChild(list);
      $('gate').appendChild(gate);
    }
    (header.comparison || []).forEach(function (c) {
      var box = el('div', 'box');
      var delta = c.accuracy.delta === null ? '' : ' (' + (c.accuracy.delta >= 0 ? '+' : '') + (c.accuracy.delta * 100).toFixed(1) + ' pts)';
      box.textContent = 'Baseline ' + c.suite + (c.variant === undefined ? '' : ' [' + c.variant + ']') + ': accuracy ' + pct(c.accuracy.baseline) + ' → ' + pct(c.accuracy.current) + delta +
        ' · ' + c.counts.regressed + ' regressed · ' + c.counts.improved + ' improved · ' + c.counts['new'] + ' new · ' + c.counts.removed + ' removed';
      if (c.power) box.appendChild(el('div', 'power', 'Power: ' + c.power));
      $('baseline').appendChild(box);
    });
  }

  function renderControls() {
    var counts = {}, tags = new Set(), evaluators = new Set();
    cases.forEach(function (c) {
      counts[c.st] = (counts[c.st] || 0) + 1;
      c.tags.forEach(function (t) { tags.add(t); });
      c.v.forEach(function (v) { evaluators.add(v.e); });
    });
    STATUSES.forEach(function (s) {
      var label = el('label'), box = el('input');
      box.type = 'checkbox'; box.checked = true; box.value = s; box.name = 'status';
      box.addEventListener('change', function () { if (box.checked) state.statuses.add(s); else state.statuses.delete(s); applyFilter(); });
      label.appendChild(box); label.appendChild(document.createTextNode(' ' + s + ' (' + count(counts[s] || 0) + ')'));
      $('statuses').appendChild(label);
    });
    Array.from(tags).sort().forEach(function (t) { var o = el('option', '', t); o.value = t; $('tag').appendChild(o); });
    Array.from(evaluators).sort().forEach(function (e) { var o = el('option', '', e); o.value = e; $('evaluator').appendChild(o); });
    $('tag').addEventListener('change', function (e) { state.tag = e.target.value; applyFilter(); });
    $('evaluator').addEventListener('change', function (e) { state.evaluator = e.target.value; applyFilter(); });
    var timer = 0;
    $('search').addEventListener('input', function (e) {
      clearTimeout(timer);
      var value = e.target.value;
      timer = setTimeout(function () { state.text = value.trim().toLowerCase(); applyFilter(); }, 80);
    });
    var head = document.querySelector('.row.head');
    ['Status', 'Case', 'Trial', 'Score', 'Latency', 'Cost', 'Why', hasBaseline ? 'Baseline' : ''].forEach(function (h) { head.appendChild(el('span', '', h)); });
  }

  function haystack(i) {
    if (!haystacks) haystacks = new Array(cases.length);
    var h = haystacks[i];
    if (h === undefined) {
      var c = cases[i];
      h = [c.s, c.id, c.vr || '', c.tags.join(' '), c.in || '', c.out || '', c.err || '', c.why || '', c.sn ? 'snapshot ' + c.sn.st : '',
        c.v.map(function (v) { return v.e + ' ' + v.r; }).join(' ')].join('\n').toLowerCase();
      haystacks[i] = h;
    }
    return h;
  }

  function applyFilter() {
    shown = [];
    for (var i = 0; i < cases.length; i++) {
      var c = cases[i];
      if (!state.statuses.has(c.st)) continue;
      if (state.tag && c.tags.indexOf(state.tag) === -1) continue;
      if (state.evaluator && !c.v.some(function (v) { return v.e === state.evaluator; })) continue;
      if (state.text && haystack(i).indexOf(state.text) === -1) continue;
      shown.push(i);
    }
    $('shown').textContent = count(shown.length) + ' of ' + count(cases.length) + ' case runs';
    $('spacer').style.height = shown.length * ROW + 'px';
    $('viewport').scrollTop = 0;
    drawn = '';
    draw();
    if (matrix) filterMatrix();
  }

  function why(c) {
    if (c.xf !== undefined && c.st !== 'passed' && c.st !== 'skipped') return 'known failure (expect_fail' + (c.xf ? ': ' + c.xf : '') + ') · ' + whyNot(c);
    return whyNot(c);
  }

  function whyNot(c) {
    if (c.st === 'errored') return c.err || '';
    if (c.st === 'skipped') return c.why || '';
    if (c.pa) return 'partial: ' + c.pa;
    var failing = c.v.filter(function (v) { return !v.p && !v.sk; });
    return failing.map(function (v) { return checkName(v) + ': ' + v.r; }).join(' · ');
  }

  var drawn = '';
  function draw() {
    var viewport = $('viewport');
    var first = Math.max(0, Math.floor(viewport.scrollTop / ROW) - OVERSCAN);
    var last = Math.min(shown.length, Math.ceil((viewport.scrollTop + viewport.clientHeight) / ROW) + OVERSCAN);
    var key = first + ':' + last + ':' + selected;
    if (key === drawn) return;
    drawn = key;
    var rows = $('rows');
    rows.textContent = '';
    rows.style.top = first * ROW + 'px';
    var fragment = document.createDocumentFragment();
    for (var n = first; n < last; n++) {
      var i = shown[n], c = cases[i];
      var row = el('div', 'row' + (n % 2 ? ' odd' : '') + (i === selected ? ' sel' : ''));
      row.setAttribute('role', 'row');
      row.dataset.index = String(i);
      row.appendChild(el('span', 'st ' + (c.pa ? 'partial' : c.st), c.pa ? 'partial' : c.xf !== undefined && c.st !== 'passed' && c.st !== 'skipped' ? c.st + ' (known)' : c.st));
      row.appendChild(el('span', '', caseName(c)));
      row.appendChild(el('span', '', c.t + 1));
      row.appendChild(el('span', '', c.sc === undefined ? '' : c.sc.toFixed(2)));
      row.appendChild(el('span', '', ms(c.lat)));
      row.appendChild(el('span', '', usd(c.cost)));
      row.appendChild(el('span', '', why(c)));
      row.appendChild(el('span', '', c.b || ''));
      fragment.appendChild(row);
    }
    rows.appendChild(fragment);
  }

  function caseName(c) { return c.s + ' › ' + c.id + (c.vr === undefined ? '' : ' [' + c.vr + ']'); }

  function checkName(v) { return (v.tn ? 'turn ' + v.tn + ' › ' : '') + v.e; }

  function verdictTable(list) {
    var table = el('table', 'kv');
    list.forEach(function (v) {
      var tr = el('tr');
      tr.appendChild(el('td', 'st ' + (v.sk ? 'skipped' : v.p ? 'passed' : 'failed'), v.sk ? 'skipped' : v.p ? 'pass' : 'fail'));
      tr.appendChild(el('td', '', v.e + (v.sc === undefined ? '' : ' (' + v.sc.toFixed(2) + ')')));
      var reason = el('td', '', v.r);
      if (v.d) reason.appendChild(el('pre', '', v.d));
      tr.appendChild(reason);
      table.appendChild(tr);
    });
    return table;
  }

  function showConversation(detail, c) {
    detail.appendChild(el('h3', '', 'Conversation'));
    c.cv.forEach(function (turn, at) {
      var box = el('div', 'turn');
      box.appendChild(el('h4', '', 'Turn ' + (at + 1) + ' · ' + ms(turn.ms) + (turn.tl === null ? ' · tools unknown' : turn.tl.length ? ' · tools: ' + turn.tl.join(', ') : '')));
      box.appendChild(el('pre', 'user', turn.u));
      box.appendChild(el('pre', 'reply', turn.o));
      var checks = c.v.filter(function (v) { return v.tn === at + 1; });
      if (checks.length) box.appendChild(verdictTable(checks));
      detail.appendChild(box);
    });
  }

  function section(parent, title, text) {
    parent.appendChild(el('h3', '', title));
    parent.appendChild(el('pre', '', text));
  }

  function showCase(i) {
    selected = i;
    if (matrix) matrix.open = null;
    drawn = '';
    draw();
    var c = cases[i], detail = $('detail');
    detail.textContent = '';
    renderCase(detail, c, caseName(c));
  }

  function renderCase(detail, c, title) {
    detail.appendChild(el('h2', '', title + (c.t > 0 ? ' (trial ' + (c.t + 1) + ')' : '')));
    var facts = el('p', 'hint', [c.st, c.sc === undefined ? '' : 'score ' + c.sc.toFixed(2), ms(c.ms),
      c.tok ? c.tok[0] + ' → ' + c.tok[1] + ' tokens' : c.tok === null ? 'tokens unknown' : '', usd(c.cost),
      c.ag ? 'answered by ' + c.ag : '', c.src && c.src !== 'target' ? 'via ' + c.src : '', c.tags.length ? 'tags ' + c.tags.join(', ') : '',
      c.b ? 'baseline: ' + c.b : ''].filter(Boolean).join(' · '));
    detail.appendChild(facts);
    if (c.err) section(detail, 'Error', c.err);
    if (c.why) section(detail, 'Skipped', c.why);
    if (c.pa) section(detail, 'Partly checked', c.pa);
    if (c.cv) showConversation(detail, c);
    else {
      if (c.in !== undefined) section(detail, 'Input', c.in);
      if (c.out !== undefined) section(detail, 'Output', c.out);
    }
    if (c.sn) section(detail, 'Snapshot: ' + c.sn.st + ' (' + c.sn.f + ')', c.sn.d || (c.sn.st === 'new' ? 'stored now' : 'same as stored'));
    var whole = c.v.filter(function (v) { return !v.tn; });
    if (whole.length) {
      detail.appendChild(el('h3', '', c.cv ? 'Verdicts on the whole conversation' : 'Verdicts'));
      detail.appendChild(verdictTable(whole));
    }
    if (c.tc === null) section(detail, 'Tool calls', 'unknown: the target does not report its tool calls');
    if (c.tc) {
      detail.appendChild(el('h3', '', 'Tool calls'));
      c.tc.forEach(function (call) {
        detail.appendChild(el('p', '', call.n + (call.ms === undefined ? '' : ' · ' + ms(call.ms))));
        detail.appendChild(el('pre', '', 'arguments: ' + call.a + (call.r !== undefined ? '\nresult: ' + call.r : '') + (call.err !== undefined ? '\nerror: ' + call.err : '')));
      });
    }
    if (c.rs) {
      detail.appendChild(el('h3', '', 'Reasoning'));
      c.rs.forEach(function (r) {
        var box = el('details', 'reasoning');
        box.appendChild(el('summary', '', 'Model call ' + r.i));
        box.appendChild(el('pre', '', r.t));
        detail.appendChild(box);
      });
    }
    if (c.tr) {
      detail.appendChild(el('h3', '', 'Trace'));
      var end = c.tr.reduce(function (m, s) { return Math.max(m, s.at + s.ms); }, 0) || 1;
      var line = el('div', 'timeline');
      c.tr.forEach(function (s) {
        var step = el('div', 'step');
        step.appendChild(el('span', 'label', s.ty + ' · ' + ms(s.ms) + ' · ' + s.l));
        var track = el('div', 'track'), bar = el('div', 'bar ' + s.ty);
        bar.style.left = (s.at / end) * 100 + '%';
        bar.style.width = (s.ms / end) * 100 + '%';
        bar.title = s.l;
        track.appendChild(bar);
        step.appendChild(track);
        line.appendChild(step);
      });
      detail.appendChild(line);
    }
    if (c.sp) renderSpans(detail, c.sp);
  }

  ${SPANS_SCRIPT}
  ${CHART_SCRIPT}
  ${MATRIX_SCRIPT}

  renderHeader();
  if (variants.length > 1) { renderChart(); renderMatrix(); }
  renderControls();
  $('viewport').addEventListener('scroll', draw, { passive: true });
  window.addEventListener('resize', function () { drawn = ''; draw(); });
  $('rows').addEventListener('click', function (e) {
    var row = e.target.closest('.row');
    if (row) showCase(Number(row.dataset.index));
  });
  applyFilter();
  document.body.dataset.ready = '1';
})();
`
