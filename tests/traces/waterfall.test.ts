import { mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import type { Browser } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import type { CaseResult } from '../../src/model/case-result.ts'
import { openReport } from '../../src/report-file/read.ts'
import { writeJsonReport } from '../../src/report-file/write-json.ts'
import { htmlRenderer } from '../../src/reporters/html/html.ts'
import { caseSpansOf } from '../../src/traces/span.ts'
import { launchChromium, NO_CHROMIUM } from '../reporters/browser.ts'
import { syntheticResult, writeRun } from '../reporters/synthetic.ts'
import { named } from '../reporters/tools.ts'
import { spanOf } from './spans.ts'

const HOSTILE = '<img src=x onerror="document.body.dataset.owned=1">'

/** A passed case whose transcript carries spans: a root, a model call under it, and a failed tool call. */
function tracedResult(): CaseResult {
  const base = syntheticResult(20)
  if (base.status !== 'passed') throw new Error('expected a passed synthetic case')
  const root = spanOf('invoke_agent orders', {}, { startedAt: 1000, durationMs: 400 })
  const chat = spanOf(
    'chat gpt-4.1-mini',
    {},
    { startedAt: 1010, durationMs: 200, parentSpanId: root.spanId },
  )
  const tool = spanOf(
    HOSTILE,
    {},
    {
      startedAt: 1220,
      durationMs: 100,
      parentSpanId: root.spanId,
      status: 'error',
      error: 'no order X',
    },
  )
  return {
    ...base,
    transcript: { ...base.transcript, spans: { ...caseSpansOf([root, chat, tool]), omitted: 3 } },
  }
}

describe.skipIf(NO_CHROMIUM !== undefined)(
  named('the spans waterfall in headless Chromium', NO_CHROMIUM),
  () => {
    let browser: Browser
    let path: string
    beforeAll(async () => {
      browser = await launchChromium()
      const dir = mkdtempSync(join(tmpdir(), 'evals-waterfall-'))
      const json = await writeJsonReport(writeRun(dir, [tracedResult()]), { env: {}, cwd: dir })
      // report.json keeps the spans, and reading it back keeps them for the page
      expect(readFileSync(json, 'utf8')).toContain('"invoke_agent orders"')
      path = join(dir, 'report.html')
      await htmlRenderer.render(await openReport(json, { validate: true }), path)
    }, 60_000)
    afterAll(() => browser.close())

    test("a case's spans are a waterfall: nested by parent, placed by time, errors marked, every name as text", async () => {
      const page = await browser.newPage({ viewport: { width: 1280, height: 900 } })
      await page.goto(pathToFileURL(path).href)
      await page.waitForSelector('body[data-ready="1"]')
      await page.locator('#rows .row').first().click()
      const rows = page.locator('#detail .waterfall .span-row')

      expect(await page.locator('#detail h3').allTextContents()).toContain('Spans')
      expect(await rows.locator('.label').allTextContents()).toEqual([
        'invoke_agent orders · 400 ms',
        'chat gpt-4.1-mini · 200 ms',
        `${HOSTILE} · 100 ms · error: no order X`,
      ])
      const styleOf = async (selector: string) => {
        const found = rows.locator(selector)
        const styles: (string | null)[][] = []
        for (let i = 0; i < (await found.count()); i++)
          styles.push([await found.nth(i).getAttribute('style'), await found.nth(i).getAttribute('class')])
        return styles
      }
      expect(await styleOf('.label')).toEqual([
        ['padding-left: 0em;', 'label'],
        ['padding-left: 1em;', 'label'],
        ['padding-left: 1em;', 'label'],
      ])
      expect(await styleOf('.bar')).toEqual([
        ['left: 0%; width: 100%;', 'bar span'],
        ['left: 2.5%; width: 50%;', 'bar span'],
        ['left: 55%; width: 25%;', 'bar span error'],
      ])
      expect(await page.locator('#detail').textContent()).toContain(
        '3 more spans were captured and left out of the report',
      )
      expect(await page.locator('#detail img').count()).toBe(0)
      expect(await page.locator('body').getAttribute('data-owned')).toBeNull()
    })
  },
)
