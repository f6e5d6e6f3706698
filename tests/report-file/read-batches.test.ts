import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, expect, test } from 'vitest'
import { openReport, type ReportSource } from '../../src/report-file/read.ts'
import type { ReportCase } from '../../src/report-file/schema.ts'
import { writeJsonReport } from '../../src/report-file/write-json.ts'
import { syntheticResults, writeRun } from '../reporters/synthetic.ts'

const dirs: string[] = []
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true })
})

/** report.json of `count` synthetic cases, a few MiB for a few thousand: more than one of the 1 MiB chunks read. */
async function reportWith(count: number): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'evals-read-batches-'))
  dirs.push(dir)
  return writeJsonReport(writeRun(dir, syntheticResults(count)), { env: {}, cwd: dir })
}

async function batchesOf(source: ReportSource): Promise<(readonly ReportCase[])[]> {
  const batches: (readonly ReportCase[])[] = []
  for await (const batch of source.batches()) batches.push(batch)
  return batches
}

async function casesOf(source: ReportSource): Promise<ReportCase[]> {
  const cases: ReportCase[] = []
  for await (const result of source.cases()) cases.push(result)
  return cases
}

test('a streamed report comes in several batches, none empty, that are its cases in order', async () => {
  const path = await reportWith(3000)
  const { cases } = JSON.parse(readFileSync(path, 'utf8')) as { cases: ReportCase[] }
  expect(readFileSync(path).length).toBeGreaterThan(2 << 20)
  // compared as JSON text: a deep-equality diff of 3000 cases would take minutes to print
  const asRead = JSON.stringify(cases)
  for (const validate of [true, false]) {
    const source = await openReport(path, { validate, env: {} })
    const batches = await batchesOf(source)
    expect(batches.length).toBeGreaterThan(2)
    // none empty, none over 256 cases, though a 1 MiB chunk of these lines holds more
    for (const batch of batches) expect(batch.length).toBeGreaterThan(0)
    expect(Math.max(...batches.map((batch) => batch.length))).toBe(256)
    const flat = batches.flat()
    expect(flat.map((result) => result.caseId)).toEqual(cases.map((result) => result.caseId))
    if (!validate) expect(JSON.stringify(flat) === asRead).toBe(true)
    expect(JSON.stringify(await casesOf(source)) === JSON.stringify(flat)).toBe(true)
  }
})

test('a case that is not valid names its index, after the cases before it, in a later batch too', async () => {
  const path = await reportWith(3000)
  const text = readFileSync(path, 'utf8')
  writeFileSync(path, text.replace('"caseId":"case-02500"', '"caseId":2500'))
  const source = await openReport(path, { env: {} })
  const read: ReportCase[] = []
  const reading = (async () => {
    for await (const batch of source.batches()) read.push(...batch)
  })()
  await expect(reading).rejects.toThrow(`${path}: not a valid evals report:\n  cases[2500].caseId:`)
  expect(read).toHaveLength(2500)
  const one: string[] = []
  await expect(
    (async () => {
      for await (const result of source.cases()) one.push(result.caseId)
    })(),
  ).rejects.toThrow('cases[2500].caseId')
  expect(one).toHaveLength(2500)
})

test('a report parsed whole is one batch; a report without cases has none', async () => {
  const path = await reportWith(5)
  const text = readFileSync(path, 'utf8')
  writeFileSync(path, JSON.stringify(JSON.parse(text), null, 2))
  const batches = await batchesOf(await openReport(path, { env: {} }))
  expect(batches.map((batch) => batch.map((result) => result.caseId))).toEqual([
    ['case-00000', 'case-00001', 'case-00002', 'case-00003', 'case-00004'],
  ])
  writeFileSync(path, JSON.stringify({ ...(JSON.parse(text) as object), cases: [] }, null, 2))
  expect(await batchesOf(await openReport(path, { env: {} }))).toEqual([])
  expect(await batchesOf(await openReport(await reportWith(0), { env: {} }))).toEqual([])
})
