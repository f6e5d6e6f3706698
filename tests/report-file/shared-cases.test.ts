import { expect, test } from 'vitest'
import { sourceOfBatches, type ReportSource } from '../../src/report-file/read.ts'
import type { ReportCase } from '../../src/report-file/schema.ts'
import { shareCases } from '../../src/report-file/shared-cases.ts'

const header = {} as ReportSource['header']
const ids = (count: number): string[] => Array.from({ length: count }, (_, i) => `case-${String(i)}`)

/** A source of `batches` batches of `size` cases each, that records how many batches it has handed out. */
function countingSource(batches: number, size: number): { source: ReportSource; produced: () => number } {
  let produced = 0
  const source = sourceOfBatches('report.json', header, async function* () {
    for (let batch = 0; batch < batches; batch++) {
      produced++
      await Promise.resolve()
      yield Array.from(
        { length: size },
        (_, i) => ({ caseId: `case-${String(batch * size + i)}` }) as ReportCase,
      )
    }
  })
  return { source, produced: () => produced }
}

async function readBatches(
  source: ReportSource,
  onBatch?: (batch: readonly ReportCase[]) => Promise<void> | void,
): Promise<(readonly ReportCase[])[]> {
  const out: (readonly ReportCase[])[] = []
  for await (const batch of source.batches()) {
    out.push(batch)
    await onBatch?.(batch)
  }
  return out
}

async function readCases(source: ReportSource, onCase?: () => Promise<void>): Promise<ReportCase[]> {
  const out: ReportCase[] = []
  for await (const value of source.cases()) {
    out.push(value)
    await onCase?.()
  }
  return out
}

const ticks = async (count: number): Promise<void> => {
  for (let tick = 0; tick < count; tick++) await new Promise((resolve) => setImmediate(resolve))
}

test('cases split over several batches reach every reader in order, the same objects, the source read once', async () => {
  const { source, produced } = countingSource(40, 25)
  const { sources } = shareCases(source, 3)
  const [a, b, c] = await Promise.all([
    readBatches(sources[0] as ReportSource),
    readBatches(sources[1] as ReportSource),
    readCases(sources[2] as ReportSource),
  ])
  expect(produced()).toBe(40)
  expect(a).toHaveLength(40)
  expect(a?.flat().map((value) => value.caseId)).toEqual(ids(1000))
  a?.forEach((batch, index) => {
    expect(b?.[index]).toBe(batch)
  })
  a?.flat().forEach((value, index) => {
    expect(c?.[index]).toBe(value)
  })
})

test('a fast reader waits for a slow one: it takes at most one batch beyond the slowest', async () => {
  const { source, produced } = countingSource(200, 10)
  const { sources } = shareCases(source, 2)
  let slowTaken = 0
  let fastTaken = 0
  let mostAhead = 0
  let mostHeld = 0
  const slow = readBatches(sources[1] as ReportSource, async () => {
    slowTaken++
    await ticks(5)
  })
  const fast = readBatches(sources[0] as ReportSource, () => {
    fastTaken++
    mostAhead = Math.max(mostAhead, fastTaken - slowTaken)
    // read and not yet done with by the slow reader: the one it is on, and those after it
    mostHeld = Math.max(mostHeld, produced() - slowTaken + 1)
  })
  const [fastBatches, slowBatches] = await Promise.all([fast, slow])
  expect(fastBatches).toHaveLength(200)
  expect(slowBatches).toHaveLength(200)
  expect(mostAhead).toBe(1)
  expect(mostHeld).toBe(2)
})

test('a reader released without reading, or stopping early, holds no one back', async () => {
  const { source } = countingSource(100, 20)
  const { sources, release } = shareCases(source, 4)
  release(3)
  const firstBatchOnly = async (): Promise<number> => {
    for await (const batch of (sources[1] as ReportSource).batches()) return batch.length
    return 0
  }
  const someCases = async (): Promise<number> => {
    let read = 0
    // stops in the middle of the first batch
    for await (const _ of (sources[2] as ReportSource).cases()) if (++read === 10) break
    return read
  }
  const [all, first, some] = await Promise.all([
    readCases(sources[0] as ReportSource),
    firstBatchOnly(),
    someCases(),
  ])
  expect(all.map((value) => value.caseId)).toEqual(ids(2000))
  expect(first).toBe(20)
  expect(some).toBe(10)
})

test('a reader that throws leaves the others to finish', async () => {
  const { source } = countingSource(50, 20)
  const { sources } = shareCases(source, 2)
  const failing = readBatches(sources[1] as ReportSource, () => Promise.reject(new Error('renderer broke')))
  const [all, failed] = await Promise.allSettled([readCases(sources[0] as ReportSource), failing])
  expect(all.status === 'fulfilled' && all.value).toHaveLength(1000)
  expect(failed.status === 'rejected' && (failed.reason as Error).message).toBe('renderer broke')
})

test('an error reading the source reaches every reader', async () => {
  const source = sourceOfBatches('report.json', header, async function* () {
    yield [{ caseId: 'a' } as ReportCase]
    await Promise.resolve()
    throw new Error('not JSON at line 3')
  })
  const { sources } = shareCases(source, 2)
  const outcomes = await Promise.allSettled(sources.map(async (shared) => readCases(shared)))
  for (const outcome of outcomes) {
    expect(outcome.status).toBe('rejected')
    expect(outcome.status === 'rejected' && (outcome.reason as Error).message).toBe('not JSON at line 3')
  }
})

test('an error reading the source reaches a reader that was busy when it came, not an early end', async () => {
  let batches = 0
  const source = sourceOfBatches('report.json', header, async function* () {
    for (; batches < 3; batches++) {
      await Promise.resolve()
      yield [{ caseId: `case-${String(batches)}` } as ReportCase]
    }
    throw new Error('report.json was cut short')
  })
  const { sources } = shareCases(source, 2)
  // the slow reader is between batches when the fast one meets the error
  const slow = readCases(sources[1] as ReportSource, () => ticks(20))
  const outcomes = await Promise.allSettled([readCases(sources[0] as ReportSource), slow])
  for (const outcome of outcomes) {
    expect(outcome.status === 'rejected' && (outcome.reason as Error).message).toBe(
      'report.json was cut short',
    )
  }
})

test('each shared source is read once; one reader reads the source itself', async () => {
  const { source } = countingSource(3, 2)
  const { sources, release } = shareCases(source, 2)
  release(1)
  const first = sources[0] as ReportSource
  expect(await readCases(first)).toHaveLength(6)
  expect(() => first.batches()).toThrow('a shared report source is read once')
  expect(shareCases(source, 1).sources[0]).toBe(source)
})
