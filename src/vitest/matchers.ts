/**
 * The matchers as pure functions: each takes what `expect()` received and the matcher's arguments, runs the same
 * evaluator a case file would, and returns `{ pass, message, actual?, expected? }` for `expect.extend`.
 */
import type { z } from 'zod'
import type { Assertion } from '../cases/schema.ts'
import { ConfigError } from '../errors.ts'
import { code, codeList, compactJson } from '../evaluators/describe.ts'
import type { Evaluator, Verdict } from '../evaluators/evaluator.ts'
import { compileEvaluators } from '../cases/compile-evaluators.ts'
import { structuredOutput } from '../evaluators/json.ts'
import type { noPii } from '../evaluators/no-pii.ts'
import { calledNames } from '../evaluators/tools.ts'
import type { ArgsMode, OrderMode } from '../evaluators/trajectory.ts'
import type { Transcript } from '../types.ts'
import { subsetFor, toMatcherResult, type MatcherResult, type Outcome, type RunPart } from './format.ts'
import { toSubjectTranscript } from './subject.ts'

/** A step of `toCallTools`: a tool name, or a tool with the arguments its call must include. */
export type ToolStep = string | { tool: string; args?: Record<string, unknown> }

export interface ToCallToolsOptions {
  /**
   * `in-order`: the tools appear in this order, other calls may come between; `strict`: exactly these calls in
   * this order; `unordered`: exactly these calls in any order; `superset`: all of them, in any order, others
   * allowed; `subset`: no call outside them. The case-file `trajectory` modes. @default 'in-order'
   */
  order?: OrderMode
  /** how a step's `args` must match a call's arguments, as the case-file `args_mode` @default 'superset' */
  argsMode?: ArgsMode | string[]
}

/** Limits of `toStayUnder`; at least one is needed. Each is inclusive. */
export interface RunLimits {
  latencyMs?: number
  /** fails when the cost is unknown (no price for the model) */
  costUsd?: number
  iterations?: number
}

/** A kind of personal data `toHaveNoPii` looks for. */
export type PiiKind = NonNullable<z.input<(typeof noPii)['options']>['kinds']>[number]

/** What `toMatchOutputSchema` accepts: a zod schema or any Standard Schema with a synchronous `validate`. */
export interface StandardSchemaLike {
  readonly '~standard': {
    readonly validate: (value: unknown) => StandardResult | Promise<StandardResult>
  }
}

type StandardResult =
  | { readonly value: unknown; readonly issues?: undefined }
  | {
      readonly issues: readonly {
        readonly message: string
        readonly path?: readonly (PropertyKey | { readonly key: PropertyKey })[] | undefined
      }[]
    }

export function toCallTool(received: unknown, name: string, args?: Record<string, unknown>): MatcherResult {
  if (args !== undefined) return toolArgsMatcher('toCallTool', received, name, args)
  const transcript = toSubjectTranscript(received, 'toCallTool')
  const verdict = run('toCallTool', { kind: 'tool', value: name }, transcript)
  const called = calledNames(transcript.toolCalls ?? [])
  return result(transcript, verdict, {
    matcher: 'toCallTool',
    expected: `a call to ${code(name)}`,
    notExpected: `no call to ${code(name)}`,
    show: ['calls', 'output'],
    diff: { actual: called, expected: [...called, name] },
  })
}

export function toHaveToolArgs(
  received: unknown,
  name: string,
  partialArgs: Record<string, unknown>,
): MatcherResult {
  return toolArgsMatcher('toHaveToolArgs', received, name, partialArgs)
}

function toolArgsMatcher(
  matcher: string,
  received: unknown,
  name: string,
  args: Record<string, unknown>,
): MatcherResult {
  const transcript = toSubjectTranscript(received, matcher)
  const verdict = run(matcher, { kind: 'tool_args', value: { [name]: args } }, transcript)
  const calls = (transcript.toolCalls ?? []).filter((call) => call.name === name)
  const expected = `a call to ${code(name)} with arguments including ${compactJson(args, 120)}`
  return result(transcript, verdict, {
    matcher,
    expected,
    notExpected: `no call to ${code(name)} with arguments including ${compactJson(args, 120)}`,
    show: ['calls', 'output'],
    // the diff compares with the call the evaluator names (the first), cut to the expected keys
    diff:
      calls[0] === undefined
        ? { actual: calledNames(transcript.toolCalls ?? []), expected: [name] }
        : { actual: subsetFor(calls[0].args, args), expected: args },
  })
}

export function toCallTools(
  received: unknown,
  steps: readonly ToolStep[],
  options: ToCallToolsOptions = {},
): MatcherResult {
  const transcript = toSubjectTranscript(received, 'toCallTools')
  const order = options.order ?? 'in-order'
  const verdict = run(
    'toCallTools',
    {
      kind: 'trajectory',
      steps: [...steps],
      order,
      ...(options.argsMode === undefined ? {} : { args_mode: options.argsMode }),
    },
    transcript,
  )
  const names = steps.map((step) => (typeof step === 'string' ? step : step.tool))
  const objects = steps.map((step) => (typeof step === 'string' ? { tool: step } : step))
  const withArgs = objects.some((step) => step.args !== undefined)
  return result(transcript, verdict, {
    matcher: 'toCallTools',
    expected: orderPhrase(order, names),
    show: ['calls', 'output'],
    diff: withArgs
      ? {
          // each call's arguments cut to the keys a step of the same name expects
          actual: (transcript.toolCalls ?? []).map((call) => {
            const step = objects.find((candidate) => candidate.tool === call.name && candidate.args)
            return step?.args
              ? { tool: call.name, args: subsetFor(call.args, step.args) }
              : { tool: call.name }
          }),
          expected: objects,
        }
      : { actual: (transcript.toolCalls ?? []).map((call) => call.name), expected: names },
  })
}

function orderPhrase(order: OrderMode, names: readonly string[]): string {
  const sequence = names.map(code).join(' → ')
  switch (order) {
    case 'in-order':
      return `calls to ${sequence} in this order (other calls allowed between)`
    case 'strict':
      return `exactly the calls ${sequence}, in this order`
    case 'unordered':
      return `exactly the calls ${codeList(names)}, in any order`
    case 'superset':
      return `calls to ${codeList(names)}, in any order (other calls allowed)`
    case 'subset':
      return `no call outside ${codeList(names)}`
  }
}

export function toContainOutput(received: unknown, expected: string | RegExp): MatcherResult {
  const transcript = toSubjectTranscript(received, 'toContainOutput')
  const assertion: Assertion =
    typeof expected === 'string'
      ? { kind: 'contains', value: expected }
      : { kind: 'output_regex', value: expected.source, flags: expected.flags }
  const verdict = run('toContainOutput', assertion, transcript)
  return result(transcript, verdict, {
    matcher: 'toContainOutput',
    expected:
      typeof expected === 'string'
        ? `output containing ${JSON.stringify(expected)} (ignoring case)`
        : `output matching ${String(expected)}`,
    notExpected:
      typeof expected === 'string'
        ? `output not containing ${JSON.stringify(expected)} (ignoring case)`
        : `output not matching ${String(expected)}`,
    show: ['output'],
  })
}

export function toMatchOutputSchema(received: unknown, schema: StandardSchemaLike): MatcherResult {
  const transcript = toSubjectTranscript(received, 'toMatchOutputSchema')
  const outcome = {
    matcher: 'toMatchOutputSchema',
    expected: 'structured output matching the schema',
    notExpected: 'structured output that does not match the schema',
    show: ['output'] as RunPart[],
  }
  const value = structuredOutput(transcript)
  if (!value.ok) {
    const reason = `no structured output, and ${value.error}`
    return toMatcherResult({ ...outcome, pass: false, reasons: [reason] }, transcript)
  }
  const validated = schema['~standard'].validate(value.value)
  if (validated instanceof Promise) {
    throw new TypeError(
      '`toMatchOutputSchema` needs a schema that validates synchronously; this one returned a Promise (async refinements?).',
    )
  }
  if (validated.issues === undefined) {
    return toMatcherResult(
      { ...outcome, pass: true, reasons: ['structured output matches the schema'] },
      transcript,
    )
  }
  const issues = validated.issues.map((issue) => {
    const path = (issue.path ?? []).map((key) => String(typeof key === 'object' ? key.key : key)).join('.')
    return path === '' ? issue.message : `${code(path)}: ${issue.message}`
  })
  return toMatcherResult({ ...outcome, pass: false, reasons: issues }, transcript)
}

export function toStayUnder(received: unknown, limits: RunLimits): MatcherResult {
  const transcript = toSubjectTranscript(received, 'toStayUnder')
  const checks: [keyof RunLimits, string, (value: number) => string][] = [
    ['latencyMs', 'latency_ms_lte', (value) => `latency ≤ ${value} ms`],
    ['costUsd', 'cost_usd_lte', (value) => `cost ≤ $${value}`],
    ['iterations', 'iterations_lte', (value) => `≤ ${value} iterations`],
  ]
  const given = checks.filter(([key]) => limits[key] !== undefined)
  if (given.length === 0) {
    throw new TypeError('`toStayUnder` needs at least one of `latencyMs`, `costUsd`, `iterations`.')
  }
  const verdicts = given.map(([key, kind]) => run('toStayUnder', { kind, value: limits[key] }, transcript))
  const failing = verdicts.filter((verdict) => !verdict.pass)
  const measured: Record<keyof RunLimits, unknown> = {
    latencyMs: Math.round(transcript.latencyMs),
    costUsd: transcript.costUsd,
    iterations: transcript.iterations,
  }
  return toMatcherResult(
    {
      matcher: 'toStayUnder',
      pass: failing.length === 0,
      expected: given.map(([key, , phrase]) => phrase(limits[key] as number)).join(', '),
      notExpected: `a run over at least one of ${given.map(([key, , phrase]) => phrase(limits[key] as number)).join(', ')}`,
      reasons: (failing.length === 0 ? verdicts : failing).map((verdict) => verdict.reason),
      show: ['usage'],
      diff: {
        actual: Object.fromEntries(given.map(([key]) => [key, measured[key]])),
        expected: Object.fromEntries(given.map(([key]) => [key, limits[key]])),
      },
    },
    transcript,
  )
}

export function toHaveNoPii(received: unknown, kinds?: readonly PiiKind[]): MatcherResult {
  const transcript = toSubjectTranscript(received, 'toHaveNoPii')
  const verdict = run(
    'toHaveNoPii',
    { kind: 'no_pii', ...(kinds === undefined ? {} : { kinds: [...kinds] }) },
    transcript,
  )
  const what = kinds === undefined ? 'personal data' : codeList(kinds)
  return result(transcript, verdict, {
    matcher: 'toHaveNoPii',
    expected: `output without ${what}`,
    notExpected: `output with ${what}`,
    // the reason shows what was found, masked; the output itself is left out of logs
    show: [],
  })
}

function result(
  transcript: Transcript,
  verdict: Verdict,
  outcome: Omit<Outcome, 'pass' | 'reasons'>,
): MatcherResult {
  return toMatcherResult({ ...outcome, pass: verdict.pass, reasons: [verdict.reason] }, transcript)
}

const context = { caseId: 'vitest', trial: 0, signal: new AbortController().signal, vars: {} }

/** Builds the case-file check through the registry (validating its options) and runs it synchronously. */
function run(matcher: string, assertion: Assertion, transcript: Transcript): Verdict {
  const verdict = compile(matcher, assertion).evaluate(transcript, context)
  if (verdict instanceof Promise) {
    throw new TypeError(
      `\`${matcher}\`: the \`${assertion.kind}\` check is asynchronous; this is a bug, please report it.`,
    )
  }
  return verdict
}

/** The one evaluator a matcher's arguments stand for; argument errors name the matcher. */
export function compile(matcher: string, assertion: Assertion, baseDir = process.cwd()): Evaluator {
  try {
    const [evaluator] = compileEvaluators({ expect: {}, assert: [assertion] }, { baseDir })
    if (evaluator === undefined) throw new TypeError(`\`${matcher}\`: no check was built`)
    return evaluator
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error
    const detail = error.message.replace(/^Invalid options at assert\[0\]:\n/, '')
    throw new ConfigError(
      `\`${matcher}\` got invalid arguments (checked as \`${assertion.kind}\`):\n${detail}`,
      {
        cause: error,
      },
    )
  }
}
