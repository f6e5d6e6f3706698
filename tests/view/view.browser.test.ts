import { appendFileSync, copyFileSync } from 'node:fs'
import { join } from 'node:path'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { startView, type ViewServer } from '../../src/view/server.ts'
import { launchChromium, NO_CHROMIUM } from '../reporters/browser.ts'
import { tempDir } from '../runner/helpers.ts'
import { resultLine, runInto, support, unfinishedRun } from './runs.ts'

describe.skipIf(NO_CHROMIUM !== undefined)('evals view in Chromium', () => {
  let browser: Browser
  let server: ViewServer
  let page: Page
  let reports = ''
  let live = ''

  beforeAll(async () => {
    reports = tempDir()
    // one trial per case cannot tell a critical case's drop from noise: the case file's `gate:` block asks for strict
    const strict = { suite: { ...support, gate: { strict_critical: true } } }
    await runInto(reports, 'run-1', ['status'], undefined, strict)
    await runInto(reports, 'run-2', [], undefined, strict)
    await runInto(reports, 'run-3', ['refund', 'greet'], undefined, strict)
    live = unfinishedRun(reports, 'run-4', [resultLine('greet', 'passed')])
    server = await startView({ roots: [reports] })
    browser = await launchChromium()
  }, 60_000)

  afterAll(async () => {
    await browser.close()
    await server.close()
  })

  const open = async (): Promise<Page> => {
    page = await browser.newPage({ viewport: { width: 1280, height: 900 } })
    const errors: string[] = []
    page.on('pageerror', (error) => errors.push(error.message))
    await page.goto(server.url)
    await page.waitForSelector('section.suite[data-suite="support"] tr.run')
    expect(errors).toEqual([])
    return page
  }

  test('lists the runs of a suite newest first with accuracy, counts and state', async () => {
    await open()
    const rows = page.locator('section[data-suite="support"] tbody tr.run')
    const ids = await Promise.all((await rows.all()).map((row) => row.getAttribute('data-run')))
    expect(ids).toEqual(['run-4', 'run-3', 'run-2', 'run-1'])
    const cells = async (runId: string) =>
      (await page.locator(`tr.run[data-run="${runId}"] td`).allTextContents()).map((text) => text.trim())
    expect((await cells('run-3')).slice(4, 8)).toEqual(['50.0% [15.0%–85.0%]', '2', '2', '0'])
    expect((await cells('run-4')).at(-2)).toBe('running')
    expect(await page.locator('tr.run[data-run="run-1"] a.open-report').getAttribute('href')).toBe(
      '/runs/0/run-1/report.html',
    )
  })

  test('draws the accuracy and cost trend with uPlot', async () => {
    await open()
    const chart = page.locator('section[data-suite="support"] .chart .uplot')
    await chart.waitFor()
    expect(await chart.locator('canvas').count()).toBe(1)
    expect(await chart.locator('.u-legend').textContent()).toContain('Accuracy %')
  })

  test('opens a run as its HTML report', async () => {
    await open()
    const [report] = await Promise.all([
      page.context().waitForEvent('page'),
      page.locator('tr.run[data-run="run-2"] a.open-report').click(),
    ])
    await report.waitForSelector('body[data-ready="1"]')
    expect(await report.title()).toContain('support')
  })

  test('compares two runs case by case, regressed cases first, with the gate', async () => {
    await open()
    await page.locator('tr.run[data-run="run-2"] input.select').check()
    await page.locator('tr.run[data-run="run-3"] input.select').check()
    await page.locator('section[data-suite="support"] button.compare').click()
    const panel = page.locator('.compare-panel')
    await panel.waitFor()
    expect(await panel.locator('.gate').textContent()).toBe('FAIL')
    expect(await panel.textContent()).toContain('accuracy 100.0% → 50.0%')
    // two of four cases drop by one: of the 4 equally likely sign flips of the two nonzero differences, 2 move the
    // mean as far (|−0.5|), so the exact two-sided permutation p = 2/4
    expect(await panel.textContent()).toContain('paired permutation test p = 0.5000 on 4 paired cases')
    const rows = await Promise.all(
      (await panel.locator('tbody tr').all()).map(async (row) =>
        (await row.locator('td').allTextContents()).join(' '),
      ),
    )
    expect(rows).toEqual([
      'greet regressed 1/1 0/1 -100 points',
      'refund regressed 1/1 0/1 -100 points',
      'cancel unchanged 1/1 1/1 0 points',
      'status unchanged 1/1 1/1 0 points',
    ])
    expect(await panel.locator('li').allTextContents()).toEqual([
      'Critical case `refund` dropped: 1/1 → 0/1 trials passed (tagged `critical`; `strict_critical` fails any drop).',
    ])
  })

  test('follows a run in progress as its cases finish', async () => {
    await open()
    await page.locator('tr.run[data-run="run-4"] button.watch').click()
    const cases = page.locator('#live tbody tr.case')
    await expect.poll(() => cases.count()).toBe(1)
    appendFileSync(join(live, 'results.jsonl'), `${JSON.stringify(resultLine('refund', 'failed'))}\n`)
    await expect.poll(() => cases.count(), { timeout: 5000 }).toBe(2)
    expect(await cases.first().textContent()).toBe('supportrefund1failed12 msrefund said no')
    expect(await page.locator('#live .live-counts').textContent()).toBe(
      '1 passed · 1 failed · 0 errored · 0 skipped',
    )
    copyFileSync(join(reports, 'run-2', 'summary.json'), join(live, 'summary.json'))
    await expect
      .poll(() => page.locator('#live .live-status').textContent(), { timeout: 5000 })
      .toBe('finished')
  })
})
