import { createRequire as __evalsCreateRequire } from 'node:module'; const require = __evalsCreateRequire(import.meta.url);
import{suiteKey}from"./chunk-NXCZSL4Z.js";import{reasoningOf}from"./chunk-IYJ5QCXV.js";import{powerSentence}from"./chunk-ZU475RL7.js";import{partialNote,truncate}from"./chunk-3FKX7FHN.js";import{openAtomic}from"./chunk-DAYHWMZM.js";import"./chunk-7VTHMDZS.js";import"./chunk-C7VENNVE.js";import{randomBytes}from"node:crypto";var NAME_CHARS=160,MAX_DEPTH=12;function pageSpansOf(transcript){let spans=transcript.spans?.spans;if(!spans||spans.length===0)return;let depthOf=index=>{let depth=0;for(let parent=spans[index]?.parent;parent!==void 0&&++depth!==MAX_DEPTH;parent=spans[parent]?.parent);return depth},start=Math.min(...spans.map(span=>span.startedAt));return{r:spans.map((span,index)=>({n:truncate(span.name,NAME_CHARS),d:depthOf(index),at:Math.round(span.startedAt-start),ms:Math.round(span.durationMs),e:span.status==="error"?truncate(span.error??"error",NAME_CHARS):null})),o:transcript.spans?.omitted??0}}var SPANS_SCRIPT=`
  function renderSpans(detail, sp) {
    detail.appendChild(el('h3', '', 'Spans'));
    var end = sp.r.reduce(function (m, s) { return Math.max(m, s.at + s.ms); }, 0) || 1;
    var fall = el('div', 'timeline waterfall');
    sp.r.forEach(function (s) {
      var row = el('div', 'step span-row' + (s.e === null ? '' : ' span-error'));
      var label = el('span', 'label', s.n + ' · ' + ms(s.ms) + (s.e === null ? '' : ' · error: ' + s.e));
      label.style.paddingLeft = s.d + 'em';
      row.appendChild(label);
      var track = el('div', 'track'), bar = el('div', 'bar span' + (s.e === null ? '' : ' error'));
      bar.style.left = (s.at / end) * 100 + '%';
      bar.style.width = (s.ms / end) * 100 + '%';
      bar.title = s.n;
      track.appendChild(bar);
      row.appendChild(track);
      fall.appendChild(row);
    });
    detail.appendChild(fall);
    if (sp.o > 0) detail.appendChild(el('p', '', sp.o + ' more spans were captured and left out of the report'));
  }
`;var PAGE_STRING_CHARS=1e4,LABEL_CHARS=160;function pageVerdict(verdict){let out={e:verdict.evaluator,p:verdict.pass};return verdict.score!==void 0&&(out.sc=verdict.score),out.r=text(verdict.reason),verdict.skipped===!0&&(out.sk=!0),verdict.details!==void 0&&(out.d=json(verdict.details)),verdict.turn!==void 0&&(out.tn=verdict.turn),out}function pageHeader(header){let{comparison,...rest}=header;if(!comparison)return rest;let variants=comparisonVariants(header);return{...rest,comparison:comparison.map(({cases:_cases,...summary},i)=>{let variant=variants[i],power=summary.paired===null?void 0:powerSentence(summary.paired);return{...summary,...variant!==void 0&&{variant},...power!==void 0&&{power}}})}}function baselineLookup(header){let lookup=new Map,variants=comparisonVariants(header);for(let[i,comparison]of(header.comparison??[]).entries()){let variant=variants[i];variant===void 0&&hasVariants(header,comparison.suite)||lookup.set(suiteKey(comparison.suite,variant),new Map(comparison.cases.map(c=>[c.id,c.transition])))}return lookup}function comparisonVariants(header){let comparisons=header.comparison??[],next=new Map;return comparisons.map(comparison=>{let variants=header.run.suites.filter(s=>s.name===comparison.suite&&s.variant!==void 0),count=comparisons.filter(c=>c.suite===comparison.suite).length;if(variants.length===0||variants.length!==count)return;let at=next.get(comparison.suite)??0;return next.set(comparison.suite,at+1),variants[at]?.variant})}function hasVariants(header,suite){return header.run.suites.some(s=>s.name===suite&&s.variant!==void 0)}function pageCase(result,transition){let page={s:result.suite,id:result.caseId,t:result.trial,st:result.status,ms:round(result.durationMs),tags:result.tags,v:[]};if(result.variant!==void 0&&(page.vr=result.variant),transition!==void 0&&(page.b=transition),result.expectFail!==void 0&&(page.xf=result.expectFail===!0?"":text(result.expectFail)),result.status==="skipped")return page.why=text(result.reason),page;result.status==="errored"?page.err=text(`${result.error.name}: ${result.error.message}`):page.sc=result.score;let partial=partialNote(result);if(partial!==void 0&&(page.pa=text(partial)),page.v=result.verdicts.map(pageVerdict),result.status!=="errored"&&result.snapshot){let{status,file,diff}=result.snapshot;page.sn={st:status,f:file,...diff!==void 0&&{d:text(diff)}}}result.turns&&(page.cv=result.turns.map(turn=>({u:text(turn.user),o:text(turn.output),tl:turn.tools,ms:round(turn.latencyMs)})));let transcript=result.transcript;if(!transcript)return page;page.in=text(typeof transcript.input=="string"?transcript.input:json(transcript.input)),page.out=text(transcript.output),page.lat=round(transcript.latencyMs),page.cost=transcript.costUsd,page.tok=transcript.usage&&[transcript.usage.inputTokens,transcript.usage.outputTokens],transcript.source!==void 0&&(page.src=transcript.source),transcript.agent!==void 0&&(page.ag=transcript.agent),transcript.toolCalls===null?page.tc=null:transcript.toolCalls.length>0&&(page.tc=transcript.toolCalls.map(call=>({n:call.name,a:json(call.args),...call.result!==void 0&&{r:json(call.result)},...call.error!==void 0&&{err:text(call.error)},...call.durationMs!==void 0&&{ms:round(call.durationMs)}})));let trace=transcript.trace,reasoning=reasoningOf(trace);if(reasoning.length>0&&(page.rs=reasoning.map(step=>({i:step.iteration,t:text(step.text)}))),trace&&trace.length>0){let start=Math.min(...trace.map(step=>step.startedAt));page.tr=trace.map(step=>({ty:step.type,at:round(step.startedAt-start),ms:round(step.durationMs),l:truncate(traceLabel(step),LABEL_CHARS)}))}let spans=pageSpansOf(transcript);return spans&&(page.sp=spans),page}function traceLabel(step){switch(step.type){case"llm_call":return`${step.model} · ${step.usage.inputTokens} → ${step.usage.outputTokens} tokens · ${step.finishReason}`;case"cache_hit":return`cache hit · ${step.providerId}`;case"retry":return`retry ${step.attempt} after ${step.delayMs} ms · ${step.error}`;case"fallback":return`${step.from} → ${step.to} · ${step.error}`;case"tool_call":return`${step.name}(${json(step.args)})`;case"tool_cache_hit":return`${step.name} · cached result`;case"tool_result":return`${step.name} ${step.ok?"ok":`failed: ${step.error??""}`}`;case"policy":return`${step.name}: ${step.decision} · ${step.reason}`;case"structured_retry":return`structured output retry ${step.attempt} · ${step.error}`;case"limit":return`${step.limit} · ${step.reason}`;case"error":return step.error;case"memory_trim":return`memory dropped ${step.dropped} messages, kept ${step.kept} (~${step.tokens} tokens)`;case"memory_summary":return`memory summarised ${step.summarized} messages · ${step.summary}`;case"guardrail":return`${step.stage} guardrail ${step.name}: ${step.action} · ${step.reason}`;case"approval":return`${step.name}: ${step.status} · ${step.reason}`;case"handoff":return`${step.from} → ${step.to}`;case"agent_run":return`agent ${step.agent} · ${step.stopReason} · ${step.steps.length} steps`}}function text(value){return truncate(value,PAGE_STRING_CHARS)}function json(value){return text(typeof value=="string"?value:value===void 0?"undefined":JSON.stringify(value,null,2))}function round(ms){return Math.round(ms*10)/10}function scriptSafeJson(value){return JSON.stringify(value).replace(/[<>&\u2028\u2029]/g,char=>`\\u${char.charCodeAt(0).toString(16).padStart(4,"0")}`)}var CHART_SCRIPT=String.raw`
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
`;var MATRIX_SCRIPT=String.raw`
  function variantNames() {
    var names = [], seen = new Set();
    function add(name) { if (name !== undefined && !seen.has(name)) { seen.add(name); names.push(name); } }
    header.run.suites.forEach(function (s) { add(s.variant); });
    cases.forEach(function (c) { add(c.vr); });
    return names;
  }

  function buildMatrix() {
    var rows = [], byKey = new Map();
    cases.forEach(function (c, i) {
      if (c.vr === undefined) return;
      var key = c.s + '\u0000' + c.id, row = byKey.get(key);
      if (!row) { row = { s: c.s, id: c.id, cells: new Map() }; byKey.set(key, row); rows.push(row); }
      var list = row.cells.get(c.vr);
      if (!list) row.cells.set(c.vr, list = []);
      list.push(i);
    });
    return { rows: rows, shown: rows, drawn: '', open: null };
  }

  function cellOf(list) {
    var passes = 0, graded = 0, errored = 0, scoreSum = 0, scored = 0;
    list.forEach(function (i) {
      var c = cases[i];
      if (c.st === 'errored') errored++;
      else if (c.st !== 'skipped') {
        graded++;
        if (c.st === 'passed') passes++;
        if (c.sc !== undefined) { scoreSum += c.sc; scored++; }
      }
    });
    var st = graded > passes ? 'failed' : errored > 0 ? 'errored' : graded > 0 ? 'passed' : 'skipped';
    // passes of the graded trials, as the baselines count them: an errored or skipped trial is neither
    var text = st + (list.length > 1 && graded > 0 ? ' ' + passes + '/' + graded : '') + (scored ? ' · ' + (scoreSum / scored).toFixed(2) : '');
    // the run a click opens: the first trial with the cell's status, so its transcript explains the cell
    var shows = list.filter(function (i) { return cases[i].st === st; })[0];
    return { st: st, text: text, shows: shows === undefined ? list[0] : shows };
  }

  function variantSelect(id, label, value) {
    var wrap = el('label', '', label + ' '), select = el('select');
    select.id = id;
    variants.forEach(function (v) { var o = el('option', '', v); o.value = v; select.appendChild(o); });
    select.value = value;
    select.addEventListener('change', function () { if (matrix.open) showSideBySide(matrix.open); });
    wrap.appendChild(select);
    return wrap;
  }

  function renderMatrix() {
    matrix = buildMatrix();
    var box = el('section');
    box.id = 'matrix';
    box.setAttribute('aria-label', 'Cases by variant');
    box.appendChild(el('h2', '', 'Cases × variants'));
    var controls = el('p', 'hint', 'Click a cell for its transcript, or a case to see two variants side by side: ');
    controls.appendChild(variantSelect('side-a', 'A', variants[0]));
    controls.appendChild(document.createTextNode(' '));
    controls.appendChild(variantSelect('side-b', 'B', variants[1]));
    box.appendChild(controls);
    var table = el('div', 'mtable');
    table.setAttribute('role', 'table');
    var head = el('div', 'mrow head');
    head.setAttribute('role', 'row');
    head.appendChild(el('span', '', 'Case'));
    variants.forEach(function (v) { head.appendChild(el('span', '', v)); });
    var viewport = el('div'), spacer = el('div'), rows = el('div');
    viewport.id = 'mviewport'; spacer.id = 'mspacer'; rows.id = 'mrows';
    viewport.tabIndex = 0;
    viewport.appendChild(spacer); viewport.appendChild(rows);
    table.appendChild(head); table.appendChild(viewport);
    box.appendChild(table);
    $('table').parentNode.insertBefore(box, $('table'));
    var columns = 'minmax(180px, 2fr) repeat(' + variants.length + ', minmax(110px, 1fr))';
    head.style.gridTemplateColumns = columns;
    matrix.columns = columns;
    viewport.addEventListener('scroll', drawMatrix, { passive: true });
    window.addEventListener('resize', function () { matrix.drawn = ''; drawMatrix(); });
    rows.addEventListener('click', function (e) {
      var cell = e.target.closest('[data-index]');
      if (cell) { showCase(Number(cell.dataset.index)); return; }
      var name = e.target.closest('.mrow');
      if (name && e.target.closest('.case')) showSideBySide(matrix.shown[Number(name.dataset.row)]);
    });
  }

  function filterMatrix() {
    var visible = new Uint8Array(cases.length);
    shown.forEach(function (i) { visible[i] = 1; });
    matrix.shown = matrix.rows.filter(function (row) {
      for (const list of row.cells.values()) if (list.some(function (i) { return visible[i] === 1; })) return true;
      return false;
    });
    $('mspacer').style.height = matrix.shown.length * ROW + 'px';
    $('mviewport').scrollTop = 0;
    matrix.drawn = '';
    drawMatrix();
  }

  function drawMatrix() {
    var viewport = $('mviewport');
    var first = Math.max(0, Math.floor(viewport.scrollTop / ROW) - OVERSCAN);
    var last = Math.min(matrix.shown.length, Math.ceil((viewport.scrollTop + viewport.clientHeight) / ROW) + OVERSCAN);
    var key = first + ':' + last;
    if (key === matrix.drawn) return;
    matrix.drawn = key;
    var rows = $('mrows');
    rows.textContent = '';
    rows.style.top = first * ROW + 'px';
    var fragment = document.createDocumentFragment();
    for (var n = first; n < last; n++) {
      var row = matrix.shown[n], line = el('div', 'mrow' + (n % 2 ? ' odd' : ''));
      line.setAttribute('role', 'row');
      line.dataset.row = String(n);
      line.style.gridTemplateColumns = matrix.columns;
      var name = el('span', 'case', row.s + ' › ' + row.id);
      name.title = 'Show ' + row.id + ' side by side';
      line.appendChild(name);
      variants.forEach(function (v) {
        var list = row.cells.get(v);
        if (!list) { line.appendChild(el('span', 'none', '—')); return; }
        var cell = cellOf(list), span = el('span', 'cell st ' + cell.st, cell.text);
        span.dataset.index = String(cell.shows);
        span.dataset.variant = v;
        line.appendChild(span);
      });
      fragment.appendChild(line);
    }
    rows.appendChild(fragment);
  }

  function showSideBySide(row) {
    matrix.open = row;
    var pick = [$('side-a').value, $('side-b').value], detail = $('detail');
    detail.textContent = '';
    detail.appendChild(el('h2', '', row.s + ' › ' + row.id + ': ' + pick[0] + ' and ' + pick[1] + ' side by side'));
    var sides = el('div', 'sides');
    pick.forEach(function (v) {
      var side = el('div', 'side'), list = row.cells.get(v);
      side.dataset.variant = v;
      if (list) renderCase(side, cases[cellOf(list).shows], v);
      else { side.appendChild(el('h2', '', v)); side.appendChild(el('p', 'hint', 'did not run this case')); }
      sides.appendChild(side);
    });
    detail.appendChild(sides);
  }
`;var PAGE_SCRIPT=String.raw`
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
`;function pageShell(values){let nonce=escapeHtml(values.nonce),title=escapeHtml(values.title),{style,script,data}=values;return`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; script-src 'nonce-${nonce}'; style-src 'nonce-${nonce}'; img-src data:; base-uri 'none'; form-action 'none'">
<meta name="referrer" content="no-referrer">
<title>${title}</title>
<style nonce="${nonce}">${style}</style>
</head>
<body>
<header id="head"><h1>${title}</h1><p id="meta"></p><div id="cards"></div><div id="gate"></div><div id="baseline"></div></header>
<section id="controls" aria-label="Filters">
  <fieldset id="statuses"><legend>Status</legend></fieldset>
  <label>Tag <select id="tag"><option value="">any</option></select></label>
  <label>Evaluator <select id="evaluator"><option value="">any</option></select></label>
  <label>Search <input id="search" type="search" placeholder="case id, output, reason…" autocomplete="off"></label>
  <span id="shown" aria-live="polite"></span>
</section>
<div id="table" role="table" aria-label="Cases">
  <div class="row head" role="row"></div>
  <div id="viewport" tabindex="0"><div id="spacer"></div><div id="rows"></div></div>
</div>
<section id="detail" aria-live="polite"><p class="hint">Select a case to see its input, output, tool calls, verdicts and trace.</p></section>
<script type="application/json" id="evals-data">${data}</script>
<script nonce="${nonce}">${script}</script>
</body>
</html>
`}var HTML_ESCAPES={"&":"&amp;","<":"&lt;",">":"&gt;",'"':"&quot;","'":"&#x27;","`":"&#x60;","=":"&#x3D;"};function escapeHtml(text2){return text2.replace(/[&<>"'`=]/g,char=>HTML_ESCAPES[char]??char)}var PAGE_STYLE=`
:root { --row: 28px; --fg: #1b1f24; --dim: #656d76; --line: #d0d7de; --bg: #fff; --alt: #f6f8fa;
  --passed: #1a7f37; --failed: #cf222e; --errored: #9a6700; --skipped: #656d76; }
* { box-sizing: border-box; }
body { margin: 0; padding: 16px 24px; font: 14px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif; color: var(--fg); background: var(--bg); }
h1 { font-size: 20px; margin: 0 0 4px; }
h2 { font-size: 16px; margin: 16px 0 6px; }
h3 { font-size: 14px; margin: 12px 0 4px; }
#meta { color: var(--dim); margin: 0 0 12px; }
#cards { display: flex; flex-wrap: wrap; gap: 8px; }
.card { border: 1px solid var(--line); border-radius: 6px; padding: 6px 12px; min-width: 110px; }
.card b { display: block; font-size: 18px; }
.card span { color: var(--dim); font-size: 12px; }
#gate, #baseline { margin-top: 10px; }
.box { border-left: 4px solid var(--line); padding: 4px 12px; background: var(--alt); }
.box.pass { border-color: var(--passed); } .box.fail { border-color: var(--failed); } .box.warn { border-color: var(--errored); }
#controls { display: flex; flex-wrap: wrap; gap: 12px; align-items: end; margin: 16px 0 8px; }
fieldset { border: 1px solid var(--line); border-radius: 6px; padding: 2px 8px; margin: 0; }
fieldset label { margin-right: 8px; }
#shown { color: var(--dim); }
#table { border: 1px solid var(--line); border-radius: 6px; }
.row { display: grid; grid-template-columns: 90px minmax(160px, 2fr) 60px 70px 80px 80px minmax(160px, 3fr) 110px;
  height: var(--row); align-items: center; padding: 0 8px; gap: 8px; white-space: nowrap; cursor: pointer; }
.row > span { overflow: hidden; text-overflow: ellipsis; }
.row.head { font-weight: 600; background: var(--alt); border-bottom: 1px solid var(--line); cursor: default; }
.row.odd { background: var(--alt); }
.row.sel { outline: 2px solid #0969da; outline-offset: -2px; }
/* as tall as its rows up to 60% of the screen: a short run leaves no blank table on the first screen */
#viewport { max-height: 60vh; min-height: var(--row); overflow: auto; position: relative; }
#rows { position: absolute; left: 0; right: 0; top: 0; }
.st { font-weight: 600; } .st.passed { color: var(--passed); } .st.failed { color: var(--failed); }
.st.errored { color: var(--errored); } .st.skipped { color: var(--skipped); }
.st.partial { color: var(--errored); }
#detail { margin-top: 16px; }
.hint { color: var(--dim); }
pre { background: var(--alt); border: 1px solid var(--line); border-radius: 6px; padding: 8px; margin: 4px 0;
  white-space: pre-wrap; word-break: break-word; max-height: 320px; overflow: auto; font: 12px/1.4 ui-monospace, monospace; }
table.kv { border-collapse: collapse; } table.kv td { padding: 2px 8px; vertical-align: top; border-bottom: 1px solid var(--line); }
.timeline { position: relative; border: 1px solid var(--line); border-radius: 6px; padding: 4px 0; }
.step { display: grid; grid-template-columns: minmax(200px, 40%) 1fr; gap: 8px; height: 22px; font-size: 12px; padding: 0 8px; }
.step .label { white-space: nowrap; overflow: hidden; text-overflow: ellipsis; align-self: center; }
.step .track { position: relative; }
.step .bar { position: absolute; top: 3px; height: 16px; min-width: 2px; border-radius: 3px; background: #8c959f; }
.step .bar.llm_call { background: #0969da; } .step .bar.tool_call, .step .bar.tool_result { background: #8250df; }
.step .bar.error, .step .bar.retry, .step .bar.fallback { background: var(--failed); }
.step .bar.span { background: #1a7f37; } .step .bar.span.error { background: var(--failed); }
.span-error .label { color: var(--failed); }
.turn { border-left: 3px solid var(--line); padding: 0 0 4px 10px; margin: 8px 0; }
.turn h4 { font-size: 13px; margin: 4px 0; color: var(--dim); }
.turn pre.user::before { content: 'user: '; color: var(--dim); } .turn pre.reply::before { content: 'reply: '; color: var(--dim); }
details.reasoning { margin: 4px 0; } details.reasoning summary { cursor: pointer; color: var(--dim); font-size: 13px; }
#chart { margin: 12px 0 0; } #chart svg { max-width: 100%; height: auto; } #chart figcaption { font-size: 12px; }
#matrix h2 { margin-top: 8px; }
.mtable { border: 1px solid var(--line); border-radius: 6px; margin-bottom: 16px; }
.mrow { display: grid; height: var(--row); align-items: center; padding: 0 8px; gap: 8px; white-space: nowrap; }
.mrow > span { overflow: hidden; text-overflow: ellipsis; }
.mrow.head { font-weight: 600; background: var(--alt); border-bottom: 1px solid var(--line); }
.mrow.odd { background: var(--alt); }
.mrow .case, .mrow .cell { cursor: pointer; } .mrow .case:hover, .mrow .cell:hover { text-decoration: underline; }
.mrow .none { color: var(--dim); }
#mviewport { max-height: 40vh; overflow: auto; position: relative; }
#mrows { position: absolute; left: 0; right: 0; top: 0; }
.sides { display: grid; grid-template-columns: 1fr 1fr; gap: 16px; }
.side { min-width: 0; border-top: 3px solid var(--line); }
`;var htmlRenderer={name:"html",fileName:"report.html",render:renderHtml};async function renderHtml(source,path){let nonce=randomBytes(16).toString("base64"),marker=`@@evals-data-${randomBytes(8).toString("hex")}@@`,{header}=source,suites=[...new Set(header.run.suites.map(suite=>suite.name))].join(", "),page=pageShell({nonce,title:`evals report${suites===""?"":` · ${suites}`}`,style:PAGE_STYLE,script:PAGE_SCRIPT,data:marker}),at=page.indexOf(marker),out=await openAtomic(path);try{out.write(`${page.slice(0,at)}{"header":${scriptSafeJson(pageHeader(header))},"cases":[`);let baseline=baselineLookup(header),first=!0;for await(let batch of source.batches())for(let result of batch){let transition=baseline.get(suiteKey(result.suite,result.variant))?.get(result.caseId);out.write(`${first?"":","}
${scriptSafeJson(pageCase(result,transition))}`),first=!1}out.write(`]}${page.slice(at+marker.length)}`),await out.commit()}catch(error){throw await out.abort(),error}}export{htmlRenderer,renderHtml};
