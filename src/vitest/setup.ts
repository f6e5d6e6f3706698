import { expect } from 'vitest'
import type { JudgeItem } from '../evaluators/index.ts'
import {
  toPassCase,
  toPassJudge,
  type CaseChecks,
  type ToPassCaseOptions,
  type ToPassJudgeOptions,
} from './case-matchers.ts'
import {
  toCallTool,
  toCallTools,
  toContainOutput,
  toHaveNoPii,
  toHaveToolArgs,
  toMatchOutputSchema,
  toStayUnder,
  type PiiKind,
  type RunLimits,
  type StandardSchemaLike,
  type ToCallToolsOptions,
  type ToolStep,
} from './matchers.ts'

/** The synchronous matchers; they also work as asymmetric matchers (`expect.toCallTool('search')`). */
export interface EvalsMatchers<R = unknown> {
  /** The agent called the tool at least once; with `args`, some call's arguments include them (deep subset). */
  toCallTool(name: string, args?: Record<string, unknown>): R
  /** The agent called these tools under an order mode (`in-order` by default), as the `trajectory` check. */
  toCallTools(steps: readonly ToolStep[], options?: ToCallToolsOptions): R
  /** Some call of the tool has arguments that include these (deep subset), as the `tool_args` check. */
  toHaveToolArgs(name: string, partialArgs: Record<string, unknown>): R
  /** The output contains the text (ignoring case, as `contains`) or matches the RegExp (as `output_regex`). */
  toContainOutput(expected: string | RegExp): R
  /** The structured output (or the output parsed as JSON) matches a zod or other Standard Schema. */
  toMatchOutputSchema(schema: StandardSchemaLike): R
  /** The run stayed within each limit given, as `latency_ms_lte`, `cost_usd_lte` and `iterations_lte`. */
  toStayUnder(limits: RunLimits): R
  /** The output contains no personal data (of these kinds), as `no_pii`. */
  toHaveNoPii(kinds?: readonly PiiKind[]): R
}

/** The async matchers: `await` them. */
export interface EvalsAsyncMatchers {
  /** Every check of the case passes: its `expect:`, `assert:` and `judge:` items, graded as `evals run` does. */
  toPassCase(caseDef: CaseChecks, options?: ToPassCaseOptions): Promise<void>
  /** An LLM judge (a rubric, or a case-file judge item) scores the run at or above the threshold. */
  toPassJudge(judge: string | JudgeItem, options?: ToPassJudgeOptions): Promise<void>
}

/** `void` on `expect(x)`; `unknown` on `expect.*` (vitest's `ExpectStatic` extends `Matchers<any>`): asymmetric use */
// eslint-disable-next-line @typescript-eslint/no-invalid-void-type -- the matchers' return type, as vitest's own
type MatcherReturn<T> = 0 extends 1 & T ? unknown : void

// vitest's documented extension point: `Assertion` extends `Matchers`, so this holds in either import order
declare module 'vitest' {
  // `T` must match vitest's declaration
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  interface Matchers<T = any> extends EvalsMatchers<MatcherReturn<T>>, EvalsAsyncMatchers {}
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface AsymmetricMatchersContaining extends EvalsMatchers {}
}

expect.extend({
  toCallTool,
  toCallTools,
  toHaveToolArgs,
  toContainOutput,
  toMatchOutputSchema,
  toStayUnder,
  toHaveNoPii,
  toPassCase(received: unknown, caseDef: CaseChecks, options?: ToPassCaseOptions) {
    return toPassCase(received, caseDef, options, { testPath: this.testPath })
  },
  toPassJudge(received: unknown, judge: string | JudgeItem, options?: ToPassJudgeOptions) {
    return toPassJudge(received, judge, options, { testPath: this.testPath })
  },
})
