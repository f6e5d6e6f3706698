import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import type { Browser, Locator, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import type { GateResult } from '../../src/baselines/gate.ts'
import { startView, type ViewServer } from '../../src/view/server.ts'
import { launchChromium, NO_CHROMIUM } from '../reporters/browser.ts'
import { tempDir } from '../runner/helpers.ts'
import { runInto, variantRunInto } from './runs.ts'

describe.skipIf(NO_CHROMIUM !== undefined)('evals view of variant runs, gates and a lone run', () => {
  let browser: Browser
  const servers: ViewServer[] = []

  beforeAll(async () => {
    browser = await launchChromium()
  }, 60_000)

  afterAll(async () => {
    await browser.close()
    await Promise.all(servers.map((server) => server.close()))
  })

  async function open(reports: string, suite: string): Promise<Page> {
    const server = await startView({ roots: [reports] })
    servers.push(server)
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } })
    const errors: string[] = []
    page.on('pageerror', (error) => errors.push(error.message))
    await page.goto(server.url)
    await page.waitForSelector(`section.suite[data-suite="${suite}"] tr.run`)
    await page.locator(`section[data-suite="${suite}"] .chart .uplot`).waitFor()
    expect(errors).toEqual([])
    return page
  }

  const column = (page: Page, runId: string, cell: string) =>
    page.locator(`tr.run[data-run="${runId}"] td.${cell} .line`).allTextContents()

  test('one row per run, each variant inside it by name with its own counts, and a trend line per variant', async () => {
    const reports = tempDir()
    await variantRunInto(reports, 'variants-1')
    await variantRunInto(reports, 'variants-2')
    const page = await open(reports, 'compare')
    const section = page.locator('section[data-suite="compare"]')

    expect(await section.locator('h2').textContent()).toBe('compare 2 runs')
    expect(await section.locator('tbody tr.run').count()).toBe(2)
    expect(await column(page, 'variants-1', 'variant')).toEqual(['v1', 'v2', 'loud'])
    expect(await column(page, 'variants-1', 'pass')).toEqual(['1', '2', '1'])
    expect(await column(page, 'variants-1', 'fail')).toEqual(['1', '0', '1'])
    expect(await column(page, 'variants-1', 'accuracy')).toEqual([
      expect.stringMatching(/^50\.0% \[/),
      expect.stringMatching(/^100\.0% \[/),
      expect.stringMatching(/^50\.0% \[/),
    ])
    // v1 is the baseline variant: the others are gated against it
    expect(await column(page, 'variants-1', 'gate-cell')).toEqual(['–', 'PASS', 'PASS'])
    const legend = await section.locator('.chart .u-legend').textContent()
    for (const name of ['v1', 'v2', 'loud']) expect(legend).toContain(`${name} accuracy %`)
    expect(legend).not.toContain('Cost $')
  })

  test('the gate column shows a significant regression as FAIL in red, a one-trial flip as WARN, and dates to the second', async () => {
    const reports = tempDir()
    const baselines = join(reports, 'baselines')
    // a nightly baseline at 5 trials; the critical `refund` then fails all 5 trials of a run (one-sided Fisher exact
    // p = 1/C(10,5) = 1/252 ≈ 0.004 < α = 0.05: a real drop), and its only trial in a one-trial run (p = 1/6)
    const nightly = { trials: 5 }
    await runInto(reports, 'blessed', [], { dir: baselines, record: true }, nightly)
    const regressed = await runInto(reports, 'regressed', ['refund'], { dir: baselines }, nightly)
    const flipped = await runInto(reports, 'flipped', ['refund'], { dir: baselines })
    const gateOf = (run: string) =>
      (JSON.parse(readFileSync(join(run, 'summary.json'), 'utf8')) as { suiteStats: { gate: GateResult }[] })
        .suiteStats[0]?.gate
    expect(gateOf(regressed)).toMatchObject({
      decision: 'fail',
      // the stratified permutation test permutes trials within each case: only `refund` varies, so it is the same
      // Fisher exact test, p = 1/252
      reasons: [
        'Accuracy fell 25.0 points on 4 paired case(s): 100.0% → 75.0% weighted (1 fell, 0 rose), one-sided paired permutation test p = 0.0040 < α = 0.05.',
        'Critical case `refund` dropped: 5/5 → 0/5 trials passed (tagged `critical`), one-sided Fisher exact test p = 0.0040 < α = 0.05.',
      ],
    })
    expect(gateOf(flipped)).toMatchObject({ decision: 'warn', reasons: [] })
    const page = await open(reports, 'support')

    // the page's own getComputedStyle: the test is typed without the DOM library
    const backgroundOf = (gate: Locator) =>
      gate.evaluate((node) => {
        const style = (
          globalThis as unknown as { getComputedStyle: (n: unknown) => { backgroundColor: string } }
        ).getComputedStyle
        return style(node).backgroundColor
      })
    const fail = page.locator('tr.run[data-run="regressed"] .gate')
    expect(await fail.textContent()).toBe('FAIL')
    expect(await backgroundOf(fail)).toBe('rgb(207, 34, 46)')
    // one trial cannot tell a drop of a critical case from noise: a warning, not a failure (issue 27)
    const warn = page.locator('tr.run[data-run="flipped"] .gate')
    expect(await warn.textContent()).toBe('WARN')
    expect(await backgroundOf(warn)).toBe('rgb(255, 248, 197)')
    expect(await page.locator('tr.run[data-run="blessed"] td.gate-cell').textContent()).toBe('–')
    expect(await page.locator('tr.run[data-run="regressed"] td').nth(1).textContent()).toMatch(
      /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC$/,
    )
  })

  test("a lone run's chart spans about a day around it, not years", async () => {
    const reports = tempDir()
    await runInto(reports, 'only')
    const page = await open(reports, 'support')
    const chart = page.locator('section[data-suite="support"] .chart')
    await expect.poll(() => chart.getAttribute('data-from')).not.toBeNull()
    const from = Date.parse((await chart.getAttribute('data-from')) ?? '')
    const to = Date.parse((await chart.getAttribute('data-to')) ?? '')
    expect(to - from).toBeGreaterThan(0)
    expect(to - from).toBeLessThanOrEqual(24 * 3600 * 1000)
    expect(Math.abs(to - Date.now())).toBeLessThan(24 * 3600 * 1000)
  })
})
