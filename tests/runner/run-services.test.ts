import { readFileSync } from 'node:fs'
import { expect, test } from 'vitest'
import { runSuite } from '../../src/runner/run-suite.ts'
import { caseOf, suiteOf, targetOf, targetsFor, tempDir, transcriptOf } from './helpers.ts'

// an output with two secrets of two users; each run knows one of them
const printed = 'account ACME-123456, ticket BETA-654321'
const slow = targetOf(async (input) => {
  await new Promise((resolve) => setTimeout(resolve, 5))
  return transcriptOf(input, printed)
})

test('two runs at once in one process each redact with their own patterns, never the other run’s', async () => {
  const cases = Array.from({ length: 12 }, (_, i) => caseOf(`c${String(i)}`))
  const acme = suiteOf(cases, { name: 'acme' })
  const beta = suiteOf(cases, { name: 'beta' })
  const [a, b] = await Promise.all([
    runSuite(acme, {
      outDir: tempDir(),
      redact: ['ACME-\\d{6}'],
      concurrency: 2,
      targets: targetsFor(acme, slow),
    }),
    runSuite(beta, {
      outDir: tempDir(),
      redact: ['BETA-\\d{6}'],
      concurrency: 2,
      targets: targetsFor(beta, slow),
    }),
  ])
  const rowsA = readFileSync(a.resultsFile, 'utf8')
  const rowsB = readFileSync(b.resultsFile, 'utf8')
  expect(rowsA).not.toContain('ACME-123456')
  expect(rowsA).toContain('BETA-654321')
  expect(rowsB).not.toContain('BETA-654321')
  expect(rowsB).toContain('ACME-123456')
  expect(a.counts.passed + b.counts.passed).toBe(24)
})
