import { mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { describe, expect, test } from 'vitest'
import { openReport } from '../../src/report-file/read.ts'
import { writeJsonReport } from '../../src/report-file/write-json.ts'
import { htmlRenderer } from '../../src/reporters/html/html.ts'
import { junitRenderer } from '../../src/reporters/junit.ts'
import { renderMarkdown } from '../../src/reporters/markdown.ts'
import type { CaseResult } from '../../src/model/case-result.ts'
import { launchChromium, NO_CHROMIUM } from './browser.ts'
import { syntheticResult, writeRun } from './synthetic.ts'
import { junitSchemaErrors, named, NO_XMLLINT } from './tools.ts'

const skippedJudge = {
  evaluator: 'rubric',
  weight: 1,
  pass: false,
  skipped: true,
  reason: 'judge `rubric` skipped: no judge model',
}

/** case-00020 passes every check; case-00021 passes the two that ran and skipped its judge. */
function partialRun(): CaseResult[] {
  const full = syntheticResult(20)
  const partly = syntheticResult(21)
  if (partly.status !== 'passed') throw new Error('synthetic case 21 should pass')
  return [full, { ...partly, partial: true, verdicts: [...partly.verdicts, skippedJudge] }]
}

async function reportJson(): Promise<{ dir: string; json: string }> {
  const dir = mkdtempSync(join(tmpdir(), 'evals-partial-'))
  const run = writeRun(dir, partialRun())
  const json = await writeJsonReport({ ...run, counts: { ...run.counts, partial: 1 } }, { env: {}, cwd: dir })
  return { dir, json }
}

describe('a pass with skipped checks in the file reports', () => {
  test('report.json keeps `partial` on the case and counts it apart, and reads back valid', async () => {
    const { json } = await reportJson()
    const source = await openReport(json)
    expect(source.header.summary.counts).toMatchObject({ passed: 2, partial: 1 })
    const cases: CaseResult[] = []
    for await (const result of source.cases()) cases.push(result as CaseResult)
    expect(cases.map((c) => c.status === 'passed' && c.partial === true)).toEqual([false, true])
  })

  test('Markdown counts the partial pass apart from the full ones', async () => {
    const markdown = await renderMarkdown(await openReport((await reportJson()).json))
    expect(markdown).toContain('✅ 1 passed · ◐ 1 partial (checks skipped) · ❌ 0 failed')
    expect(markdown).toContain('Every case passed; 1 only partly checked.')
  })

  test.skipIf(NO_XMLLINT !== undefined)(
    named('JUnit notes the partial pass in system-out and stays valid against both schemas', NO_XMLLINT),
    async () => {
      const { dir, json } = await reportJson()
      const path = join(dir, 'report.junit.xml')
      await junitRenderer.render(await openReport(json), path)
      expect(junitSchemaErrors(path)).toBe('')
      const xml = readFileSync(path, 'utf8')
      expect(xml).toMatch(/── case-00021 · passed · [^\n]*2 of 3 checks ran \(skipped: rubric\)/)
      expect(xml.match(/checks ran/g)).toHaveLength(1)
    },
  )

  test.skipIf(NO_CHROMIUM !== undefined)(
    named('HTML shows a Partial card, the partial row and its checks in Chromium', NO_CHROMIUM),
    async () => {
      const { dir, json } = await reportJson()
      const path = join(dir, 'report.html')
      await htmlRenderer.render(await openReport(json), path)
      const browser = await launchChromium()
      try {
        const page = await browser.newPage()
        await page.goto(pathToFileURL(path).href)
        await page.waitForSelector('body[data-ready="1"]')
        expect(await page.locator('#cards').textContent()).toContain('1Passed1Partial0Failed')
        const row = page.locator('#rows .row', { hasText: 'case-00021' })
        expect(await row.locator('.st').textContent()).toBe('partial')
        expect(await row.textContent()).toContain('partial: 2 of 3 checks ran (skipped: rubric)')
        await row.click()
        expect(await page.locator('#detail').textContent()).toContain(
          'Partly checked2 of 3 checks ran (skipped: rubric)',
        )
      } finally {
        await browser.close()
      }
    },
    60_000,
  )
})
