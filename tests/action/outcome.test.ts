import { describe, expect, test } from 'vitest'
import { decideOutcome } from '../../action/outcome.ts'
import type { FailOn } from '../../action/inputs.ts'

const counts = (passed: number, failed: number, errored: number, skipped = 0) => ({
  passed,
  failed,
  errored,
  skipped,
})
const failedGate = {
  decision: 'fail' as const,
  reasons: ['critical case `a` regressed 1/1 → 0/1.'],
  warnings: [],
}

describe('decideOutcome', () => {
  test.each<[string, Parameters<typeof decideOutcome>[0], Record<FailOn, boolean>, string]>([
    [
      'all passed',
      { counts: counts(3, 0, 0) },
      { regression: false, failure: false, never: false },
      'passed',
    ],
    [
      'a failed case',
      { counts: counts(2, 1, 0) },
      { regression: false, failure: true, never: false },
      'failed',
    ],
    [
      'a failed gate',
      { counts: counts(2, 1, 0), gate: failedGate },
      { regression: true, failure: true, never: false },
      'regressed',
    ],
    [
      'a gate warning',
      { counts: counts(3, 0, 0), gate: { decision: 'warn', reasons: [], warnings: ['old baseline'] } },
      { regression: false, failure: false, never: false },
      'passed',
    ],
    [
      'errored cases only',
      { counts: counts(2, 0, 1) },
      { regression: true, failure: true, never: false },
      'errored',
    ],
    [
      'nothing ran',
      { counts: counts(0, 0, 0, 4) },
      { regression: true, failure: true, never: true },
      'could-not-run',
    ],
  ])('%s', (_, report, fails, status) => {
    for (const failOn of ['regression', 'failure', 'never'] as const) {
      const outcome = decideOutcome(report, failOn)
      expect(outcome.status).toBe(status)
      expect(outcome.fail, failOn).toBe(fails[failOn])
    }
  })

  test('messages keep infrastructure apart from quality', () => {
    expect(decideOutcome({ counts: counts(1, 2, 1), gate: failedGate }, 'failure').message).toBe(
      'evals: the gate failed: critical case `a` regressed 1/1 → 0/1; 2 case runs failed; 1 case run errored ' +
        '(infrastructure: the target threw or timed out, or a check crashed; not a quality result).',
    )
    expect(decideOutcome({ counts: counts(4, 0, 0) }, 'failure').message).toBe(
      'evals: all 4 case runs passed.',
    )
  })

  test('a run whose passes were only partly checked says so', () => {
    expect(decideOutcome({ counts: { ...counts(4, 0, 0), partial: 1 } }, 'failure').message).toBe(
      'evals: all 4 case runs passed (1 only partly checked: some checks were skipped).',
    )
  })
})
