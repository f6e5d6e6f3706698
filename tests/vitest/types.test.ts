/* eslint-disable @typescript-eslint/no-invalid-void-type -- type tests read the matchers' types and never call them */
import { describe, expect, expectTypeOf, test } from 'vitest'
import { z } from 'zod'
import type { CaseDefinition } from '../../src/cases/case-definition.ts'
import type { Agent } from '../../src/engine/agent.ts'
import type { AgentResult } from '../../src/engine/agent-run.ts'
import type { JudgeItem } from '../../src/evaluators/index.ts'
import type { Target } from '../../src/targets/target.ts'
import type { Transcript, Turn } from '../../src/types.ts'
import {
  describeSuite,
  type CaseChecks,
  type DescribeSuiteOptions,
  type EvalsTaskMeta,
  type MatcherSubject,
  type StandardSchemaLike,
  type SuiteTarget,
  type ToCallToolsOptions,
} from '../../src/vitest/index.ts'
import { cancelled } from './helpers.ts'

// checked by `npm run typecheck` (tsc includes tests/); at run time these are no-ops
describe('the `vitest` augmentation', () => {
  test('types every matcher on expect(), with its arguments', () => {
    const assertion = expect(cancelled)
    expectTypeOf(assertion.toCallTool).parameter(0).toEqualTypeOf<string>()
    expectTypeOf(assertion.toCallTool).parameter(1).toEqualTypeOf<Record<string, unknown> | undefined>()
    expectTypeOf(assertion.toCallTool).returns.toEqualTypeOf<void>()
    expectTypeOf(assertion.toCallTools).parameter(1).toEqualTypeOf<ToCallToolsOptions | undefined>()
    expectTypeOf<NonNullable<ToCallToolsOptions['order']>>().toEqualTypeOf<
      'strict' | 'unordered' | 'subset' | 'superset' | 'in-order'
    >()
    expectTypeOf(assertion.toHaveToolArgs).parameters.toEqualTypeOf<
      [name: string, partialArgs: Record<string, unknown>]
    >()
    expectTypeOf(assertion.toContainOutput).parameter(0).toEqualTypeOf<string | RegExp>()
    expectTypeOf(assertion.toMatchOutputSchema).parameter(0).toExtend<object>()
    expectTypeOf(assertion.toStayUnder)
      .parameter(0)
      .toEqualTypeOf<{ latencyMs?: number; costUsd?: number; iterations?: number }>()
    expectTypeOf(assertion.toHaveNoPii)
      .parameter(0)
      .toEqualTypeOf<readonly ('email' | 'phone' | 'ssn' | 'credit_card' | 'ip' | 'zip')[] | undefined>()
    expectTypeOf(assertion.not.toCallTool).returns.toEqualTypeOf<void>()
  })

  test('the judge and case matchers are async', () => {
    expectTypeOf(expect(cancelled).toPassCase).returns.toEqualTypeOf<Promise<void>>()
    expectTypeOf(expect(cancelled).toPassJudge).returns.toEqualTypeOf<Promise<void>>()
    expectTypeOf(expect(cancelled).not.toPassJudge).returns.toEqualTypeOf<Promise<void>>()
    expectTypeOf(expect(cancelled).toPassJudge).parameter(0).toEqualTypeOf<string | JudgeItem>()
    expectTypeOf(expect(cancelled).toPassCase).parameter(0).toEqualTypeOf<CaseChecks>()
    expectTypeOf<CaseDefinition>().toExtend<CaseChecks>()
  })

  test('a zod schema fits toMatchOutputSchema', () => {
    expectTypeOf(expect(cancelled).toMatchOutputSchema).parameter(0).toEqualTypeOf<StandardSchemaLike>()
    expectTypeOf(z.object({ ok: z.boolean() })).toExtend<StandardSchemaLike>()
  })

  test('rejects wrong arguments', () => {
    const never = (): void => {
      // @ts-expect-error a tool name is a string
      expect(cancelled).toCallTool(1)
      // @ts-expect-error unknown order mode
      expect(cancelled).toCallTools(['a'], { order: 'any' })
      // @ts-expect-error unknown limit
      expect(cancelled).toStayUnder({ tokens: 10 })
      // @ts-expect-error unknown PII kind
      expect(cancelled).toHaveNoPii(['address'])
      // @ts-expect-error a number is no schema
      expect(cancelled).toMatchOutputSchema(5)
    }
    expectTypeOf(never).toBeFunction()
  })

  test('the synchronous matchers exist as asymmetric matchers', () => {
    expectTypeOf(expect.toCallTool).toBeFunction()
    expectTypeOf(expect.toContainOutput).toBeFunction()
  })

  test('describeSuite and the task meta it writes', () => {
    expectTypeOf(describeSuite).parameter(0).toEqualTypeOf<string>()
    expectTypeOf(describeSuite).returns.toEqualTypeOf<void>()
    expectTypeOf<EvalsTaskMeta['verdicts'][number]>().toHaveProperty('reason').toEqualTypeOf<string>()
    expectTypeOf(describeSuite).parameter(1).toEqualTypeOf<DescribeSuiteOptions | undefined>()
    expectTypeOf<Agent>().toExtend<SuiteTarget>()
    expectTypeOf<Target>().toExtend<SuiteTarget>()
    expectTypeOf<(input: string | Turn[]) => Promise<string>>().toExtend<SuiteTarget>()
  })

  test('the subjects the matchers read', () => {
    expectTypeOf<AgentResult<{ ok: boolean }>>().toExtend<MatcherSubject>()
    expectTypeOf<Transcript>().toExtend<MatcherSubject>()
  })
})
