import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import type { Browser } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { reportSchema } from '../../src/report-file/schema.ts'
import type { RunReport } from '../../src/model/run-report.ts'
import { launchChromium, NO_CHROMIUM } from './browser.ts'
import { runScenario, SCENARIOS } from './helpers.ts'
import { named } from './tools.ts'

const conversation = SCENARIOS.find((scenario) => scenario.name === 'a conversation with a failing turn')

describe('a conversation case in every report format', () => {
  let run: RunReport
  const file = (name: string): string => join(run.dir, name)

  beforeAll(async () => {
    if (!conversation) throw new Error('the conversation scenario is missing')
    run = await runScenario(conversation)
  })

  test('report.json holds the turns, and each turn’s checks carry their turn', () => {
    const report = reportSchema.parse(JSON.parse(readFileSync(file('report.json'), 'utf8')))
    const [chat] = report.cases
    expect(chat).toMatchObject({
      status: 'failed',
      turns: [
        { user: 'hi', output: 'hello there', tools: [] },
        { user: 'refund order o-7', output: 'cannot refund order o-7', tools: [] },
      ],
    })
    if (chat?.status !== 'failed') return
    expect(chat.verdicts.map((verdict) => [verdict.turn, verdict.evaluator, verdict.pass])).toEqual([
      [1, 'contains', true],
      [2, 'contains', false],
      [undefined, 'max_length', true],
    ])
  })

  test('the console summary and JUnit name the failing turn, and JUnit shows the conversation', () => {
    expect(run.problems[0]?.reasons[0]?.evaluator).toBe('turn 2 › contains')
    const xml = readFileSync(file('report.junit.xml'), 'utf8')
    expect(xml).toContain('type="turn 2 › contains"')
    expect(xml).toContain(
      [
        'turn 1',
        '  user: hi',
        '  reply: hello there',
        '  ✓ contains: output contains `hello`',
        'turn 2',
        '  user: refund order o-7',
        '  reply: cannot refund order o-7',
      ].join('\n'),
    )
  })

  test('report.md lists the turns under the failing case', () => {
    const markdown = readFileSync(file('report.md'), 'utf8')
    expect(markdown).toContain('**turn 2 › contains**')
    expect(markdown).toContain(
      '  - ✅ turn 1: hi → hello there\n  - ❌ turn 2: refund order o-7 → cannot refund order o-7 — **contains**:',
    )
  })

  describe.skipIf(NO_CHROMIUM !== undefined)(named('report.html in headless Chromium', NO_CHROMIUM), () => {
    let browser: Browser
    beforeAll(async () => {
      browser = await launchChromium()
    }, 60_000)
    afterAll(async () => {
      await browser.close()
    })

    test('shows the conversation turn by turn with each turn’s checks', async () => {
      const page = await browser.newPage()
      await page.goto(pathToFileURL(file('report.html')).href)
      await page.waitForSelector('body[data-ready="1"]')
      expect(await page.locator('#rows .row').first().textContent()).toContain('turn 2 › contains')
      await page.locator('#rows .row').first().click()
      const turns = page.locator('#detail .turn')
      expect(await turns.count()).toBe(2)
      expect(await turns.nth(0).textContent()).toContain('hihello therepasscontains')
      expect(await turns.nth(1).textContent()).toContain(
        'refund order o-7cannot refund order o-7failcontains',
      )
      expect(await page.locator('#detail').textContent()).toContain(
        'Verdicts on the whole conversationpassmax_length',
      )
    })
  })
})
