import { createRequire } from 'node:module'
import type { Builder, TestCase } from 'junit-report-builder'
import { writeFileAtomic } from '../util/atomic-file.ts'
import type { ReportSource } from '../report/read.ts'
import type { ReportCase, ReportHeader } from '../report/schema.ts'
import type { ReportRenderer } from './renderer.ts'
import { conversationText, turnViews } from './conversation-text.ts'
import { groupTrials, partialNote, problemReasons, truncate, visibleControls } from './text.ts'

const MESSAGE_CHARS = 500
const BODY_CHARS = 4000

/**
 * JUnit XML from the JSON report: one testsuite per suite, one testcase per (case, trial); failures carry the
 * failing evaluators' reasons, `errored` cases an error, skipped cases `<skipped/>`; tags, score, cost and a partial pass's
 * "2 of 3 checks ran" are testcase properties. Control characters become visible `\u001b` text, since XML 1.0 cannot hold them.
 */
export const junitRenderer: ReportRenderer = {
  name: 'junit',
  fileName: 'report.junit.xml',
  async render(source, path) {
    await writeFileAtomic(path, await renderJunit(source))
  },
}

export async function renderJunit(source: ReportSource): Promise<string> {
  // required, not imported: import() first scans this 790 KB CommonJS bundle for named exports (~100 ms)
  const root = createRequire(import.meta.url)('junit-report-builder') as Builder
  const builder = root.newBuilder().name(xml(`evals ${source.header.run.id}`))
  const suites = new Map<string, { suite: ReturnType<typeof builder.testSuite>; seconds: number }>()
  const suiteFor = (name: string): { suite: ReturnType<typeof builder.testSuite>; seconds: number } => {
    let entry = suites.get(name)
    if (!entry) {
      entry = { suite: newSuite(builder.testSuite(), name, source.header), seconds: 0 }
      suites.set(name, entry)
    }
    return entry
  }
  for (const suite of source.header.run.suites) suiteFor(suite.name)
  for await (const trials of groupTrials(source.cases())) {
    for (const result of trials) {
      const entry = suiteFor(result.suite)
      entry.seconds += result.durationMs / 1000
      addCase(entry.suite.testCase(), result, trials.length)
    }
  }
  for (const { suite, seconds } of suites.values()) suite.time(round(seconds))
  return `${builder.build()}\n`
}

function newSuite<
  T extends { name(n: string): T; timestamp(t: string): T; property(n: string, v: string): T },
>(suite: T, name: string, header: ReportHeader): T {
  const { run, gate } = header
  const info = run.suites.find((candidate) => candidate.name === name)
  suite.name(xml(name)).timestamp(run.startedAt)
  const properties: [string, string | undefined][] = [
    ['run', run.id],
    ['target', info?.targetId],
    ['model', info?.model],
    ['file', info?.file],
    ['git.commit', run.git?.commit],
    ['git.branch', run.git?.branch],
    ['evals.version', run.cliVersion],
    ['gate', gate?.decision],
  ]
  for (const [key, value] of properties) if (value !== undefined) suite.property(key, xml(value))
  return suite
}

function addCase(testCase: TestCase, result: ReportCase, trials: number): void {
  const id = result.variant === undefined ? result.caseId : `${result.caseId} [${result.variant}]`
  const name = trials > 1 ? `${id} [trial ${result.trial + 1}/${trials}]` : id
  testCase
    .className(xml(result.suite))
    .name(xml(name))
    .time(round(result.durationMs / 1000))
  if (result.tags.length > 0) testCase.property('tags', xml(result.tags.join(',')))
  if (result.status === 'passed' || result.status === 'failed')
    testCase.property('score', String(result.score))
  const partial = partialNote(result)
  if (partial !== undefined) testCase.property('partial', xml(partial))
  const transcript = result.status === 'skipped' ? undefined : result.transcript
  if (transcript && transcript.costUsd !== null) testCase.property('costUsd', String(transcript.costUsd))
  switch (result.status) {
    case 'passed':
      return
    case 'skipped':
      testCase.skipped().standardOutput(cdata(`skipped: ${result.reason}`))
      return
    case 'failed': {
      const reasons = problemReasons(result)
      const first = reasons[0]
      testCase
        .failure(
          xml(truncate(first ? `${first.evaluator}: ${first.reason}` : 'failed', MESSAGE_CHARS)),
          first?.evaluator,
        )
        .stacktrace(cdata(truncate(reasons.map((r) => `${r.evaluator}: ${r.reason}`).join('\n'), BODY_CHARS)))
      break
    }
    case 'errored':
      testCase.error(
        xml(truncate(result.error.message, MESSAGE_CHARS)),
        xml(result.error.code ?? result.error.name),
        result.error.stack === undefined ? undefined : cdata(truncate(result.error.stack, BODY_CHARS)),
      )
      break
  }
  const turns = turnViews(result)
  if (turns) testCase.standardOutput(cdata(conversationText(turns, BODY_CHARS)))
  else if (transcript) {
    const input = typeof transcript.input === 'string' ? transcript.input : JSON.stringify(transcript.input)
    testCase.standardOutput(
      cdata(`input: ${truncate(input, BODY_CHARS)}\noutput: ${truncate(transcript.output, BODY_CHARS)}`),
    )
  }
}

function xml(text: string): string {
  return visibleControls(text)
}

/** junit-report-builder splits only the first `]]>` of a CDATA section; this splits the others. */
function cdata(text: string): string {
  const safe = visibleControls(text)
  const first = safe.indexOf(']]>')
  if (first === -1) return safe
  return safe.slice(0, first + 3) + safe.slice(first + 3).replaceAll(']]>', ']]]]><![CDATA[>')
}

function round(value: number): number {
  return Math.round(value * 1000) / 1000
}
