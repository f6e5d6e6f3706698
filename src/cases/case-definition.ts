import type { CriticalSetting, KnownFailure } from '../baselines/summary.ts'
import type { JudgeItem } from '../evaluators/llm-judge-options.ts'
import type { ScriptedApproval } from '../targets/target.ts'
import type { Turn } from '../types.ts'
import type { Assertion, Expectations } from './schema.ts'

/** One case, ready to run: input rendered with its vars, suite defaults applied. */
export interface CaseDefinition {
  /** unique within its suite */
  id: string
  description?: string
  /** the input after handlebars rendering with `vars` */
  input: string | Turn[]
  vars: Record<string, unknown>
  /** the case's tags, after the defaults' tags */
  tags: string[]
  /** weight in the suite's weighted accuracy and in the gate @default 1 */
  weight: number
  /** `critical:`: the gate judges the case on its own (`critical: true` is `{}`) */
  critical?: CriticalSetting
  /** `expect_fail:`: a known failure, `true` or its reason */
  expectFail?: KnownFailure
  /** why the case is skipped; absent when it runs */
  skip?: string
  /** set with `only: true`; when any case has it, the loader marks every other case skipped */
  only: boolean
  /** runs per case: case, then defaults, then suite @default 1 */
  trials: number
  timeoutMs?: number
  /** shorthand checks, the defaults' merged under the case's */
  expect: Expectations
  /** long-form checks, the defaults' first */
  assert: Assertion[]
  /** per-case LLM judges, validated; their strings are rendered with `vars` when compiled */
  judge?: JudgeItem[]
  /** a scripted conversation: sent one user message at a time after `input` (then the history before them) */
  turns?: ScriptedTurn[]
  /** a model playing the user after `input` (then the history before it) */
  simulatedUser?: SimulatedUserSpec
  /** compare the output with its stored snapshot; `strict` fails the case when it changed */
  snapshot?: true | 'strict'
  /** capture the spans the case produces: the case's `trace:`, else the suite's (`--trace` turns it on for all) */
  trace?: true
  /** scripted decisions for tool calls that wait for approval */
  approvals?: ScriptedApproval[]
  /** 1-based line of the case in its file, for annotations */
  line: number
}

/** One scripted user message, rendered with the case vars, and the checks on the reply to it. */
export interface ScriptedTurn {
  user: string
  /** checks on this turn's reply; `{}` when it has none */
  expect: Expectations
}

/** A model that plays the user: it writes each user message until its goal is met or `maxTurns` were sent. */
export interface SimulatedUserSpec {
  /** who the user is, e.g. "a hurried customer" */
  persona?: string
  /** what the user wants; the simulated user ends the conversation once it is met */
  goal: string
  /** most user messages before the conversation ends @default 5 */
  maxTurns: number
  /** the model playing the user; the suite's model (`--model`) when absent */
  model?: string
}
