import { mkdtempSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { openReport } from '../../src/report-file/read.ts'
import { writeJsonReport } from '../../src/report-file/write-json.ts'
import { htmlRenderer } from '../../src/reporters/html/html.ts'
import { launchChromium, NO_CHROMIUM } from './browser.ts'
import { syntheticResult, syntheticResults, writeRun } from './synthetic.ts'
import { named } from './tools.ts'

const LARGE = 10_000

async function htmlReport(cases: number, extra: object = {}): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'evals-html-'))
  const json = await writeJsonReport(
    { ...writeRun(dir, syntheticResults(cases)), ...extra },
    { env: {}, cwd: dir },
  )
  const path = join(dir, 'report.html')
  await htmlRenderer.render(await openReport(json, { validate: false }), path)
  return path
}

const comparison = {
  suite: 'support',
  baselineCreatedAt: '2026-01-01T00:00:00.000Z',
  baselineAgeDays: 30,
  cases: [
    {
      id: 'case-00005',
      transition: 'regressed',
      tags: ['shipping'],
      baseline: { status: 'passed', passes: 1, trials: 1, passRate: 1, latencyMs: 400, costUsd: 0.0002 },
      current: { status: 'failed', passes: 0, trials: 1, passRate: 0, latencyMs: 405, costUsd: 0.0002 },
      passRateDelta: -1,
    },
  ],
  counts: { regressed: 1, improved: 0, unchanged: 0, new: 0, removed: 0, 'input-changed': 0, unscored: 0 },
  accuracy: { baseline: 1, current: 0.9, delta: -0.1 },
  paired: null,
  latency: { baseline: null, current: null, p50Ratio: null, p95Ratio: null },
  cost: { baselineUsd: null, currentUsd: null, ratio: null },
  warnings: [],
}

describe.skipIf(NO_CHROMIUM !== undefined)(named('the HTML report in headless Chromium', NO_CHROMIUM), () => {
  let browser: Browser
  let page: Page
  let path: string

  beforeAll(async () => {
    browser = await launchChromium()
    path = await htmlReport(200, {
      comparison,
      gate: { decision: 'fail', reasons: ['Critical case `case-00005` regressed'], warnings: [] },
    })
  }, 60_000)
  afterAll(async () => {
    await browser.close()
  })

  const open = async (file: string): Promise<Page> => {
    page = await browser.newPage({ viewport: { width: 1280, height: 900 } })
    await page.goto(pathToFileURL(file).href)
    await page.waitForSelector('body[data-ready="1"]')
    return page
  }

  test('shows the summary, the gate and the baseline', async () => {
    await open(path)
    expect(await page.locator('#cards').textContent()).toContain(
      '89.5%Accuracy170Passed20Failed6Errored4Skipped550 msLatency p50',
    )
    expect(await page.locator('#gate').textContent()).toContain(
      'Gate: failCritical case `case-00005` regressed',
    )
    expect(await page.locator('#baseline').textContent()).toContain(
      'Baseline support: accuracy 100.0% → 90.0% (-10.0 pts) · 1 regressed',
    )
    expect(await page.locator('#shown').textContent()).toBe('200 of 200 case runs')
  })

  test('a short run leaves no blank table: the rows, then the details, on the first screen', async () => {
    await open(await htmlReport(6))
    const viewport = await page.locator('#viewport').boundingBox()
    expect(viewport?.height).toBe(6 * 28)
    const detail = await page.locator('#detail').boundingBox()
    expect((detail?.y ?? Infinity) + 40).toBeLessThan(900)
  })

  test('filters by status, tag and evaluator', async () => {
    await open(path)
    for (const status of ['passed', 'errored', 'skipped'])
      await page.locator(`input[value="${status}"]`).uncheck()
    expect(await page.locator('#shown').textContent()).toBe('20 of 200 case runs')
    await page.locator('#tag').selectOption('billing')
    expect(await page.locator('#shown').textContent()).toBe('7 of 200 case runs')
    await page.locator('#evaluator').selectOption('contains')
    expect(await page.locator('#shown').textContent()).toBe('7 of 200 case runs')
    const statuses = await page.locator('#rows .row .st').allTextContents()
    expect(new Set(statuses)).toEqual(new Set(['failed']))
  })

  test('searches case ids, outputs and reasons', async () => {
    await open(path)
    await page.locator('#search').fill('TRK-142')
    await expect.poll(() => page.locator('#shown').textContent()).toBe('1 of 200 case runs')
    await page.locator('#search').fill('did not answer within')
    await expect.poll(() => page.locator('#shown').textContent()).toBe('6 of 200 case runs')
  })

  test('expands a case to its input, output, tool calls, verdicts and trace, with its baseline', async () => {
    await open(path)
    await page.locator('#search').fill('case-00005')
    await page.locator('#rows .row', { hasText: 'case-00005' }).click()
    const detail = page.locator('#detail')
    expect(await detail.locator('h2').textContent()).toBe('support › case-00005')
    expect(await detail.locator('h3').allTextContents()).toEqual([
      'Input',
      'Output',
      'Verdicts',
      'Tool calls',
      'Trace',
    ])
    expect(await detail.textContent()).toContain('baseline: regressed')
    expect(await detail.textContent()).toContain(
      'arguments: {\n  "order_id": 1005\n}\nresult: {\n  "status": "shipped"\n}',
    )
    expect(await detail.textContent()).toContain(
      'failcontainsoutput does not contain `refunded` (ignoring case)',
    )
    expect(await detail.locator('.timeline .step').count()).toBe(4)
    const shot = await page.screenshot({ fullPage: true })
    expect(shot.length).toBeGreaterThan(10_000)
  })

  test('says what a target did not report, and which adapter and agent a transcript came from', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'evals-html-'))
    const plain = syntheticResult(21)
    const adapted = syntheticResult(22)
    if (
      plain.status === 'skipped' ||
      adapted.status === 'skipped' ||
      !plain.transcript ||
      !adapted.transcript
    )
      throw new Error('synthetic results carry transcripts')
    plain.transcript = {
      ...plain.transcript,
      source: 'target',
      toolCalls: null,
      usage: null,
      iterations: null,
    }
    adapted.transcript = { ...adapted.transcript, source: 'adapter:openai-agents', agent: 'refunds' }
    const json = await writeJsonReport(writeRun(dir, [plain, adapted]), { env: {}, cwd: dir })
    const file = join(dir, 'report.html')
    await htmlRenderer.render(await openReport(json, { validate: true }), file)
    await open(file)
    const detail = page.locator('#detail')
    await page.locator('#rows .row', { hasText: 'case-00021' }).click()
    expect(await detail.locator('p.hint').textContent()).toContain('tokens unknown')
    expect(await detail.textContent()).toContain(
      'Tool callsunknown: the target does not report its tool calls',
    )
    await page.locator('#rows .row', { hasText: 'case-00022' }).click()
    expect(await detail.locator('p.hint').textContent()).toContain(
      'answered by refunds · via adapter:openai-agents',
    )
  })

  test(`stays under 15 MB at ${LARGE.toLocaleString('en-US')} cases and draws only the visible rows (load time: npm run bench:reports)`, async () => {
    const large = await htmlReport(LARGE)
    expect(statSync(large).size).toBeLessThan(15_000_000)
    await open(large)
    expect(await page.locator('#rows .row').count()).toBeLessThan(100)
    await page.locator('#viewport').hover()
    await page.mouse.wheel(0, 28 * 5000)
    await expect.poll(() => page.locator('#rows .row', { hasText: 'case-05000' }).count()).toBe(1)
  }, 60_000)
})
