import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { compileEvaluators } from '../../../src/cases/compile-evaluators.ts'
import type { CaseResult } from '../../../src/model/case-result.ts'
import { runCase, type CaseJob } from '../../../src/runner/execute/run-case.ts'
import type { Target } from '../../../src/targets/target.ts'

/** A target kind under the contract: made once, closed after, and whether it reports its tool calls. */
export interface TargetSubject {
  target: Target
  /** the target records tool calls (our engine, an adapter): `tools: []` is then a fact, not a guess */
  reportsToolCalls: boolean
  close?: () => void | Promise<void>
}

/** Far below the subject's 30 s: a target that does not honour the case's abort would blow it. */
const TIMEOUT_MS = 1_500
/** the slow case's: it errors at any timeout, so it waits less than the room the others get to answer */
const SLOW_TIMEOUT_MS = 500

/** One case of `input` against `target`, graded by `expect` as `evals run` grades it. */
function runOne(
  target: Target,
  input: string,
  expectations: Record<string, unknown>,
  timeoutMs = TIMEOUT_MS,
): Promise<CaseResult> {
  const job: CaseJob = {
    suite: 'contract',
    caseId: input,
    trial: 0,
    tags: [],
    weight: 1,
    input,
    vars: {},
    target,
    evaluators: compileEvaluators({ expect: expectations, assert: [] }, { baseDir: import.meta.dirname }),
    timeoutMs,
  }
  return runCase(job, new AbortController().signal)
}

/**
 * What every target must do, whatever stands behind it (an agent, a function, a command, an HTTP service): an
 * answer is graded; a crash is `errored`, never `failed`; the case timeout stops a slow target and errors the case
 * in about its time; what the target does not report is unknown, so a check that needs it errors instead of passing.
 */
export function describeTarget(name: string, make: () => Promise<TargetSubject>): void {
  describe(`${name} (target contract)`, () => {
    let made: TargetSubject | undefined
    const subject = (): TargetSubject => {
      if (made === undefined) throw new Error(`${name}: the subject could not be made`)
      return made
    }
    beforeAll(async () => {
      made = await make()
    }, 120_000)
    afterAll(async () => {
      await made?.target.close?.()
      await made?.close?.()
    })

    test('an answer is graded: passed on a check it meets, failed on one it does not', async () => {
      const passed = await runOne(subject().target, 'answer', { contains: 'answer to answer' })
      expect(passed.status).toBe('passed')
      const failed = await runOne(subject().target, 'answer', { contains: 'something else' })
      expect(failed.status).toBe('failed')
      if (passed.status !== 'passed') return
      expect(passed.transcript.output).toBe('answer to answer')
      expect(passed.transcript.latencyMs).toBeGreaterThanOrEqual(0)
      expect(passed.transcript.source).toMatch(/^(engine|target|traces|adapter:.+)$/)
    })

    test('a crash is errored, with what went wrong, never failed', async () => {
      const result = await runOne(subject().target, 'crash', { contains: 'answer' })
      expect(result.status).toBe('errored')
      if (result.status !== 'errored') return
      expect(result.error.message).toMatch(/crash|exit|status|500/i)
    })

    test('the case timeout stops a slow target and errors the case in about its time', async () => {
      const started = performance.now()
      const result = await runOne(subject().target, 'slow', { contains: 'answer' }, SLOW_TIMEOUT_MS)
      const tookMs = performance.now() - started
      expect(result.status).toBe('errored')
      if (result.status !== 'errored') return
      expect(result.error.message).toMatch(/timed out|timeout/i)
      expect(tookMs).toBeLessThan(SLOW_TIMEOUT_MS + 5_000)
    })

    test('unknown is not none: `tools: []` errors on a target that does not report tool calls', async () => {
      const result = await runOne(subject().target, 'answer', { tools: [] })
      if (subject().reportsToolCalls) {
        expect(result.status).toBe('passed')
        return
      }
      expect(result.status).toBe('errored')
      const reasons = JSON.stringify(result)
      expect(reasons).toMatch(/does not report|reports no tool calls/i)
    })
  })
}
