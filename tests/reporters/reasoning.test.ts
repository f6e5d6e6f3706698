import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import type { Browser } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { reportSchema } from '../../src/report-file/schema.ts'
import type { RunReport } from '../../src/model/run-report.ts'
import { emptyUsage, type TraceStep } from '../../src/types.ts'
import { launchChromium, NO_CHROMIUM } from './browser.ts'
import { caseOf, runScenario, transcriptOf } from './helpers.ts'
import { named } from './tools.ts'

const hostile =
  'The user wants <img src=x onerror="document.title=\'owned\'"> a [link](https://evil.example) & more'

function llmCall(iteration: number, reasoning?: string): TraceStep {
  return {
    type: 'llm_call',
    startedAt: 1_700_000_000_000 + iteration,
    durationMs: 5,
    iteration,
    providerId: 'anthropic:claude-test',
    model: 'claude-test',
    usage: emptyUsage(),
    finishReason: iteration === 3 ? 'stop' : 'tool_calls',
    toolCalls: iteration === 3 ? 0 : 1,
    costUsd: 0.001,
    ...(reasoning === undefined ? {} : { reasoning }),
  }
}

// the model showed its thinking at calls 1 and 3, not at 2
const trace = [llmCall(1, hostile), llmCall(2), llmCall(3, 'Paris is warm, so: 21°C.')]

describe('reasoning in the reports', () => {
  let run: RunReport
  const file = (name: string): string => join(run.dir, name)

  beforeAll(async () => {
    run = await runScenario({
      cases: [caseOf('weather', { expect: { contains: 'snow' } })],
      answer: (input) => transcriptOf(input, 'Paris is 21°C.', { trace }),
    })
  })

  test('report.json keeps each model call’s reasoning in the trace', () => {
    const report = reportSchema.parse(JSON.parse(readFileSync(file('report.json'), 'utf8')))
    const [weather] = report.cases
    if (!weather || !('transcript' in weather)) throw new Error('the case has no transcript')
    const calls = weather.transcript?.trace?.filter((step) => step.type === 'llm_call')
    expect(calls?.map((step) => [step.iteration, step.reasoning])).toEqual([
      [1, hostile],
      [2, undefined],
      [3, 'Paris is warm, so: 21°C.'],
    ])
  })

  test('report.md shows it per model call, collapsed and escaped', () => {
    const markdown = readFileSync(file('report.md'), 'utf8')
    expect(markdown).toContain(
      [
        '  <details><summary>Reasoning (2 model calls)</summary>',
        '',
        '  - model call 1: The user wants \\<img src=x onerror="document.title=\'owned\'"\\> a \\[link\\]\\(https\\://evil.example\\) \\& more',
        '  - model call 3: Paris is warm, so: 21°C.',
        '',
        '  </details>',
      ].join('\n'),
    )
    expect(markdown).not.toMatch(/(?<!\\)<img/)
  })

  describe.skipIf(NO_CHROMIUM !== undefined)(named('report.html in headless Chromium', NO_CHROMIUM), () => {
    let browser: Browser
    beforeAll(async () => {
      browser = await launchChromium()
    }, 60_000)
    afterAll(async () => {
      await browser.close()
    })

    test('shows it per model call, collapsed, as text that does nothing', async () => {
      const page = await browser.newPage()
      await page.goto(pathToFileURL(file('report.html')).href)
      await page.waitForSelector('body[data-ready="1"]')
      await page.locator('#rows .row').first().click()
      const boxes = page.locator('#detail details.reasoning')

      expect(await boxes.locator('summary').allTextContents()).toEqual(['Model call 1', 'Model call 3'])
      // closed: no `open` attribute
      expect([await boxes.nth(0).getAttribute('open'), await boxes.nth(1).getAttribute('open')]).toEqual([
        null,
        null,
      ])
      expect(await boxes.first().locator('pre').isVisible()).toBe(false)
      await boxes.first().locator('summary').click()
      expect(await boxes.first().locator('pre').isVisible()).toBe(true)
      expect(await boxes.first().locator('pre').textContent()).toBe(hostile)
      expect(await page.locator('#detail img').count()).toBe(0)
      expect(await page.title()).not.toBe('owned')
    })
  })
})
