import { hostname } from 'node:os'
import { openAtomic, type AtomicFile } from '../util/atomic-file.ts'
import { openScratch, type ScratchFile } from '../util/scratch-file.ts'
import type { ReportSource } from '../report-file/read.ts'
import type { ReportCase, ReportHeader } from '../report-file/schema.ts'
import type { ReportRenderer } from './renderer.ts'
import { caseDetail, knownFailure } from './junit-detail.ts'
import { groupTrials, problemReasons, truncate, visibleControls } from './text.ts'
import { cdataSection, xmlTag, type XmlAttribute } from './xml.ts'

const MESSAGE_CHARS = 500
const BODY_CHARS = 4000
/** a suite's `<system-out>` stops growing here; report.json has the rest */
const SYSTEM_OUT_CHARS = 2_000_000

/**
 * JUnit XML from the JSON report, valid against both published schemas as they are: the Jenkins xUnit plugin's
 * junit-10.xsd and the Apache Ant JUnit schema (windyroad/JUnit-Schema), which Surefire-style readers follow. One
 * testsuite per suite (its variants' cases inside it, named `case [variant]`), one testcase per (case, trial);
 * failures carry the failing checks' reasons, errored runs an error, skipped runs and known failures
 * (`expect_fail`) `<skipped>`. What the schemas have no place for (tags, score, cost, partial checks, input and
 * output) goes in the suite's `<system-out>` for the runs that did not pass, and is all in report.json.
 *
 * The file is streamed, a testcase at a time, so a run of any size renders in flat memory. A suite's counts go in
 * its opening tag, so its testcases and its `<system-out>` wait in scratch files on disk until the suite ends.
 */
export const junitRenderer: ReportRenderer = {
  name: 'junit',
  fileName: 'report.junit.xml',
  render: renderJunit,
}

export async function renderJunit(source: ReportSource, path: string): Promise<void> {
  const out = await openAtomic(path)
  const scratches: ScratchFile[] = []
  try {
    scratches.push(openScratch(path), openScratch(path))
    await writeJunit(source, out, scratches[0] as ScratchFile, scratches[1] as ScratchFile)
    await out.commit()
  } catch (error) {
    await out.abort()
    throw error
  } finally {
    for (const scratch of scratches) await scratch.remove()
  }
}

interface SuiteTally {
  name: string
  tests: number
  failures: number
  errors: number
  skipped: number
  seconds: number
  /** characters written to the suite's system-out, and the runs left out of it past SYSTEM_OUT_CHARS */
  detailChars: number
  detailsLeftOut: number
}

async function writeJunit(
  source: ReportSource,
  out: AtomicFile,
  cases: ScratchFile,
  details: ScratchFile,
): Promise<void> {
  const { header } = source
  // each suite once, in the header's order (the header lists a suite once per variant)
  const listed = [...new Set(header.run.suites.map((suite) => suite.name))]
  let id = 0
  const closeSuite = (suite: SuiteTally): void => {
    out.write(suiteOpening(suite, header, id++))
    cases.drainInto(out)
    if (suite.detailsLeftOut > 0) {
      details.write(
        cdataSection(`… ${suite.detailsLeftOut} more case runs that did not pass: see report.json\n`),
      )
    }
    if (suite.detailChars === 0 && suite.detailsLeftOut === 0) out.write('    <system-out/>\n')
    else {
      out.write('    <system-out>')
      details.drainInto(out)
      out.write('</system-out>\n')
    }
    out.write('    <system-err/>\n  </testsuite>\n')
  }
  const emptySuitesUntil = (name: string | undefined): void => {
    while (listed.length > 0 && listed[0] !== name) closeSuite(newTally(listed.shift() as string))
    if (listed[0] === name) listed.shift()
  }
  let suite: SuiteTally | undefined
  const addRun = (result: ReportCase, trials: number): void => {
    if (suite?.name !== result.suite) {
      if (suite) closeSuite(suite)
      emptySuitesUntil(result.suite)
      suite = newTally(result.suite)
    }
    const outcome = outcomeOf(result)
    suite.tests++
    if (outcome.startsWith('      <failure')) suite.failures++
    else if (outcome.startsWith('      <error')) suite.errors++
    else if (outcome.startsWith('      <skipped')) suite.skipped++
    suite.seconds += result.durationMs / 1000
    const name = testcaseName(result, trials)
    cases.write(testcase(result, name, outcome))
    const detail = caseDetail(result, name)
    if (detail === undefined) return
    if (suite.detailChars + detail.length > SYSTEM_OUT_CHARS) suite.detailsLeftOut++
    else {
      details.write(cdataSection(visibleControls(detail)))
      suite.detailChars += detail.length
    }
  }
  out.write('<?xml version="1.0" encoding="UTF-8"?>\n')
  const batches = groupTrials(source.batches())[Symbol.asyncIterator]()
  let batch = await batches.next()
  if (listed.length === 0 && batch.done === true) {
    out.write('<testsuites/>\n')
    return
  }
  out.write('<testsuites>\n')
  for (; batch.done !== true; batch = await batches.next()) {
    for (const trials of batch.value) for (const result of trials) addRun(result, trials.length)
  }
  if (suite) closeSuite(suite)
  emptySuitesUntil(undefined)
  out.write('</testsuites>\n')
}

function newTally(name: string): SuiteTally {
  return { name, tests: 0, failures: 0, errors: 0, skipped: 0, seconds: 0, detailChars: 0, detailsLeftOut: 0 }
}

function suiteOpening(suite: SuiteTally, header: ReportHeader, id: number): string {
  const { run, gate } = header
  const infos = run.suites.filter((candidate) => candidate.name === suite.name)
  const info = infos[0]
  const opening = xmlTag('testsuite', [
    ['name', xml(suite.name)],
    ['tests', suite.tests],
    ['failures', suite.failures],
    ['errors', suite.errors],
    ['skipped', suite.skipped],
    ['time', round(suite.seconds)],
    // the Ant schema wants a plain local date-time, no fraction or zone; the run's start is UTC
    ['timestamp', run.startedAt.slice(0, 19)],
    ['hostname', hostname() || 'localhost'],
    ['id', id],
    ['package', xml(suite.name)],
  ])
  const models = [...new Set(infos.flatMap((entry) => (entry.model === undefined ? [] : [entry.model])))]
  const variants = infos.flatMap((entry) => (entry.variant === undefined ? [] : [entry.variant]))
  return `  ${opening}\n${properties('    ', [
    ['run', run.id],
    ['target', info?.targetId],
    ['model', models.length > 0 ? models.join(', ') : undefined],
    ['variants', variants.length > 0 ? variants.join(', ') : undefined],
    ['file', info?.file],
    ['git.commit', run.git?.commit],
    ['git.branch', run.git?.branch],
    ['evals.version', run.cliVersion],
    ['gate', gate?.decision],
    ['gate.minimumDetectableDrop', gate?.minimumDetectableDrop?.toFixed(4)],
  ])}`
}

/** A `<properties>` element at `indent`, one line each; `<properties/>` when none has a value (Ant wants one). */
function properties(indent: string, entries: readonly (readonly [string, string | undefined])[]): string {
  let lines = ''
  for (const [name, value] of entries) {
    if (value === undefined) continue
    const property: XmlAttribute[] = [
      ['name', name],
      ['value', xml(value)],
    ]
    lines += `${indent}  ${xmlTag('property', property, true)}\n`
  }
  return lines === '' ? `${indent}<properties/>\n` : `${indent}<properties>\n${lines}${indent}</properties>\n`
}

function testcaseName(result: ReportCase, trials: number): string {
  const id = result.variant === undefined ? result.caseId : `${result.caseId} [${result.variant}]`
  return trials > 1 ? `${id} [trial ${result.trial + 1}/${trials}]` : id
}

function testcase(result: ReportCase, name: string, outcome: string): string {
  const opening = xmlTag(
    'testcase',
    [
      ['classname', xml(result.suite)],
      ['name', xml(name)],
      ['time', round(result.durationMs / 1000)],
    ],
    outcome === '',
  )
  return outcome === '' ? `    ${opening}\n` : `    ${opening}\n${outcome}    </testcase>\n`
}

/** The one `<failure>`, `<error>` or `<skipped>` of a testcase (both schemas allow at most one); empty for a pass. */
function outcomeOf(result: ReportCase): string {
  const known = knownFailure(result)
  if (known !== undefined) {
    const [first] = problemReasons(result)
    const message = truncate(first ? `${known}: ${first.evaluator}: ${first.reason}` : known, MESSAGE_CHARS)
    return element('skipped', [['message', xml(message)]], '')
  }
  switch (result.status) {
    case 'passed':
      return ''
    case 'skipped':
      return element('skipped', [['message', xml(truncate(result.reason, MESSAGE_CHARS))]], '')
    case 'failed': {
      const reasons = problemReasons(result)
      const first = reasons[0]
      const message = truncate(first ? `${first.evaluator}: ${first.reason}` : 'failed', MESSAGE_CHARS)
      const trace = truncate(reasons.map((r) => `${r.evaluator}: ${r.reason}`).join('\n'), BODY_CHARS)
      // `type` is required by the Ant schema
      return element(
        'failure',
        [
          ['message', xml(message)],
          ['type', xml(first?.evaluator ?? 'failed') || 'failed'],
        ],
        trace,
      )
    }
    case 'errored': {
      const { message, code, name, stack } = result.error
      return element(
        'error',
        [
          ['message', xml(truncate(message, MESSAGE_CHARS))],
          ['type', xml(code ?? name) || 'Error'],
        ],
        stack === undefined ? '' : truncate(stack, BODY_CHARS),
      )
    }
  }
}

/** A testcase child line: the element with `text` as CDATA, or empty (`<name/>`) when there is no text. */
function element(name: string, attributes: readonly XmlAttribute[], text: string): string {
  const content = visibleControls(text)
  if (content === '') return `      ${xmlTag(name, attributes, true)}\n`
  return `      ${xmlTag(name, attributes)}${cdataSection(content)}</${name}>\n`
}

function xml(text: string): string {
  return visibleControls(text)
}

function round(value: number): number {
  return Math.round(value * 1000) / 1000
}
