import { openAtomic, type AtomicFile } from '../util/atomic-file.ts'
import { openScratch, type ScratchFile } from '../util/scratch-file.ts'
import type { ReportSource } from '../report-file/read.ts'
import type { ReportCase, ReportHeader } from '../report-file/schema.ts'
import type { ReportRenderer } from './renderer.ts'
import { conversationText, turnViews } from './conversation-text.ts'
import { groupTrials, partialNote, problemReasons, truncate, visibleControls } from './text.ts'
import { cdataSection, xmlTag, type XmlAttribute } from './xml.ts'

const MESSAGE_CHARS = 500
const BODY_CHARS = 4000

/**
 * JUnit XML from the JSON report: one testsuite per suite, one testcase per (case, trial); failures carry the
 * failing evaluators' reasons, `errored` cases an error, skipped cases `<skipped/>`; tags, score, cost and a partial pass's
 * "2 of 3 checks ran" are testcase properties. Control characters become visible `\u001b` text, since XML 1.0 cannot hold them.
 *
 * The file is streamed, a testcase at a time, so a run of any size renders in flat memory (junit-report-builder,
 * used before, cannot stream: it builds the whole document, ~3.6 KB per testcase). A suite's counts go in its
 * opening tag, so its testcases wait in a scratch file on disk until the suite ends; the run's totals come from
 * the report's summary.
 */
export const junitRenderer: ReportRenderer = {
  name: 'junit',
  fileName: 'report.junit.xml',
  render: renderJunit,
}

export async function renderJunit(source: ReportSource, path: string): Promise<void> {
  const out = await openAtomic(path)
  let scratch: ScratchFile | undefined
  try {
    scratch = openScratch(path)
    await writeJunit(source, out, scratch)
    await out.commit()
  } catch (error) {
    await out.abort()
    throw error
  } finally {
    await scratch?.remove()
  }
}

interface SuiteTally {
  name: string
  tests: number
  failures: number
  errors: number
  skipped: number
  seconds: number
}

async function writeJunit(source: ReportSource, out: AtomicFile, scratch: ScratchFile): Promise<void> {
  const { header } = source
  const { passed, failed, errored, skipped } = header.summary.counts
  // suites in the header's order, each written when its cases end (cases come sorted by suite)
  const listed = header.run.suites.map((suite) => suite.name)
  const closeSuite = (suite: SuiteTally): void => {
    out.write(suiteOpening(suite, header))
    scratch.drainInto(out)
    out.write('  </testsuite>\n')
  }
  const emptySuitesUntil = (name: string | undefined): void => {
    while (listed.length > 0 && listed[0] !== name) closeSuite(newTally(listed.shift() as string))
    if (listed[0] === name) listed.shift()
  }
  out.write('<?xml version="1.0" encoding="UTF-8"?>\n')
  const rootAttributes: XmlAttribute[] = [
    ['name', xml(`evals ${header.run.id}`)],
    ['tests', passed + failed + errored + skipped],
    ['failures', failed],
    ['errors', errored],
    ['skipped', skipped],
  ]
  const groups = groupTrials(source.cases())[Symbol.asyncIterator]()
  let group = await groups.next()
  if (listed.length === 0 && group.done === true) {
    out.write(`${xmlTag('testsuites', rootAttributes, true)}\n`)
    return
  }
  out.write(`${xmlTag('testsuites', rootAttributes)}\n`)
  let suite: SuiteTally | undefined
  for (; group.done !== true; group = await groups.next()) {
    const trials = group.value
    for (const result of trials) {
      if (suite?.name !== result.suite) {
        if (suite) closeSuite(suite)
        emptySuitesUntil(result.suite)
        suite = newTally(result.suite)
      }
      suite.tests++
      if (result.status === 'failed') suite.failures++
      else if (result.status === 'errored') suite.errors++
      else if (result.status === 'skipped') suite.skipped++
      suite.seconds += result.durationMs / 1000
      scratch.write(testcase(result, trials.length))
    }
  }
  if (suite) closeSuite(suite)
  emptySuitesUntil(undefined)
  out.write('</testsuites>\n')
}

function newTally(name: string): SuiteTally {
  return { name, tests: 0, failures: 0, errors: 0, skipped: 0, seconds: 0 }
}

function suiteOpening(suite: SuiteTally, header: ReportHeader): string {
  const { run, gate } = header
  const info = run.suites.find((candidate) => candidate.name === suite.name)
  const opening = xmlTag('testsuite', [
    ['name', xml(suite.name)],
    ['timestamp', run.startedAt],
    ['time', round(suite.seconds)],
    ['tests', suite.tests],
    ['failures', suite.failures],
    ['errors', suite.errors],
    ['skipped', suite.skipped],
  ])
  return `  ${opening}\n${properties('    ', [
    ['run', run.id],
    ['target', info?.targetId],
    ['model', info?.model],
    ['file', info?.file],
    ['git.commit', run.git?.commit],
    ['git.branch', run.git?.branch],
    ['evals.version', run.cliVersion],
    ['gate', gate?.decision],
  ])}`
}

/** A `<properties>` element at `indent`, one line each; empty when no property has a value. */
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
  return lines === '' ? '' : `${indent}<properties>\n${lines}${indent}</properties>\n`
}

function testcase(result: ReportCase, trials: number): string {
  const id = result.variant === undefined ? result.caseId : `${result.caseId} [${result.variant}]`
  const name = trials > 1 ? `${id} [trial ${result.trial + 1}/${trials}]` : id
  const transcript = result.status === 'skipped' ? undefined : result.transcript
  const graded = result.status === 'passed' || result.status === 'failed'
  const body =
    properties('      ', [
      ['tags', result.tags.length > 0 ? result.tags.join(',') : undefined],
      ['score', graded ? String(result.score) : undefined],
      ['partial', partialNote(result)],
      ['costUsd', transcript && transcript.costUsd !== null ? String(transcript.costUsd) : undefined],
    ]) +
    outcome(result) +
    systemOut(result)
  const opening = xmlTag(
    'testcase',
    [
      ['classname', xml(result.suite)],
      ['name', xml(name)],
      ['time', round(result.durationMs / 1000)],
    ],
    body === '',
  )
  return body === '' ? `    ${opening}\n` : `    ${opening}\n${body}    </testcase>\n`
}

/** The `<failure>`, `<error>` or `<skipped/>` line; empty for a pass. */
function outcome(result: ReportCase): string {
  switch (result.status) {
    case 'passed':
      return ''
    case 'skipped':
      return '      <skipped/>\n'
    case 'failed': {
      const reasons = problemReasons(result)
      const first = reasons[0]
      const message = truncate(first ? `${first.evaluator}: ${first.reason}` : 'failed', MESSAGE_CHARS)
      const trace = truncate(reasons.map((r) => `${r.evaluator}: ${r.reason}`).join('\n'), BODY_CHARS)
      return element(
        'failure',
        [
          ['message', nonEmpty(xml(message))],
          ['type', nonEmpty(first?.evaluator)],
        ],
        trace,
      )
    }
    case 'errored': {
      const { message, code, name, stack } = result.error
      return element(
        'error',
        [
          ['message', nonEmpty(xml(truncate(message, MESSAGE_CHARS)))],
          ['type', nonEmpty(xml(code ?? name))],
        ],
        stack === undefined ? '' : truncate(stack, BODY_CHARS),
      )
    }
  }
}

/** The `<system-out>` line: the skip reason, or the conversation or input and output of a case that did not pass. */
function systemOut(result: ReportCase): string {
  if (result.status === 'passed') return ''
  if (result.status === 'skipped') return element('system-out', [], `skipped: ${result.reason}`)
  const turns = turnViews(result)
  if (turns) return element('system-out', [], conversationText(turns, BODY_CHARS))
  const { transcript } = result
  if (!transcript) return ''
  const input = typeof transcript.input === 'string' ? transcript.input : JSON.stringify(transcript.input)
  return element(
    'system-out',
    [],
    `input: ${truncate(input, BODY_CHARS)}\noutput: ${truncate(transcript.output, BODY_CHARS)}`,
  )
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

function nonEmpty(text: string | undefined): string | undefined {
  return text === '' ? undefined : text
}

function round(value: number): number {
  return Math.round(value * 1000) / 1000
}
