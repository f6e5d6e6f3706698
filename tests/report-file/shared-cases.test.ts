import { expect, test } from 'vitest'
import type { ReportSource } from '../../src/report-file/read.ts'
import type { ReportCase } from '../../src/report-file/schema.ts'
import { shareCases } from '../../src/report-file/shared-cases.ts'

/** A source of `count` cases that records how many it has handed out. */
function countingSource(count: number): { source: ReportSource; produced: () => number } {
  let produced = 0
  const source = {
    path: 'report.json',
    header: {} as ReportSource['header'],
    async *cases() {
      for (let index = 0; index < count; index++) {
        produced++
        await Promise.resolve()
        yield { caseId: `case-${String(index)}` } as unknown as ReportCase
      }
    },
  }
  return { source, produced: () => produced }
}

async function readAll(source: ReportSource, onCase?: () => Promise<void>): Promise<ReportCase[]> {
  const out: ReportCase[] = []
  for await (const value of source.cases()) {
    out.push(value)
    await onCase?.()
  }
  return out
}

test('every reader gets every case, the same object, while the source is read once', async () => {
  const { source, produced } = countingSource(1000)
  const { sources } = shareCases(source, 3)
  const [a, b, c] = await Promise.all(sources.map(async (shared) => readAll(shared)))
  expect(produced()).toBe(1000)
  expect(a?.map((value) => value.caseId)).toEqual(Array.from({ length: 1000 }, (_, i) => `case-${String(i)}`))
  expect(b).toEqual(a)
  a?.forEach((value, index) => {
    expect(b?.[index]).toBe(value)
    expect(c?.[index]).toBe(value)
  })
})

test('a fast reader waits for a slow one: at most a few hundred cases are held', async () => {
  const { source, produced } = countingSource(5000)
  const { sources } = shareCases(source, 2)
  let slowRead = 0
  let mostAhead = 0
  const slow = readAll(sources[1] as ReportSource, async () => {
    slowRead++
    mostAhead = Math.max(mostAhead, produced() - slowRead)
    for (let tick = 0; tick < 5; tick++) await new Promise((resolve) => setImmediate(resolve))
  })
  const [fast] = await Promise.all([readAll(sources[0] as ReportSource), slow])
  expect(fast).toHaveLength(5000)
  expect(slowRead).toBe(5000)
  expect(mostAhead).toBeGreaterThan(100)
  expect(mostAhead).toBeLessThanOrEqual(257)
})

test('a reader released without reading, or stopping early, holds no one back', async () => {
  const { source } = countingSource(2000)
  const { sources, release } = shareCases(source, 3)
  release(2)
  const early = async (): Promise<number> => {
    let read = 0
    for await (const _ of (sources[1] as ReportSource).cases()) if (++read === 10) break
    return read
  }
  const [all, some] = await Promise.all([readAll(sources[0] as ReportSource), early()])
  expect(all).toHaveLength(2000)
  expect(some).toBe(10)
})

test('a reader that throws leaves the others to finish', async () => {
  const { source } = countingSource(1000)
  const { sources } = shareCases(source, 2)
  const failing = readAll(sources[1] as ReportSource, () => Promise.reject(new Error('renderer broke')))
  const [all, failed] = await Promise.allSettled([readAll(sources[0] as ReportSource), failing])
  expect(all.status === 'fulfilled' && all.value).toHaveLength(1000)
  expect(failed.status).toBe('rejected')
})

test('an error reading the source reaches every reader', async () => {
  const source: ReportSource = {
    path: 'report.json',
    header: {} as ReportSource['header'],
    async *cases() {
      yield { caseId: 'a' } as unknown as ReportCase
      await Promise.resolve()
      throw new Error('not JSON at line 3')
    },
  }
  const { sources } = shareCases(source, 2)
  const outcomes = await Promise.allSettled(sources.map(async (shared) => readAll(shared)))
  for (const outcome of outcomes) {
    expect(outcome.status).toBe('rejected')
    expect(outcome.status === 'rejected' && (outcome.reason as Error).message).toBe('not JSON at line 3')
  }
})

test('each shared source is read once; one reader reads the source itself', async () => {
  const { source } = countingSource(3)
  const { sources } = shareCases(source, 2)
  const first = sources[0] as ReportSource
  expect(await readAll(first)).toHaveLength(3)
  expect(() => first.cases()).toThrow('a shared report source is read once')
  expect(shareCases(source, 1).sources[0]).toBe(source)
})
