/**
 * Report generation at 10,000 cases (`npm run bench:reports`): time to build report.json from results.jsonl and
 * to render JUnit, HTML and Markdown from it, each file's size next to promptfoo 0.123.1's at the same size
 * (ANCHORS.md), peak RSS, and how long the HTML page takes to become interactive in headless Chromium.
 */
import { statSync } from 'node:fs'
import { mkdtemp } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { openReport } from '../src/report-file/read.ts'
import { writeJsonReport } from '../src/report-file/write-json.ts'
import { htmlRenderer } from '../src/reporters/html/html.ts'
import { junitRenderer } from '../src/reporters/junit.ts'
import { markdownRenderer } from '../src/reporters/markdown.ts'
import { syntheticResults, writeRun } from '../tests/reporters/synthetic.ts'
import { launchChromium, NO_CHROMIUM } from '../tests/reporters/browser.ts'

const N = Number(process.env.CASES ?? 10_000)
/** promptfoo 0.123.1, 10,000 cases with the echo provider (ANCHORS.md) */
const PROMPTFOO_MB: Record<string, number> = { json: 54, html: 52, junit: 1.1 }

let peakRss = 0
const sampler = setInterval(() => (peakRss = Math.max(peakRss, process.memoryUsage().rss)), 20)

const dir = await mkdtemp(join(tmpdir(), 'evals-bench-reports-'))
const run = writeRun(dir, syntheticResults(N))
const rows: { format: string; ms: number; bytes: number }[] = [
  { format: 'results.jsonl (input)', ms: 0, bytes: statSync(run.resultsFile).size },
]
const timed = async (format: string, path: string, work: () => Promise<unknown>): Promise<void> => {
  const started = performance.now()
  await work()
  rows.push({ format, ms: performance.now() - started, bytes: statSync(path).size })
}
const jsonPath = join(dir, 'report.json')
await timed('json', jsonPath, () => writeJsonReport(run, { env: {} }))
for (const renderer of [junitRenderer, htmlRenderer, markdownRenderer]) {
  const path = join(dir, renderer.fileName)
  await timed(renderer.name, path, async () =>
    renderer.render(await openReport(jsonPath, { validate: false }), path),
  )
}
clearInterval(sampler)

const mb = (bytes: number): string => `${(bytes / 1e6).toFixed(2)} MB`
process.stdout.write(`report generation, ${N.toLocaleString('en-US')} cases (${dir})\n\n`)
process.stdout.write('format                  time      size        promptfoo  ratio\n')
for (const row of rows) {
  const theirs = PROMPTFOO_MB[row.format]
  const ratio = theirs === undefined ? '' : `${((row.bytes / 1e6 / theirs) * 100).toFixed(0)}% of theirs`
  process.stdout.write(
    `${row.format.padEnd(22)}  ${row.ms === 0 ? '–'.padStart(7) : `${row.ms.toFixed(0)} ms`.padStart(7)}  ${mb(row.bytes).padStart(10)}  ${
      theirs === undefined ? ''.padStart(9) : `${theirs} MB`.padStart(9)
    }  ${ratio}\n`,
  )
}
const total = rows.reduce((sum, row) => sum + row.ms, 0)
process.stdout.write(`\ntotal ${total.toFixed(0)} ms · peak RSS ${(peakRss / 2 ** 20).toFixed(0)} MiB\n`)

if (NO_CHROMIUM !== undefined) process.stdout.write(`\nHTML in Chromium: skipped (${NO_CHROMIUM})\n`)
else {
  const browser = await launchChromium()
  try {
    for (let attempt = 1; attempt <= 3; attempt++) {
      const page = await browser.newPage()
      const started = performance.now()
      await page.goto(pathToFileURL(join(dir, 'report.html')).href)
      await page.waitForSelector('body[data-ready="1"]')
      const ready = performance.now() - started
      const rowsDrawn = await page.locator('#rows .row').count()
      const searchStarted = performance.now()
      await page.fill('#search', 'case-09999')
      await page.locator('#shown').filter({ hasText: /^1 of/ }).waitFor()
      const search = performance.now() - searchStarted
      process.stdout.write(
        `HTML in Chromium, run ${attempt}: interactive in ${ready.toFixed(0)} ms (target < 2000 ms: ${ready < 2000 ? 'met' : 'MISSED'}; ${rowsDrawn} rows in the DOM), ` +
          `a text search over every case in ${search.toFixed(0)} ms (incl. 80 ms debounce)\n`,
      )
      await page.close()
    }
  } finally {
    await browser.close()
  }
}
