import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import { openReport } from '../../src/report-file/read.ts'
import { writeJsonReport } from '../../src/report-file/write-json.ts'
import { inlineMarkdown } from '../../src/reporters/markdown-text.ts'
import { MARKDOWN_MAX_BYTES, renderMarkdown } from '../../src/reporters/markdown.ts'
import type { CaseResult } from '../../src/model/case-result.ts'
import { syntheticResult, writeRun } from './synthetic.ts'

async function markdownOf(results: Iterable<CaseResult>): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'evals-md-'))
  const json = await writeJsonReport(writeRun(dir, results), { env: {}, cwd: dir })
  return renderMarkdown(await openReport(json, { validate: false }))
}

function* failing(n: number, reason: string): Generator<CaseResult> {
  for (let i = 0; i < n; i++) {
    const result = syntheticResult(20 + (i % 80))
    if (result.status !== 'passed') continue
    yield {
      ...result,
      caseId: `case-${String(i).padStart(5, '0')}`,
      status: 'failed',
      verdicts: [{ evaluator: 'contains', weight: 1, pass: false, reason }],
    }
  }
}

describe('renderMarkdown', () => {
  test(`stays under ${MARKDOWN_MAX_BYTES.toLocaleString('en-US')} bytes with 10,000 long failures and says how many it left out`, async () => {
    // 1,000 characters: longer than the longest a report shows of any text (500), so each line is cut at its most
    const markdown = await markdownOf(failing(10_000, 'ü'.repeat(1000)))
    expect(Buffer.byteLength(markdown)).toBeLessThan(MARKDOWN_MAX_BYTES)
    expect(markdown).toMatch(/<summary>All 10,000 failing or errored case runs<\/summary>/)
    expect(markdown).toMatch(/- … and [\d,]+ more in report\.json\n\n<\/details>\n$/)
  })

  test('lists the top ten failures with their reasons in a table', async () => {
    const markdown = await markdownOf(failing(12, 'expected `refunded`'))
    const rows = markdown.split('\n').filter((line) => line.startsWith('| ❌'))
    expect(rows).toHaveLength(10)
    expect(rows[0]).toBe('| ❌ support › case-00000 | contains | expected \\`refunded\\` |')
  })

  test('says so when every case passed', async () => {
    expect(await markdownOf([syntheticResult(20)])).toMatch(/\n\nEvery case passed\.\n$/)
  })
})

describe('inlineMarkdown', () => {
  test('escapes what Markdown would act on and puts mentions in code spans', () => {
    expect(inlineMarkdown('[x](javascript:y) <b>*hi*</b> @team | $1', 200)).toBe(
      '\\[x\\]\\(javascript:y\\) \\<b\\>\\*hi\\*\\</b\\> `@team` \\| \\$1',
    )
  })

  test('keeps one line and shows control characters', () => {
    expect(inlineMarkdown('a\n\n b\u001b[0m', 200)).toBe('a b\\\\u001b\\[0m')
  })
})
