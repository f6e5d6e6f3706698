import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { ensureBuilt } from '../e2e/helpers.ts'
import {
  CASES,
  caseIds,
  expectedStatus,
  FAULTS,
  formatTable,
  runInProcess,
  runThroughCli,
  type FaultKind,
  type MatrixRow,
} from './harness.ts'

const rows: MatrixRow[] = []

beforeAll(() => {
  ensureBuilt()
}, 120_000)

afterAll(() => {
  console.log(
    `\nFault matrix: ${CASES} cases, concurrency 16, 30% of requests faulted\n${formatTable(rows)}\n`,
  )
})

/** Every case ends once with a verdict; the status is the one the deterministic fault selection implies. */
function checkRow(kind: FaultKind, row: MatrixRow): void {
  const ids = row.results.map((result) => result.caseId)
  expect(row.results).toHaveLength(CASES)
  expect(new Set(ids).size).toBe(CASES)
  expect([...ids].sort()).toEqual(caseIds)
  expect(row.failed).toBe(0)
  const wrong = row.results
    .filter((result) => result.status !== expectedStatus(kind, result.caseId))
    .map(
      (result) =>
        `${result.caseId}: ${result.status}${result.status === 'errored' ? ` (${result.error.message})` : ''}`,
    )
  expect(wrong).toEqual([])
  expect(row.passed + row.errored).toBe(CASES)
  expect(row.retries).toBeGreaterThan(0)
}

describe('fault matrix', () => {
  const inProcess = Object.keys(FAULTS).filter((kind) => kind !== '500') as FaultKind[]

  test.each(inProcess)(
    '%s: every case ends once, retried faults pass, exhausted ones are errored',
    async (kind) => {
      const row = await runInProcess(kind)
      rows.push(row)
      checkRow(kind, row)
      if (kind === '429 retry-after') expect(row.errored).toBe(0)
    },
    30_000,
  )

  test('500 through the built CLI: the same guarantees, and a non-zero exit code exactly when a case was exhausted', async () => {
    const row = await runThroughCli('500')
    rows.push(row)
    checkRow('500', row)
    const errored = caseIds.filter((id) => expectedStatus('500', id) === 'errored').length
    expect(row.errored).toBe(errored)
    // never 0 with an errored case; 2 under the split of src/cli/exit-code.ts (errored only), 1 before it
    if (errored === 0) expect(row.exitCode).toBe(0)
    else expect([1, 2]).toContain(row.exitCode)
  }, 60_000)
})
