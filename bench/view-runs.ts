/**
 * The run list of `evals view` at 1,000 runs of 1,000 cases (`npm run bench:view`): one real 1,000-case run,
 * then 999 more run folders holding the same files (hard links, so the disk holds them once) and one index line
 * each with its own date and accuracy. Prints the median time to list the runs on the server (with the index,
 * and by scanning every summary.json as for folders without index lines) and the time from navigation until
 * headless Chromium shows every row and the trend chart.
 */
import { linkSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { mkdtemp } from 'node:fs/promises'
import { loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Suite } from '../src/cases/suite.ts'
import { RUN_INDEX_FILE, type RunIndexLine } from '../src/runner/results/run-index.ts'
import { runSuite } from '../src/runner/run-suite.ts'
import { listRuns } from '../src/view/run-list.ts'
import { startView } from '../src/view/server.ts'
import { launchChromium, NO_CHROMIUM } from '../tests/reporters/browser.ts'
import { caseOf, suiteOf, targetOf, targetsFor, transcriptOf } from '../tests/runner/helpers.ts'

const RUNS = Number(process.env.RUNS ?? 1000)
const CASES = Number(process.env.CASES ?? 1000)
const REPEATS = 5
/** rows the page draws before `Show older runs` (FIRST_ROWS in src/view/page-script.ts) */
const FIRST_ROWS = 200

const reports = await mkdtemp(join(tmpdir(), 'evals-bench-view-'))
const suite: Suite = suiteOf(
  Array.from({ length: CASES }, (_, i) =>
    caseOf(`case-${String(i).padStart(4, '0')}`, { expect: { contains: 'ok' } }),
  ),
  { name: 'support' },
)
const target = targetOf((input) => transcriptOf(input, Number(input.slice(5)) % 10 === 0 ? 'no' : 'ok'))
const first = await runSuite(suite, {
  outDir: reports,
  runId: 'run-0000',
  targets: targetsFor(suite, target),
})

const template = JSON.parse(readFileSync(join(reports, RUN_INDEX_FILE), 'utf8').trim()) as RunIndexLine
const files = readdirSync(first.dir).filter((name) => !name.startsWith('cases'))
const lines: string[] = [JSON.stringify(template)]
for (let i = 1; i < RUNS; i++) {
  const runId = `run-${String(i).padStart(4, '0')}`
  const dir = join(reports, runId)
  mkdirSync(dir)
  for (const name of files) linkSync(join(first.dir, name), join(dir, name))
  const value = 0.8 + 0.15 * Math.sin(i / 20)
  const line: RunIndexLine = {
    ...template,
    runId,
    startedAt: new Date(Date.UTC(2026, 0, 1) + i * 3_600_000).toISOString(),
    suites: template.suites.map((entry) => ({
      ...entry,
      accuracy: { value, low: value - 0.02, high: value + 0.02 },
    })),
  }
  lines.push(JSON.stringify(line))
}
writeFileSync(join(reports, RUN_INDEX_FILE), `${lines.join('\n')}\n`)

/** What the timing reads in the page (the bench is typed for Node, without the DOM library). */
interface InPage {
  document: {
    querySelectorAll: (selector: string) => { length: number }
    querySelector: (selector: string) => unknown
  }
  performance: {
    getEntriesByName: (name: string) => ({ responseEnd?: number; startTime: number } | undefined)[]
  }
  location: { href: string }
}

const median = (values: number[]): number =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0
async function timed(work: () => Promise<unknown>): Promise<number> {
  const times: number[] = []
  for (let i = 0; i < REPEATS; i++) {
    const started = performance.now()
    await work()
    times.push(performance.now() - started)
  }
  return median(times)
}

const withIndex = await timed(async () => {
  if ((await listRuns([reports])).length !== RUNS) throw new Error('the run list misses runs')
})
const scanning = await timed(async () => {
  const saved = readFileSync(join(reports, RUN_INDEX_FILE))
  rmSync(join(reports, RUN_INDEX_FILE))
  try {
    if ((await listRuns([reports])).length !== RUNS) throw new Error('the scan misses runs')
  } finally {
    writeFileSync(join(reports, RUN_INDEX_FILE), saved)
  }
})
console.log(
  `${String(RUNS)} runs of ${String(CASES)} cases in ${reports} (load average ${loadavg()[0]?.toFixed(1) ?? '?'})`,
)
console.log(
  `list on the server, from index.jsonl          ${withIndex.toFixed(0)} ms (median of ${String(REPEATS)})`,
)
console.log(
  `list on the server, scanning every summary.json ${scanning.toFixed(0)} ms (folders without index lines)`,
)

if (NO_CHROMIUM === undefined) {
  const server = await startView({ roots: [reports] })
  const browser = await launchChromium()
  try {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } })
    await page.goto(server.url)
    await page.waitForSelector('.chart .uplot')
    const rendered = await timed(async () => {
      await page.reload()
      await page.waitForFunction(
        (rows) =>
          (globalThis as unknown as InPage).document.querySelectorAll('tr.run').length === rows &&
          (globalThis as unknown as InPage).document.querySelector('.chart .uplot') !== null,
        Math.min(RUNS, FIRST_ROWS),
      )
    })
    const [answered, drawn] = await page.evaluate(() => {
      const { performance, location } = globalThis as unknown as InPage
      const api = performance.getEntriesByName(new URL('/api/runs', location.href).href)[0]
      const mark = performance.getEntriesByName('evals:runs-rendered')[0]
      return [api?.responseEnd ?? 0, mark?.startTime ?? 0]
    })
    console.log(
      `page load until the newest 200 rows and the trend show ${rendered.toFixed(0)} ms (headless Chromium)`,
    )
    console.log(
      `  of which: /api/runs answered ${answered.toFixed(0)} ms after navigation, the list was drawn at ${drawn.toFixed(0)} ms`,
    )
  } finally {
    await browser.close()
    await server.close()
  }
} else console.log(`browser timing skipped: ${NO_CHROMIUM}`)
if (!process.env.KEEP) rmSync(reports, { recursive: true, force: true })
