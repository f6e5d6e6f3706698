/**
 * Loading cases from a CSV dataset (`node --import tsx bench/datasets.ts`): peak RSS and load time of `loadSuite`
 * over 1, 10,000 and 100,000 rows, each in a fresh process, to show what the streamed reading holds per row.
 */
import { spawnSync } from 'node:child_process'
import { createWriteStream, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'

const SIZES = (process.env.ROWS ?? '1,10000,100000').split(',').map(Number)
const load = pathToFileURL(join(import.meta.dirname, '..', 'src', 'cases', 'load.ts')).href

async function writeDataset(dir: string, rows: number): Promise<string> {
  const file = join(dir, 'cases.yaml')
  writeFileSync(
    file,
    [
      'suite: bench',
      'target: { command: cat }',
      "defaults: { expect: { contains: '{{expected}}' } }",
      'cases: ./rows.csv',
      '',
    ].join('\n'),
  )
  const out = createWriteStream(join(dir, 'rows.csv'))
  out.write('input,expected,tags,customer\n')
  for (let row = 0; row < rows; row++) {
    const line = `"Where is order ${String(row)}, placed on Monday?",order ${String(row)},support;orders,customer-${String(row % 97)}\n`
    if (!out.write(line))
      await new Promise<void>((resolve) =>
        out.once('drain', () => {
          resolve()
        }),
      )
  }
  await new Promise<void>((resolve) => out.end(resolve))
  return file
}

const script = (file: string) => `
  const started = performance.now()
  const { loadSuite } = await import(${JSON.stringify(load)})
  const suite = await loadSuite(${JSON.stringify(file)})
  const ms = performance.now() - started
  globalThis.gc()
  const heldMb = process.memoryUsage().heapUsed / 2 ** 20
  console.log(JSON.stringify({ cases: suite.cases.length, ms, heldMb, maxRssMb: process.resourceUsage().maxRSS / 1024 }))`

console.log('   rows   load ms   peak RSS MB   heap held MB')
for (const rows of SIZES) {
  const file = await writeDataset(mkdtempSync(join(tmpdir(), 'evals-bench-datasets-')), rows)
  const run = spawnSync(
    process.execPath,
    ['--expose-gc', '--import', 'tsx', '--input-type=module', '-e', script(file)],
    {
      encoding: 'utf8',
    },
  )
  if (run.status !== 0) throw new Error(run.stderr)
  const { cases, ms, maxRssMb, heldMb } = JSON.parse(run.stdout) as Record<string, number>
  const cells = [String(cases), ms?.toFixed(0), maxRssMb?.toFixed(0), heldMb?.toFixed(1)]
  console.log(cells.map((cell, index) => String(cell).padStart([7, 9, 13, 14][index] ?? 0)).join(' '))
}
