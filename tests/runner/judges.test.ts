import { readdirSync } from 'node:fs'
import { describe, expect, test } from 'vitest'
import { PassThrough } from 'node:stream'
import { ConsoleReporter, formatSummary } from '../../src/reporters/console.ts'
import { makeStyle } from '../../src/reporters/format.ts'
import { runSuite } from '../../src/runner/run-suite.ts'
import { ScriptedProvider } from '../../src/testing/index.ts'
import { caseOf, readResults, suiteOf, targetOf, targetsFor, tempDir, transcriptOf } from './helpers.ts'

const polite = targetOf((input) => transcriptOf(input, 'Your subscription is cancelled.'))
const verdict = (choice: string) => ({
  toolCalls: [{ name: 'verdict', args: { reasons: `graded ${choice}`, choice } }],
})

describe('LLM judges in a run', () => {
  test('a case with a judge and no judge model is skipped, never passed or failed', async () => {
    const suite = suiteOf([caseOf('judged', { judge: [{ rubric: 'Confirms the cancellation' }] })])
    const report = await runSuite(suite, { outDir: tempDir(), targets: targetsFor(suite, polite) })

    expect(report.counts).toEqual({ passed: 0, failed: 0, errored: 0, skipped: 1, partial: 0 })
    const [result] = readResults(report.resultsFile)
    expect(result).toMatchObject({ status: 'skipped' })
    expect(JSON.stringify(result)).toContain('--judge')
  })

  test('a skipped judge does not fail a case whose other checks pass', async () => {
    const suite = suiteOf([
      caseOf('mixed', {
        expect: { contains: 'cancelled' },
        judge: [{ rubric: 'Confirms the cancellation' }],
      }),
    ])
    const report = await runSuite(suite, { outDir: tempDir(), targets: targetsFor(suite, polite) })

    expect(report.counts).toMatchObject({ passed: 1, partial: 1 })
  })

  test('a pass with a skipped judge is partial everywhere: results.jsonl, the case line and the summary', async () => {
    const suite = suiteOf([
      caseOf('mixed', {
        expect: { contains: 'cancelled', not_contains: 'sorry' },
        judge: [{ rubric: 'Confirms the cancellation' }],
      }),
      caseOf('plain', { expect: { contains: 'cancelled' } }),
    ])
    const lines: string[] = []
    const stream = Object.assign(new PassThrough(), { isTTY: false })
    stream.on('data', (chunk: Buffer) => lines.push(chunk.toString()))
    const report = await runSuite(suite, {
      outDir: tempDir(),
      targets: targetsFor(suite, polite),
      reporters: [new ConsoleReporter({ stream, color: false, progress: 'lines' })],
    })

    const rows = readResults(report.resultsFile).sort((a, b) => a.caseId.localeCompare(b.caseId))
    expect(rows.map((row) => [row.caseId, row.status, 'partial' in row && row.partial])).toEqual([
      ['mixed', 'passed', true],
      ['plain', 'passed', false],
    ])
    const printed = lines.join('')
    expect(printed).toMatch(/✓ \S+ › mixed \S+ — partial: 2 of 3 checks ran \(skipped: rubric\)/)
    expect(printed).toMatch(/Cases\s+1 passed · 1 partial · 0 failed/)
    expect(printed).toContain('Partial   1 passed with checks skipped (no judge model)')
  })

  test('`gate: { require_judges: true }` refuses to run a judged suite without a judge model', async () => {
    const suite = suiteOf([caseOf('judged', { judge: [{ rubric: 'Confirms the cancellation' }] })], {
      gate: { require_judges: true },
    })
    const outDir = tempDir()
    await expect(runSuite(suite, { outDir, targets: targetsFor(suite, polite) })).rejects.toThrow(
      /demo\.yaml: cases have LLM judges but no judge model is set, and `gate\.require_judges` does not let them be skipped/,
    )
    expect(readdirSync(outDir)).toEqual([])
  })

  test('the judge provider grades each case, and a low grade fails it', async () => {
    const judge = new ScriptedProvider([verdict('10'), verdict('2')])
    const suite = suiteOf(
      [
        caseOf('good', { judge: [{ rubric: 'Confirms the cancellation' }] }),
        caseOf('bad', { judge: [{ rubric: 'Confirms the cancellation' }] }),
      ],
      { judge: { model: 'openai:gpt-4.1-mini' } },
    )
    const report = await runSuite(suite, {
      outDir: tempDir(),
      concurrency: 1,
      judgeProvider: judge,
      targets: targetsFor(suite, polite),
    })

    expect(report.judges.verdicts).toBe(2)
    expect(report.judges.usage.inputTokens).toBeGreaterThan(0)
    expect(report.judges.costUsd).toBeNull()
    expect(formatSummary(report, makeStyle(false))).toMatch(
      /Judges\s+2 verdicts · \d+ in · \d+ out · cost unknown \(not counted above\)/,
    )
    expect(report.usage).toEqual(transcriptOf('good', 'Your subscription is cancelled.').usage)
    expect(readResults(report.resultsFile).map((r) => `${r.caseId}:${r.status}`)).toEqual([
      'good:passed',
      'bad:failed',
    ])
    judge.assertDone()
  })
})
