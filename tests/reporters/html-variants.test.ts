import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import type { Browser, Locator, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import type { Comparison, Transition } from '../../src/baselines/comparison.ts'
import { loadSuite } from '../../src/cases/load.ts'
import type { ReportInput } from '../../src/report-file/header.ts'
import { openReport } from '../../src/report-file/read.ts'
import { writeJsonReport } from '../../src/report-file/write-json.ts'
import { htmlRenderer } from '../../src/reporters/html/html.ts'
import type { CaseResult } from '../../src/model/case-result.ts'
import type { RunReport, VariantSummary } from '../../src/model/run-report.ts'
import { runSuite } from '../../src/runner/run-suite.ts'
import { launchChromium, NO_CHROMIUM } from './browser.ts'
import { syntheticResult, syntheticResults, writeRun } from './synthetic.ts'
import { named } from './tools.ts'

const COMPARE_YAML = join(import.meta.dirname, '..', '..', 'cases', 'compare.yaml')

async function renderHtml(run: ReportInput, dir: string): Promise<string> {
  const json = await writeJsonReport(run, { env: {}, cwd: dir })
  const path = join(dir, 'report.html')
  await htmlRenderer.render(await openReport(json, { validate: false }), path)
  return path
}

function summaryOf(
  variant: string,
  accuracy: number,
  costUsd: number | null,
  tokens: number,
): VariantSummary {
  return {
    suite: 'support',
    variant,
    cases: 10,
    accuracy: { value: accuracy, interval: { low: accuracy * 0.8, high: Math.min(1, accuracy * 1.1) } },
    passHatK: accuracy,
    latencyMs: { p50: 400, p95: 600 },
    tokensPerCase: tokens,
    costPerCaseUsd: costUsd,
    costPerPassUsd: costUsd,
  }
}

/** A synthetic run of `cases` cases under each of `variants`, with the variants' comparison in the header. */
function variantRun(dir: string, cases: number, variants: VariantSummary[]): ReportInput {
  const results: CaseResult[] = []
  for (const { variant } of variants)
    for (const result of syntheticResults(cases)) results.push({ ...result, variant })
  const run = writeRun(dir, results)
  const suite = run.suites[0] as RunReport['suites'][number]
  return {
    ...run,
    suites: variants.map((summary) => ({ ...suite, variant: summary.variant })),
    variants: { variants, pairs: [] },
  }
}

describe.skipIf(NO_CHROMIUM !== undefined)(
  named('the variants matrix in headless Chromium', NO_CHROMIUM),
  () => {
    let browser: Browser
    let compared: string
    // report folders, removed after the tests: the 10,000 × 2 one alone is about 30 MB
    const dirs: string[] = []
    const tempDir = (): string => {
      const dir = mkdtempSync(join(tmpdir(), 'evals-matrix-'))
      dirs.push(dir)
      return dir
    }

    beforeAll(async () => {
      browser = await launchChromium()
      // the offline example of the README: three variants of four cases over `local`
      const dir = tempDir()
      const report = await runSuite(await loadSuite(COMPARE_YAML), { outDir: dir, runId: 'matrix' })
      compared = await renderHtml(report, dir)
    }, 60_000)
    afterAll(async () => {
      for (const dir of dirs) rmSync(dir, { recursive: true, force: true })
      await browser.close()
    })

    const open = async (file: string): Promise<Page> => {
      const page = await browser.newPage({ viewport: { width: 1280, height: 900 } })
      await page.goto(pathToFileURL(file).href)
      await page.waitForSelector('body[data-ready="1"]')
      return page
    }
    const cellTexts = async (row: Locator): Promise<string[]> => row.locator('span').allTextContents()
    const number = async (node: Locator, attribute: string): Promise<number> =>
      Number(await node.getAttribute(attribute))
    /** a chart point: its variant, its centre and the ends of its error bar (the first line) */
    const pointOf = async (point: Locator) => ({
      variant: await point.getAttribute('data-variant'),
      x: await number(point.locator('circle'), 'cx'),
      y: await number(point.locator('circle'), 'cy'),
      barBottom: await number(point.locator('line').first(), 'y1'),
      barTop: await number(point.locator('line').first(), 'y2'),
    })

    test('shows one row per case and one column per variant, each cell the status and score', async () => {
      const page = await open(compared)
      expect(await page.locator('#matrix .mrow.head span').allTextContents()).toEqual([
        'Case',
        'prompt-v1',
        'prompt-v2',
        'faq-bot',
      ])
      const rows = await page.locator('#mrows .mrow').all()
      expect(await Promise.all(rows.map(cellTexts))).toEqual([
        ['compare › cancel-subscription', 'passed · 1.00', 'passed · 1.00', 'failed · 0.00'],
        ['compare › lookup-user', 'passed · 1.00', 'passed · 1.00', 'failed · 0.00'],
        ['compare › offers-more-help', 'failed · 0.00', 'passed · 1.00', 'failed · 0.00'],
        ['compare › order-status', 'passed · 1.00', 'passed · 1.00', 'failed · 0.00'],
      ])
      expect(await page.locator('#mrows .cell.st.failed').count()).toBe(5)
      await page.close()
    })

    test('opens the transcript of the clicked (case, variant)', async () => {
      const page = await open(compared)
      const row = page.locator('#mrows .mrow', { hasText: 'offers-more-help' })
      await row.locator('[data-variant="prompt-v2"]').click()
      const detail = page.locator('#detail')
      expect(await detail.locator('h2').textContent()).toBe('compare › offers-more-help [prompt-v2]')
      expect(await detail.locator('pre').nth(1).textContent()).toMatch(/Anything else I can help with\?$/)
      await row.locator('[data-variant="faq-bot"]').click()
      expect(await detail.locator('h2').textContent()).toBe('compare › offers-more-help [faq-bot]')
      expect(await detail.locator('pre').nth(1).textContent()).toBe(
        'Sorry, I can only answer questions about opening hours, returns and shipping.',
      )
      expect(await detail.textContent()).toContain('failends_withexpected output to end with')
      await page.close()
    })

    test('shows one case of two chosen variants side by side', async () => {
      const page = await open(compared)
      await page.locator('#side-a').selectOption('prompt-v1')
      await page.locator('#side-b').selectOption('faq-bot')
      await page.locator('#mrows .mrow .case', { hasText: 'offers-more-help' }).click()
      const detail = page.locator('#detail')
      expect(await detail.locator('h2').first().textContent()).toBe(
        'compare › offers-more-help: prompt-v1 and faq-bot side by side',
      )
      const outputOf = (variant: string): Promise<string | null> =>
        detail.locator(`.side[data-variant="${variant}"] pre`).nth(1).textContent()
      expect(await outputOf('prompt-v1')).toMatch(/^Order o-7/)
      expect(await outputOf('faq-bot')).toBe(
        'Sorry, I can only answer questions about opening hours, returns and shipping.',
      )
      // changing a side redraws the comparison in place
      await page.locator('#side-b').selectOption('prompt-v2')
      expect(await outputOf('prompt-v2')).toMatch(/Anything else I can help with\?$/)
      expect(await detail.locator('.side').count()).toBe(2)
      await page.close()
    })

    test('combines the trials of a cell and opens the trial that explains its status', async () => {
      const dir = tempDir()
      // synthetic result 20 passes with score 1, result 10 fails with score 0.5, result 3 is errored
      const trial = (i: number, variant: string, t: number): CaseResult => ({
        ...syntheticResult(i),
        caseId: 'refund',
        variant,
        trial: t,
      })
      const results = [
        trial(20, 'a', 0),
        trial(10, 'a', 1),
        trial(20, 'b', 0),
        trial(20, 'b', 1),
        trial(3, 'b', 2),
      ]
      const run = writeRun(dir, results)
      const suite = run.suites[0] as RunReport['suites'][number]
      const variants = [summaryOf('a', 0.5, null, 900), summaryOf('b', 1, null, 900)]
      const page = await open(
        await renderHtml(
          {
            ...run,
            suites: variants.map((summary) => ({ ...suite, variant: summary.variant })),
            variants: { variants, pairs: [] },
          },
          dir,
        ),
      )
      const row = page.locator('#mrows .mrow')
      // the errored trial is neither a pass nor graded, as in the baselines
      expect(await cellTexts(row)).toEqual(['support › refund', 'failed 1/2 · 0.75', 'errored 2/2 · 1.00'])
      await row.locator('[data-variant="a"]').click()
      expect(await page.locator('#detail h2').textContent()).toBe('support › refund [a] (trial 2)')
      await row.locator('[data-variant="b"]').click()
      expect(await page.locator('#detail h2').textContent()).toBe('support › refund [b] (trial 3)')
      await page.close()
    })

    test('follows the filters', async () => {
      const page = await open(compared)
      await page.locator('#search').fill('lookup-user')
      await expect.poll(() => page.locator('#mrows .mrow').count()).toBe(1)
      await page.locator('#search').fill('')
      await expect.poll(() => page.locator('#mrows .mrow').count()).toBe(4)
      await page.locator('input[value="failed"]').uncheck()
      await page.locator('#search').fill('prompt-v1')
      // only the three passed runs of prompt-v1 are left; their rows still show every variant
      await expect.poll(() => page.locator('#mrows .mrow').count()).toBe(3)
      await page.close()
    })

    test('charts accuracy against latency when cost and tokens are unknown, the points apart, one per variant', async () => {
      // the README's example: function targets report neither cost nor tokens (counted 0 tokens)
      const page = await open(compared)
      expect(await page.locator('#chart .x-axis').textContent()).toBe('latency p50 (cost and tokens unknown)')
      const points = page.locator('#chart g.point')
      expect(await points.count()).toBe(3)
      const heights = await Promise.all((await points.all()).map(pointOf))
      // the keyword FAQ bot answers in well under a millisecond, the agent variants in tens of them
      expect(new Set(heights.map((point) => point.x)).size).toBe(3)
      expect(heights.find((point) => point.variant === 'faq-bot')?.x).toBeLessThan(
        Math.min(...heights.filter((point) => point.variant !== 'faq-bot').map((point) => point.x)),
      )
      // higher accuracy is higher up (a smaller y): prompt-v2 100%, prompt-v1 75%, faq-bot 0%
      const byHeight = [...heights].sort((a, b) => a.y - b.y).map((point) => point.variant)
      expect(byHeight).toEqual(['prompt-v2', 'prompt-v1', 'faq-bot'])
      expect(await points.first().locator('text').textContent()).toBe('prompt-v1 (baseline)')
      await page.close()
    })

    test('charts accuracy against tokens per case when some cost is unknown', async () => {
      const dir = tempDir()
      const variants = [summaryOf('mini', 0.7, null, 900), summaryOf('large', 0.9, 0.004, 1800)]
      const page = await open(await renderHtml(variantRun(dir, 20, variants), dir))
      expect(await page.locator('#chart .x-axis').textContent()).toBe('tokens per case (cost unknown)')
      const points = await Promise.all((await page.locator('#chart g.point').all()).map(pointOf))
      expect([...points].sort((a, b) => a.x - b.x).map((point) => point.variant)).toEqual(['mini', 'large'])
      await page.close()
    })

    test('charts accuracy against cost per case when every cost is known, with the interval as an error bar', async () => {
      const dir = tempDir()
      const variants = [summaryOf('mini', 0.7, 0.0004, 900), summaryOf('large', 0.9, 0.004, 800)]
      variants.push(summaryOf('nano', 0.5, 0.0001, 1200))
      const page = await open(await renderHtml(variantRun(dir, 20, variants), dir))
      expect(await page.locator('#chart .x-axis').textContent()).toBe('cost per case (USD)')
      const points = await Promise.all((await page.locator('#chart g.point').all()).map(pointOf))
      expect(points.map((point) => point.variant)).toEqual(['mini', 'large', 'nano'])
      const byCost = [...points].sort((a, b) => a.x - b.x).map((point) => point.variant)
      expect(byCost).toEqual(['nano', 'mini', 'large'])
      for (const point of points) expect(point.barTop).toBeLessThan(point.y)
      for (const point of points) expect(point.barBottom).toBeGreaterThan(point.y)
      await page.close()
    })

    test('shows hostile variant names as text in the matrix, the chart and side by side', async () => {
      const dir = tempDir()
      const names = [
        '<img src=x onerror="window.__pwned = 1">',
        '</script><script>window.__pwned = 2</script>',
      ]
      const run = variantRun(dir, 3, [
        summaryOf(names[0] as string, 0.5, 0.001, 9),
        summaryOf(names[1] as string, 0.6, 0.002, 9),
      ])
      const path = await renderHtml(run, dir)
      expect(readFileSync(path, 'utf8').match(/<\/script>/g)).toHaveLength(2)
      const page = await open(path)
      const requests: string[] = []
      page.on('request', (request) => requests.push(request.url()))
      expect(await page.locator('#matrix .mrow.head span').allTextContents()).toEqual(['Case', ...names])
      expect(await page.locator('#chart g.point > text').allTextContents()).toEqual(names)
      expect(await page.locator('#side-b option').allTextContents()).toEqual(names)
      await page.locator('#mrows .mrow .case').first().click()
      expect(await page.locator('#detail .side > h2').allTextContents()).toEqual(names)
      expect(await page.evaluate(() => (globalThis as { __pwned?: unknown }).__pwned)).toBeUndefined()
      expect(requests).toEqual([])
      await page.close()
    })

    test("shows each variant's own baseline transitions", async () => {
      const dir = tempDir()
      const variants = [summaryOf('a', 0.8, null, 900), summaryOf('b', 0.9, null, 900)]
      const comparisonOf = (transition: Transition, current: number): Comparison => ({
        suite: 'support',
        baselineCreatedAt: '2026-01-01T00:00:00.000Z',
        baselineAgeDays: 30,
        cases: [
          {
            id: 'case-00005',
            transition,
            tags: ['shipping'],
            baseline: null,
            current: { status: 'failed', passes: 0, trials: 1, passRate: 0, latencyMs: 405, costUsd: null },
            passRateDelta: null,
          },
        ],
        counts: {
          regressed: 0,
          improved: 0,
          unchanged: 0,
          new: 0,
          removed: 0,
          'input-changed': 0,
          unscored: 0,
        },
        accuracy: { baseline: 0.85, current, delta: current - 0.85 },
        paired: null,
        latency: { baseline: null, current: null, p50Ratio: null, p95Ratio: null },
        cost: { baselineUsd: null, currentUsd: null, ratio: null },
        warnings: [],
      })
      const run = {
        ...variantRun(dir, 20, variants),
        comparisons: [comparisonOf('regressed', 0.8), comparisonOf('new', 0.9)],
      }
      const page = await open(await renderHtml(run, dir))
      expect(await page.locator('#baseline .box').allTextContents()).toEqual([
        expect.stringMatching(/^Baseline support \[a\]: accuracy 85\.0% → 80\.0%/) as string,
        expect.stringMatching(/^Baseline support \[b\]: accuracy 85\.0% → 90\.0%/) as string,
      ])
      await page.locator('#search').fill('case-00005')
      await expect.poll(() => page.locator('#rows .row').count()).toBe(2)
      const rows = await page.locator('#rows .row').all()
      const cells = await Promise.all(rows.map(async (row) => row.locator('span').allTextContents()))
      expect(cells.map((cell) => [cell[1], cell[7]])).toEqual([
        ['support › case-00005 [a]', 'regressed'],
        ['support › case-00005 [b]', 'new'],
      ])
      await page.close()
    })

    test('keeps a report without variants free of the matrix and the chart', async () => {
      const dir = tempDir()
      const page = await open(await renderHtml(writeRun(dir, syntheticResults(20)), dir))
      expect(await page.locator('#matrix, #chart').count()).toBe(0)
      expect(await page.locator('#rows .row').first().locator('span').nth(1).textContent()).toBe(
        'support › case-00000',
      )
      await page.close()
    })

    test('draws only the visible matrix rows at 10,000 cases × 2 variants', async () => {
      const dir = tempDir()
      const variants = [summaryOf('a', 0.85, 0.0002, 900), summaryOf('b', 0.86, 0.0003, 950)]
      const path = await renderHtml(variantRun(dir, 10_000, variants), dir)
      expect(statSync(path).size).toBeLessThan(30_000_000)
      const page = await open(path)
      expect(await page.locator('#shown').textContent()).toBe('20,000 of 20,000 case runs')
      expect(await page.locator('#mrows .mrow').count()).toBeLessThan(100)
      await page.locator('#mviewport').hover()
      await page.mouse.wheel(0, 28 * 5000)
      const row = page.locator('#mrows .mrow', { hasText: 'case-05010' })
      await expect.poll(() => row.count()).toBe(1)
      expect(await cellTexts(row)).toEqual(['support › case-05010', 'failed · 0.50', 'failed · 0.50'])
      await page.close()
    }, 120_000)
  },
)
