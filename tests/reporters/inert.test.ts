/** A target's text cannot act on the terminal or the Markdown it is shown in. */
import { Writable } from 'node:stream'
import { micromark } from 'micromark'
import { gfm, gfmHtml } from 'micromark-extension-gfm'
import { describe, expect, test } from 'vitest'
import type { CaseResult } from '../../src/model/case-result.ts'
import type { RunInfo, RunReport } from '../../src/model/run-report.ts'
import { ConsoleReporter, formatSummary } from '../../src/reporters/console.ts'
import { makeStyle } from '../../src/reporters/format.ts'
import { inert } from '../../src/reporters/inert.ts'
import { inlineMarkdown } from '../../src/reporters/markdown-text.ts'
import { emptyUsage } from '../../src/types.ts'

/** clear screen, window title, an OSC 8 link, a bell, a one-byte CSI, a right-to-left override, CR, and new lines */
const HOSTILE =
  'boom\u001b[2J\u001b]0;pwned\u0007\u001b]8;;http://evil.example\u0007click\u001b]8;;\u0007\u009b31m\u202eevil\r✓ everything fine\n✓ support › all 100 cases passed'

const info: RunInfo = {
  runId: 'r',
  startedAt: '2026-01-01T00:00:00.000Z',
  suites: [{ name: 'support', file: 'cases/support.yaml', targetId: 'agent:x' }],
  total: 2,
  concurrency: 1,
  dir: 'reports/r',
}

const base = { suite: 'support', trial: 0, tags: [] as string[], weight: 1, durationMs: 5 }
const results: CaseResult[] = [
  { ...base, caseId: 'errored', status: 'errored', error: { name: 'Error', message: HOSTILE }, verdicts: [] },
  {
    ...base,
    caseId: 'failed',
    status: 'failed',
    score: 0,
    transcript: undefined as never,
    verdicts: [
      { evaluator: 'tool', weight: 1, pass: false, reason: `expected \`refund\`, called \`${HOSTILE}\`` },
    ],
  },
]

function consoleOutput(color: boolean): string {
  let text = ''
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      text += chunk.toString()
      done()
    },
  })
  const reporter = new ConsoleReporter({ stream, color, progress: 'lines' })
  reporter.onRunStart(info)
  for (const result of results) reporter.onCaseEnd(result)
  const problems = results.map((result) => ({
    suite: result.suite,
    caseId: result.caseId,
    trial: 0,
    status: result.status as 'failed' | 'errored',
    reasons: [{ evaluator: 'error', reason: HOSTILE }],
  }))
  const report = {
    ...info,
    durationMs: 1,
    counts: { passed: 0, failed: 1, errored: 1, skipped: 0 },
    accuracy: 0,
    latencyMs: { p50: 1, p95: 1, p99: 1 },
    usage: emptyUsage(),
    costUsd: null,
    unknownCostCount: 0,
    judges: { verdicts: 0, usage: emptyUsage(), costUsd: null },
    problems,
    moreProblems: 0,
    cases: [],
    suiteStats: [],
  } as unknown as RunReport
  return text + formatSummary(report, makeStyle(color))
}

describe('the console shows a target’s text inert', () => {
  test.each([false, true])(
    'with colour %s: no control character but its own styling and line ends',
    (color) => {
      const out = consoleOutput(color)
      // the only escapes are the console's own SGR colours; the only control left is the line end
      // eslint-disable-next-line no-control-regex -- finding control characters is the point
      const withoutStyling = out.replace(/\u001b\[[0-9;]*m/g, '')
      // eslint-disable-next-line no-control-regex -- as above
      expect(withoutStyling).not.toMatch(/[\0-\x09\x0B-\x1F\x7F-\x9F\u202A-\u202E\u2066-\u2069]/)
      if (!color) expect(out).not.toContain('\u001b')
      // the forged lines are shown as text on the case's own line
      expect(out).toContain('boom\\u001b[2J\\u001b]0;pwned\\u0007')
      expect(out).toContain('\\u202eevil\\r✓ everything fine\\n✓ support › all 100 cases passed')
      expect(out.split('\n').filter((line) => line.startsWith('✓'))).toEqual([])
    },
  )

  test('inert keeps printable text, emoji and combined characters as they are', () => {
    expect(inert('café 👍🏽 naïve — ok')).toBe('café 👍🏽 naïve — ok')
    expect(inert('\uD800x')).toBe('\\ud800x')
  })
})

describe('Markdown shows a model’s URLs as text', () => {
  const render = (markdown: string): string =>
    micromark(markdown, { extensions: [gfm()], htmlExtensions: [gfmHtml()] })
  const output =
    'see https://evil.example/login, HTTP://EVIL.example, www.evil.example and WWW.evil.example/x'

  test('the positive control: GFM links the same text when it is not escaped', () => {
    expect(render(output)).toContain('<a href="https://evil.example/login"')
  })

  test('inlineMarkdown leaves GFM nothing to link', () => {
    const html = render(inlineMarkdown(output, 500))
    expect(html).not.toContain('<a')
    expect(html).toContain('https://evil.example/login')
    expect(html).toContain('www.evil.example')
  })
})
