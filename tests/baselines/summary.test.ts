import { describe, expect, test } from 'vitest'
import { baselineFromSummaries } from '../../src/baselines/summary.ts'
import { meta, summary } from './fixtures.ts'

describe('baselineFromSummaries', () => {
  test('builds a v1 baseline with cases sorted by id and tags sorted', () => {
    const baseline = baselineFromSummaries(meta, [
      summary('refund', [2, 3], { tags: ['critical', 'billing'], score: 0.5 }),
      summary('greet', 'pass', { costUsd: null }),
    ])
    expect(baseline).toEqual({
      schemaVersion: 1,
      suite: 'support',
      createdAt: '2026-11-01T12:00:00.000Z',
      git: { commit: 'abc123', branch: 'main' },
      targetId: 'agent:./agents/support.ts',
      modelId: 'local',
      judgeModel: null,
      judgeSpecHashes: {},
      cases: [
        {
          id: 'greet',
          inputHash: 'hash-greet',
          tags: [],
          status: 'passed',
          passes: 1,
          trials: 1,
          latencyMs: 100,
          costUsd: null,
        },
        {
          id: 'refund',
          inputHash: 'hash-refund',
          tags: ['billing', 'critical'],
          status: 'failed',
          passes: 2,
          trials: 3,
          score: 0.5,
          latencyMs: 100,
          costUsd: 0.001,
        },
      ],
    })
  })

  test('leaves `git` out when the run has no git metadata', () => {
    const { git: _git, ...withoutGit } = meta
    expect(Object.keys(baselineFromSummaries(withoutGit, []))).not.toContain('git')
  })
})
