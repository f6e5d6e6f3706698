import { join } from 'node:path'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
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

  test('the gate column shows a FAIL in red, and dates to the second', async () => {
    const reports = tempDir()
    const baselines = join(reports, 'baselines')
    await runInto(reports, 'blessed', [], { dir: baselines, record: true })
    await runInto(reports, 'regressed', ['refund'], { dir: baselines })
    const page = await open(reports, 'support')

    const fail = page.locator('tr.run[data-run="regressed"] .gate')
    expect(await fail.textContent()).toBe('FAIL')
    // the page's own getComputedStyle: the test is typed without the DOM library
    const background = await fail.evaluate((node) => {
      const style = (
        globalThis as unknown as { getComputedStyle: (n: unknown) => { backgroundColor: string } }
      ).getComputedStyle
      return style(node).backgroundColor
    })
    expect(background).toBe('rgb(207, 34, 46)')
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
