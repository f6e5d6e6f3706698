/**
 * `custom:` checks of one turn run together under one `vm` watchdog (a thread per batch), so a pair waiting for its
 * batch lends its slot in the run's pool: with concurrency 4, more than 4 pairs' checks share a batch. With
 * concurrency 1 every pair still runs start to end before the next starts.
 */
import { rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, expect, test } from 'vitest'
import type { Evaluator } from '../../src/evaluators/evaluator.ts'
import { runCase, type CaseJob } from '../../src/runner/execute/run-case.ts'
import { runSuites } from '../../src/runner/run-suite.ts'
import { caseOf, readResults, suiteOf, targetOf, tempDir, transcriptOf } from './helpers.ts'

const dir = tempDir()
afterAll(() => {
  rmSync(dir, { recursive: true, force: true })
})

/** what the target and the check share: how many targets had run when each check ran */
interface Counts {
  targetsRun: number
  seenByChecks: number[]
}
const counts = globalThis as unknown as { evalsCheckBatches: Counts }

writeFileSync(
  join(dir, 'checks.mjs'),
  `export function seen(transcript) {
  globalThis.evalsCheckBatches.seenByChecks.push(globalThis.evalsCheckBatches.targetsRun)
  return transcript.output === 'ok'
}
`,
)

async function run(concurrency: number): Promise<number[]> {
  counts.evalsCheckBatches = { targetsRun: 0, seenByChecks: [] }
  const cases = Array.from({ length: 40 }, (_, i) =>
    caseOf(`case-${i}`, { expect: { custom: './checks.mjs#seen', contains: 'ok' } }),
  )
  const suite = suiteOf(cases, { name: 'batches', file: join(dir, 'batches.yaml') })
  const report = await runSuites([suite], {
    outDir: join(dir, `reports-${concurrency}`),
    concurrency,
    targets: new Map([
      [
        suite.file,
        targetOf((input) => {
          counts.evalsCheckBatches.targetsRun++
          return transcriptOf(input, 'ok')
        }),
      ],
    ]),
  })
  const results = readResults(report.resultsFile)
  expect(results.map((row) => row.status)).toEqual(Array.from({ length: 40 }, () => 'passed'))
  const evaluators = results.map((row) =>
    'verdicts' in row ? row.verdicts.map((verdict) => verdict.evaluator).join() : '',
  )
  expect(new Set(evaluators)).toEqual(new Set(['custom,contains']))
  return counts.evalsCheckBatches.seenByChecks
}

test('with concurrency 4, pairs waiting for their check batch let others start: batches hold more than 4', async () => {
  const seen = await run(4)
  expect(seen).toHaveLength(40)
  // the first batch ran after more targets than the run's 4 slots had finished
  expect(seen[0]).toBeGreaterThan(4)
})

test('with concurrency 1, each pair runs start to end: its check sees only the targets before it', async () => {
  const seen = await run(1)
  expect(seen).toEqual(Array.from({ length: 40 }, (_, i) => i + 1))
})

test('a pair keeps its slot while a model-calling check is still to come, and lends it once none is', async () => {
  const released: string[] = []
  const run = async (evaluators: Evaluator[]) => {
    const slot = { release: () => released.push(evaluators.map((evaluator) => evaluator.name).join()) }
    const job: CaseJob = {
      suite: 'batches',
      caseId: 'one',
      trial: 0,
      tags: [],
      weight: 1,
      input: 'hi',
      vars: {},
      target: targetOf((input) => transcriptOf(input, 'ok')),
      evaluators,
      timeoutMs: 5000,
    }
    return runCase(job, new AbortController().signal, slot)
  }
  const batched: Evaluator = {
    name: 'batched',
    waitsForBatch: true,
    evaluate: async () => ({ pass: true, reason: 'fine' }),
  }
  const judge: Evaluator = {
    name: 'judge',
    usesModel: true,
    evaluate: async () => ({ pass: true, reason: 'fine' }),
  }
  await expect(run([batched, judge])).resolves.toMatchObject({ status: 'passed' })
  await expect(run([judge, batched])).resolves.toMatchObject({ status: 'passed' })
  expect(released).toEqual(['judge,batched'])
})
