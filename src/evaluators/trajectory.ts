import { isDeepStrictEqual } from 'node:util'
import { z } from 'zod'
import type { ToolCallRecord } from '../types.ts'
import { withRenamedKeys } from '../util/renamed-keys.ts'
import { findMismatch } from './deep-match.ts'
import { valueAt } from '../util/value-at.ts'
import { reported } from './reported.ts'
import { defineEvaluator, expected } from './definition.ts'
import type { Evaluator } from './evaluator.ts'
import { code, compactJson } from './describe.ts'
import { alignInOrder, alignUnordered } from './trajectory-align.ts'

/** How the expected steps must line up with the calls the agent made. */
export const orderModes = ['strict', 'unordered', 'subset', 'superset', 'in-order'] as const
/** How a step's expected arguments must match a call's arguments. */
export const argsModes = ['exact', 'ignore', 'subset', 'superset'] as const

export type OrderMode = (typeof orderModes)[number]
export type ArgsMode = (typeof argsModes)[number]

/** the step and trajectory keys before they matched `tool` / `tool_args` */
const RENAMED = { name: 'tool', args_match: 'args_mode' }

const argsMode = z.union([z.enum(argsModes), z.array(z.string().min(1)).min(1)], {
  error: expected(`one of ${argsModes.join(', ')} or a list of argument key paths`),
})
const step = z.union(
  [
    z.string().min(1),
    withRenamedKeys(
      z.strictObject({
        tool: z.string().min(1),
        args: z.record(z.string(), z.unknown()).optional(),
        /** overrides the trajectory's `args_mode` for this step */
        args_mode: argsMode.optional(),
      }),
      RENAMED,
    ),
  ],
  { error: expected('a tool name or { tool, args?, args_mode? }') },
)
const trajectoryOptions = withRenamedKeys(
  z.strictObject({
    steps: z.array(step),
    /** strict: same calls in the same order; unordered: same calls in any order; subset: no call outside the steps;
     * superset: every step called, extra calls allowed; in-order: the steps appear in this order, extra calls allowed */
    order: z.enum(orderModes).default('strict'),
    /** exact, ignore, subset (no argument beyond the expected), superset (the expected ones, deep), or key paths compared exactly */
    args_mode: argsMode.default('superset'),
    /** passes on a partial-credit score at or above this, instead of requiring a full match */
    threshold: z.number().min(0).max(1).optional(),
  }),
  RENAMED,
)
const trajectoryShorthand = z.union([z.array(step), trajectoryOptions], {
  error: expected('a list of steps or { steps, order?, args_mode?, threshold? }'),
})

type TrajectoryOptions = z.output<typeof trajectoryOptions>
type Step = TrajectoryOptions['steps'][number]

export const trajectory = defineEvaluator({
  kind: 'trajectory',
  description:
    'The tool calls match these steps under an order mode and an argument mode, with a partial-credit score.',
  options: trajectoryOptions,
  shorthand: trajectoryShorthand,
  fromShorthand: (value) => (Array.isArray(value) ? { steps: value } : value),
  create: (options) => trajectoryEvaluator('trajectory', options),
})

const orderedTools = z.array(z.string().min(1)).min(1)

export const toolOrder = defineEvaluator({
  kind: 'tool_order',
  description: 'The agent called these tools in this order; other calls may come between them.',
  options: z.strictObject({ value: orderedTools }),
  shorthand: orderedTools,
  fromShorthand: (value) => ({ value }),
  create: ({ value }) =>
    trajectoryEvaluator('tool_order', { steps: value, order: 'in-order', args_mode: 'ignore' }),
})

function trajectoryEvaluator(name: string, options: TrajectoryOptions): Evaluator {
  const expected = options.steps.map((s) => (typeof s === 'string' ? { tool: s } : s))
  return {
    name,
    evaluate: (transcript) => {
      const toolCalls = reported(transcript, 'toolCalls', name)
      const { matched, score, pass } = scoreTrajectory(expected, toolCalls, options, true)
      const passed = options.threshold === undefined ? pass : score >= options.threshold
      const summary = `${options.order} trajectory ${sequence(expected.map((s) => s.tool))}`
      const seen = `agent called ${toolCalls.length === 0 ? 'no tools' : sequence(toolCalls.map((c) => c.name))}`
      const credit = `${matched}/${expected.length} steps matched, score ${score.toFixed(2)}`
      if (passed) return { pass: true, score, reason: `${seen}, matching the ${summary} (${credit})` }
      const byName = scoreTrajectory(expected, toolCalls, options, false)
      const hint = byName.pass
        ? `; the tool names match but arguments differ: ${argsHint(expected, toolCalls)}`
        : ''
      return { pass: false, score, reason: `expected ${summary}, ${seen} (${credit})${hint}` }
    },
  }
}

function scoreTrajectory(
  expected: Exclude<Step, string>[],
  calls: readonly ToolCallRecord[],
  options: TrajectoryOptions,
  withArgs: boolean,
): { matched: number; score: number; pass: boolean } {
  const matches = (e: number, a: number): boolean => {
    const want = expected[e]
    const call = calls[a]
    if (!want || !call || want.tool !== call.name) return false
    return !withArgs || argsMatch(want.args, call.args, want.args_mode ?? options.args_mode)
  }
  const e = expected.length
  const a = calls.length
  const ratio = (part: number, whole: number): number => (whole === 0 ? 1 : part / whole)
  switch (options.order) {
    case 'strict': {
      const matched = alignInOrder(e, a, matches)
      return { matched, score: ratio(matched, Math.max(e, a)), pass: matched === e && e === a }
    }
    case 'in-order': {
      const matched = alignInOrder(e, a, matches)
      return { matched, score: ratio(matched, e), pass: matched === e }
    }
    case 'unordered': {
      const matched = alignUnordered(e, a, matches)
      return { matched, score: ratio(2 * matched, e + a), pass: matched === e && e === a }
    }
    case 'subset': {
      const matched = alignUnordered(e, a, matches)
      return { matched, score: ratio(matched, a), pass: matched === a }
    }
    case 'superset': {
      const matched = alignUnordered(e, a, matches)
      return { matched, score: ratio(matched, e), pass: matched === e }
    }
  }
}

/** Whether a call's arguments match a step's expected ones; a step without `args` matches any arguments. */
export function argsMatch(
  expected: Record<string, unknown> | undefined,
  actual: unknown,
  mode: ArgsMode | string[],
): boolean {
  if (expected === undefined) return true
  if (Array.isArray(mode))
    return mode.every((path) => isDeepStrictEqual(valueAt(expected, path), valueAt(actual, path)))
  switch (mode) {
    case 'ignore':
      return true
    case 'exact':
      return isDeepStrictEqual(expected, actual)
    case 'superset':
      return findMismatch(expected, actual) === undefined
    case 'subset':
      return findMismatch(actual, expected) === undefined
  }
}

function argsHint(expected: Exclude<Step, string>[], calls: readonly ToolCallRecord[]): string {
  const want = expected.find((s) => s.args !== undefined)
  const call = calls.find((c) => c.name === want?.tool)
  if (!want || !call) return 'see details'
  return `${code(want.tool)} expected ${compactJson(want.args)}, got ${compactJson(call.args)}`
}

function sequence(names: readonly string[]): string {
  return names.length === 0 ? '(none)' : names.map(code).join(' → ')
}
