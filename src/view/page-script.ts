/**
 * The view page's script, plain browser JavaScript served as is (no build step): the run list per suite with
 * uPlot trend charts, the comparison of two runs from /api/compare, and the live feed of a running run.
 * Every value from the reports goes into the page as text, never as markup.
 */
export const VIEW_SCRIPT = String.raw`'use strict'
// the newest runs of a suite are drawn at once, older ones on request: a table of thousands of rows costs the
// browser more than everything else on the page (the trend chart still shows every run)
const FIRST_ROWS = 200
const TRANSITION_ORDER = ['regressed', 'input-changed', 'unscored', 'new', 'removed', 'improved', 'unchanged']
// the paired test's name by its method, as testName (src/baselines/format.ts) says it
const TEST_NAMES = { 'stratified-permutation': 'paired permutation test', 'mcnemar-exact': 'exact McNemar test', 'sign-test': 'sign test' }

function el(tag, attrs, ...children) {
  const node = document.createElement(tag)
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === undefined || value === null || value === false) continue
    if (key === 'class') node.className = value
    else if (key.startsWith('on')) node.addEventListener(key.slice(2), value)
    else node.setAttribute(key, value === true ? '' : String(value))
  }
  for (const child of children.flat()) {
    if (child === undefined || child === null) continue
    node.append(child instanceof Node ? child : document.createTextNode(String(child)))
  }
  return node
}

const pct = (rate) => (rate === null || rate === undefined ? '–' : (rate * 100).toFixed(1) + '%')
const usd = (cost) => (cost === null || cost === undefined ? '–' : '$' + cost.toFixed(cost < 1 ? 4 : 2))
const secs = (ms) => (ms === null || ms === undefined ? '–' : ms < 1000 ? ms + ' ms' : (ms / 1000).toFixed(1) + ' s')
// ISO to 'YYYY-MM-DD HH:MM:SS UTC' by slicing: a locale formatter per row costs more than the whole row
const when = (iso) => (iso ? iso.slice(0, 19).replace('T', ' ') + ' UTC' : '–')
const runKey = (run) => run.root + '/' + run.runId
const TREND_COLORS = ['#1a7f37', '#0969da', '#bf3989', '#9a6700', '#8250df', '#cf222e', '#1b7c83']

async function load() {
  const response = await fetch('/api/runs')
  const { roots, runs } = await response.json()
  document.getElementById('roots').textContent = runs.length + ' runs in ' + roots.join(', ')
  render(runs)
  performance.mark('evals:runs-rendered')
}

// one row per run of a suite: a suite with variants has one entry per variant in the run, shown inside the row
function render(runs) {
  const bySuite = new Map()
  const unreadable = []
  for (const run of runs) {
    if (run.suites.length === 0) unreadable.push(run)
    const entriesOf = new Map()
    for (const suite of run.suites) {
      if (!entriesOf.has(suite.suite)) entriesOf.set(suite.suite, [])
      entriesOf.get(suite.suite).push(suite)
    }
    for (const [name, entries] of entriesOf) {
      if (!bySuite.has(name)) bySuite.set(name, [])
      bySuite.get(name).push({ run, entries })
    }
  }
  const main = document.getElementById('suites')
  main.replaceChildren()
  if (runs.length === 0) main.append(el('p', { class: 'muted' }, 'No runs yet: run ', el('code', {}, 'evals run <cases.yaml>'), ' first.'))
  for (const [name, rows] of bySuite) main.append(suiteSection(name, rows))
  if (unreadable.length > 0) main.append(unreadableSection(unreadable))
}

function suiteSection(name, rows) {
  const variants = rows.some(({ entries }) => entries.some((entry) => entry.variant !== undefined))
  const selected = new Set()
  const compareButton = el('button', { disabled: true, class: 'compare' }, 'Compare the two selected runs')
  const result = el('div', { class: 'compare-result' })
  const chart = el('div', { class: 'chart' })
  const onSelect = (run) => (checked) => {
    if (checked) selected.add(run); else selected.delete(run)
    compareButton.disabled = selected.size !== 2
  }
  const rowsOf = (part) => part.map(({ run, entries }) => runRow(run, entries, variants, onSelect(run)))
  const body = el('tbody', {}, rowsOf(rows.slice(0, FIRST_ROWS)))
  const more = rows.length > FIRST_ROWS
    ? el('button', { class: 'more', onclick: () => { body.append(...rowsOf(rows.slice(FIRST_ROWS))); more.remove() } },
      'Show ' + (rows.length - FIRST_ROWS) + ' older runs')
    : null
  compareButton.addEventListener('click', () => {
    const [newer, older] = [...selected].sort((a, b) => (b.startedAt || '').localeCompare(a.startedAt || ''))
    compare(name, newer, older, result)
  })
  const headings = ['', 'Date', 'Commit', ...(variants ? ['Variant'] : []), 'Model', 'Accuracy (95% CI)', 'Passed', 'Failed', 'Errored', 'Cost', 'Gate', 'Duration', 'State', '']
  const section = el('section', { class: 'suite', 'data-suite': name },
    el('h2', {}, name, ' ', el('span', { class: 'muted' }, rows.length + (rows.length === 1 ? ' run' : ' runs'))),
    chart,
    el('table', {}, el('thead', {}, el('tr', {}, headings.map((h) => el('th', {}, h)))), body),
    // comparing two runs pairs cases by id; a run of variants holds each id once per variant
    variants
      ? el('p', { class: 'muted' }, "Each run's report compares its variants; comparing two runs of variants is not offered.")
      : el('p', {}, more, ' ', compareButton),
    result)
  requestAnimationFrame(() => drawTrend(chart, rows))
  return section
}

function gateOf(run, entry) {
  const decision = entry.gate || (run.suites.length === 1 ? run.gate : null)
  return decision ? el('span', { class: 'gate gate-' + decision }, decision.toUpperCase()) : '–'
}

function runRow(run, entries, variants, onSelect) {
  // one line per variant in each per-variant cell (a single line for a suite without variants)
  const lines = (cls, value) => el('td', { class: cls }, entries.map((entry) =>
    el('div', { class: 'line', 'data-variant': entry.variant }, value(entry))))
  const open = []
  if (run.report) open.push(el('a', { href: '/runs/' + runKey(run) + '/report.html', target: '_blank', class: 'open-report' }, 'report'))
  if (run.state === 'running' || run.state === 'partial') open.push(el('button', { class: 'watch', onclick: () => watch(run) }, 'live'))
  const selectable = run.state === 'finished' && !variants
  return el('tr', { class: 'run', 'data-run': run.runId },
    el('td', {}, selectable ? el('input', { type: 'checkbox', class: 'select', onchange: (event) => onSelect(event.target.checked) }) : ''),
    el('td', { title: run.runId }, when(run.startedAt)),
    el('td', {}, entries[0].git && entries[0].git.commit ? entries[0].git.commit.slice(0, 8) : '–'),
    variants ? lines('variant', (entry) => entry.variant || '–') : null,
    lines('model', (entry) => entry.modelId || entry.targetId || '–'),
    lines('accuracy', (entry) => entry.accuracy ? pct(entry.accuracy.value) + ' [' + pct(entry.accuracy.low) + '–' + pct(entry.accuracy.high) + ']' : '–'),
    lines('pass', (entry) => entry.counts.passed),
    lines('fail', (entry) => entry.counts.failed),
    lines('err', (entry) => entry.counts.errored),
    lines('cost', (entry) => usd(entry.costUsd)),
    lines('gate-cell', (entry) => gateOf(run, entry)),
    el('td', {}, secs(run.durationMs)),
    el('td', { class: 'state state-' + run.state }, run.state),
    el('td', {}, open))
}

function unreadableSection(runs) {
  return el('section', { class: 'suite unreadable' },
    el('h2', {}, 'Runs that cannot be read'),
    el('table', {}, el('tbody', {}, runs.map((run) => el('tr', { class: 'run', 'data-run': run.runId },
      el('td', {}, run.runId),
      el('td', { class: 'state state-' + run.state }, run.state),
      el('td', { class: 'reason' }, run.problem || 'no summary yet'))))))
}

// one accuracy line per variant (one line for a suite without variants, with its cost beside it)
function drawTrend(container, rows) {
  if (typeof uPlot !== 'function') return
  const names = [...new Set(rows.flatMap(({ entries }) => entries.map((entry) => entry.variant || '')))]
  const points = rows.filter(({ run, entries }) => run.startedAt && entries.some((entry) => entry.accuracy))
    .map(({ run, entries }) => ({ at: Date.parse(run.startedAt) / 1000, entries }))
    .sort((a, b) => a.at - b.at)
  if (points.length === 0) {
    container.append(el('p', { class: 'muted' }, 'No finished run with an accuracy yet.'))
    return
  }
  const accuracyOf = (name) => points.map(({ entries }) => {
    const entry = entries.find((candidate) => (candidate.variant || '') === name)
    return entry && entry.accuracy ? entry.accuracy.value * 100 : null
  })
  const first = points[0].at
  const last = points[points.length - 1].at
  const single = names.length === 1 && names[0] === ''
  const data = [points.map((p) => p.at), ...names.map(accuracyOf)]
  const series = [{}, ...names.map((name, i) => ({
    label: name === '' ? 'Accuracy %' : name + ' accuracy %',
    scale: '%', stroke: TREND_COLORS[i % TREND_COLORS.length], width: 2, points: { show: true }, spanGaps: true,
  }))]
  const axes = [{}, { scale: '%', label: 'accuracy %' }]
  if (single) {
    data.push(points.map(({ entries }) => entries[0].costUsd))
    series.push({ label: 'Cost $', scale: '$', stroke: '#8250df', width: 1, points: { show: true } })
    axes.push({ scale: '$', side: 1, label: 'cost $', grid: { show: false } })
  }
  new uPlot({
    width: Math.max(320, container.clientWidth || 800),
    height: 220,
    title: single ? 'Accuracy and cost over runs' : 'Accuracy over runs, per variant',
    scales: {
      // for runs within one second uPlot spans 1,000 days (it adds 86400 / 1e-3 to a time in seconds): half a
      // day either side of them instead
      x: { time: true, range: (u, min, max) => (last - first < 1 ? [first - 43200, last + 43200] : [min, max]) },
      '%': { range: [0, 100] },
      '$': { range: (u, min, max) => [0, max > 0 ? max * 1.1 : 1] },
    },
    series,
    axes,
    // the time span drawn, on the container: what a reader (or a test) can check without reading the canvas
    hooks: { setScale: [(u, key) => {
      if (key !== 'x') return
      container.dataset.from = new Date(u.scales.x.min * 1000).toISOString()
      container.dataset.to = new Date(u.scales.x.max * 1000).toISOString()
    }] },
  }, data, container)
}

async function compare(suite, current, reference, target) {
  target.replaceChildren(el('p', { class: 'muted' }, 'Comparing…'))
  const query = new URLSearchParams({ a: runKey(current), b: runKey(reference), suite })
  const response = await fetch('/api/compare?' + query)
  const body = await response.json()
  if (!response.ok) {
    target.replaceChildren(el('p', { class: 'fail' }, body.error))
    return
  }
  const { comparison, gate } = body
  const paired = comparison.paired
  const cases = comparison.cases.slice().sort((a, b) =>
    TRANSITION_ORDER.indexOf(a.transition) - TRANSITION_ORDER.indexOf(b.transition) || a.id.localeCompare(b.id))
  const side = (s) => (s ? s.passes + '/' + s.trials : '–')
  target.replaceChildren(el('div', { class: 'panel compare-panel' },
    el('p', {}, when(reference.startedAt), ' → ', when(current.startedAt), ': accuracy ',
      pct(comparison.accuracy.baseline), ' → ', pct(comparison.accuracy.current),
      paired ? ' · ' + (TEST_NAMES[paired.method] || paired.method) + ' p = ' + paired.pValue.toFixed(4) + ' on ' + paired.cases + ' paired cases' : '',
      ' · gate ', el('strong', { class: 'gate gate-' + gate.decision }, gate.decision.toUpperCase())),
    el('p', { class: 'counts' }, TRANSITION_ORDER.map((t) => comparison.counts[t] + ' ' + t).join(' · ')),
    el('ul', {}, gate.reasons.concat(gate.warnings).map((reason) => el('li', {}, reason))),
    el('table', { class: 'cases' },
      el('thead', {}, el('tr', {}, ['Case', 'Change', 'Before', 'After', 'Δ pass rate'].map((h) => el('th', {}, h)))),
      el('tbody', {}, cases.map((c) => el('tr', { class: 'case t-' + c.transition },
        el('td', {}, c.id), el('td', {}, c.transition), el('td', {}, side(c.baseline)), el('td', {}, side(c.current)),
        el('td', {}, c.passRateDelta === null ? '–' : (c.passRateDelta * 100).toFixed(0) + ' points')))))))
}

let liveSource
function watch(run) {
  if (liveSource) liveSource.close()
  const panel = document.getElementById('live')
  const counts = { passed: 0, failed: 0, errored: 0, skipped: 0 }
  const summary = el('p', { class: 'live-counts' })
  const status = el('span', { class: 'live-status state-running' }, 'running')
  const body = el('tbody')
  const update = () => { summary.textContent = Object.entries(counts).map(([k, v]) => v + ' ' + k).join(' · ') }
  update()
  panel.replaceChildren(el('h2', {}, 'Live: ', run.runId, ' ', status), summary,
    el('table', {}, el('thead', {}, el('tr', {}, ['Suite', 'Case', 'Trial', 'Status', 'Duration', 'Reason'].map((h) => el('th', {}, h)))), body))
  panel.hidden = false
  liveSource = new EventSource('/api/live/' + runKey(run))
  liveSource.addEventListener('case', (event) => {
    const c = JSON.parse(event.data)
    if (c.status in counts) counts[c.status]++
    update()
    body.prepend(el('tr', { class: 'case status-' + c.status },
      el('td', {}, c.suite), el('td', {}, c.caseId + (c.variant ? ' [' + c.variant + ']' : '')), el('td', {}, c.trial + 1),
      el('td', {}, c.status), el('td', {}, secs(c.durationMs)), el('td', { class: 'reason' }, c.reason || '')))
  })
  liveSource.addEventListener('end', () => {
    liveSource.close()
    status.textContent = 'finished'
    status.className = 'live-status'
    load()
  })
}

load()
`
