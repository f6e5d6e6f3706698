import { describe, expect, test } from 'vitest'
import { CaseList } from '../../src/cases/case-list.ts'
import type { CaseResult } from '../../src/model/case-result.ts'
import { CaseStatsTally } from '../../src/runner/tally/case-stats.ts'
import { caseOf, transcriptOf } from './helpers.ts'

/** A graded pass of case `id`, its one verdict scored when `score` is given. */
function graded(id: string, variant: string, score?: number): CaseResult {
  return {
    suite: 'demo',
    variant,
    caseId: id,
    trial: 0,
    tags: [],
    weight: 1,
    durationMs: 3,
    status: 'passed',
    score: score ?? 1,
    verdicts: [
      { evaluator: 'check', pass: true, ...(score !== undefined && { score }), reason: 'ok', weight: 1 },
    ],
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
    tally.add(graded('full', 'fast', 0.75), 0)
    tally.add(graded('plain', 'fast'), 1)
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
