import { describe, expect, test } from 'vitest'
import { CaseList } from '../../src/cases/case-list.ts'
import type { CaseResult } from '../../src/model/case-result.ts'
import { CaseStatsTally } from '../../src/runner/tally/case-stats.ts'
import { caseOf, transcriptOf } from './helpers.ts'

/** A graded pass of case `id` whose one verdict carries `score`. */
function scoredPass(id: string, score: number, variant?: string): CaseResult {
  return {
    suite: 'demo',
    ...(variant !== undefined && { variant }),
    caseId: id,
    trial: 0,
    tags: [],
    weight: 1,
    durationMs: 3,
    status: 'passed',
    score,
    verdicts: [{ name: 'similar', pass: true, score, reason: 'close enough' }],
    transcript: transcriptOf(id, 'ok', { latencyMs: 12.34, costUsd: 0.5 }),
  }
}

describe("a case's stats", () => {
  // summary.json writes each case's stats as JSON.stringify lays them out: the key order is the file's
  const ORDER = [
    'id',
    'inputHash',
    'tags',
    'passes',
    'trials',
    'score',
    'latencyMs',
    'costUsd',
    'status',
    'suite',
    'variant',
    'weight',
    'critical',
    'expectFail',
    'errored',
    'passRate',
    'passAtK',
    'passHatK',
    'flaky',
  ]

  test("keep summary.json's key order, each optional key in its place when present", () => {
    const tally = new CaseStatsTally()
    const cases = CaseList.of([
      caseOf('full', { critical: { minPassRate: 0.9 }, expectFail: 'issue 12' }),
      caseOf('plain'),
    ])
    tally.plan('demo', cases, 'fast')
    tally.add(scoredPass('full', 0.75, 'fast'), 0)
    tally.add(
      { ...scoredPass('plain', 1, 'fast'), verdicts: [{ name: 'contains', pass: true, reason: 'ok' }] },
      1,
    )
    const [full, plain] = [...tally.cases()]
    expect(Object.keys(full ?? {})).toEqual(ORDER)
    expect(full).toMatchObject({
      score: 0.75,
      latencyMs: 12.3,
      costUsd: 0.5,
      variant: 'fast',
      critical: { minPassRate: 0.9 },
      expectFail: 'issue 12',
    })
    // without a scored verdict, a critical setting or a known failure, those keys are absent, not undefined
    expect(Object.keys(plain ?? {})).toEqual(
      ORDER.filter((key) => !['score', 'critical', 'expectFail'].includes(key)),
    )
  })
})
