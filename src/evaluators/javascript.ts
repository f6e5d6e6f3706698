import { z } from 'zod'
import { ConfigError, toError } from '../errors.ts'
import type { Transcript } from '../types.ts'
import { defineEvaluator } from './definition.ts'
import { code, compactJson } from './describe.ts'
import type { EvaluatorContext, Verdict } from './evaluator.ts'
import { runInWorker } from './javascript-worker.ts'
import { formatScore } from './references.ts'

type Check = (
  output: string,
  transcript: Transcript,
  vars: Record<string, unknown>,
  context: EvaluatorContext,
) => unknown

// one function per distinct source: a case file repeating an expression compiles it once
const compiled = new Map<string, Check | SyntaxError>()

// async, so that a check may `await`; case files run code by design (README, Security)
// eslint-disable-next-line @typescript-eslint/require-await -- only its constructor is used
const AsyncFunction = (async () => undefined).constructor as new (...parameters: string[]) => Check

/**
 * The function of a `javascript` check: the source as one expression, or else as a function body (with `return`).
 * Both see `output`, `transcript`, `vars` and `context`.
 */
function compile(source: string): Check | SyntaxError {
  let check = compiled.get(source)
  if (check === undefined) {
    const asExpression = functionOf(`return (${source}\n)`)
    const asBody = asExpression instanceof SyntaxError ? functionOf(source) : asExpression
    // a source that fails both ways is reported as what it looks like
    check = asBody instanceof SyntaxError && !/\breturn\b/.test(source) ? asExpression : asBody
    compiled.set(source, check)
  }
  return check
}

function functionOf(body: string): Check | SyntaxError {
  try {
    return new AsyncFunction('output', 'transcript', 'vars', 'context', body)
  } catch (error) {
    return error instanceof SyntaxError ? error : new SyntaxError(toError(error).message)
  }
}

const source = z
  .string()
  .min(1)
  .superRefine((text, context) => {
    const check = compile(text)
    if (check instanceof SyntaxError) {
      context.addIssue({
        code: 'custom',
        message: `JavaScript syntax error in ${shown(text)}: ${check.message}`,
      })
    }
  })

export const javascript = defineEvaluator({
  kind: 'javascript',
  description:
    'A JavaScript expression (or function body with `return`) over `output`, `transcript`, `vars` and `context`: true/false, a 0..1 score that passes at `threshold`, or `{ pass, score?, reason? }`.',
  options: z.strictObject({
    value: source,
    threshold: z.number().min(0).max(1).optional().describe('the lowest passing score @default 0.5'),
  }),
  shorthand: source,
  fromShorthand: (value) => ({ value }),
  create: ({ value, threshold = 0.5 }) => {
    const check = compile(value)
    if (check instanceof SyntaxError) {
      throw new ConfigError(`javascript: JavaScript syntax error in ${shown(value)}: ${check.message}`)
    }
    const label = shown(value)
    return {
      name: 'javascript',
      // run in a worker thread, stopped with the case (see javascript-worker.ts); compiled here only to check syntax
      evaluate: async (transcript, context) => {
        const outcome = await runInWorker(value, transcript, context)
        if (outcome.kind === 'exited') {
          throw new Error(
            `${label} called \`process.exit(${outcome.code})\`; a check returns its verdict instead`,
          )
        }
        if (outcome.kind === 'threw') return { pass: false, reason: `${label} threw: ${outcome.message}` }
        return verdictOf(outcome.value, label, threshold)
      },
    }
  },
})

function verdictOf(result: unknown, label: string, threshold: number): Verdict {
  if (typeof result === 'boolean') return { pass: result, reason: `${label} returned ${result}` }
  if (typeof result === 'number') return scored(result, label, threshold)
  if (
    typeof result === 'object' &&
    result !== null &&
    typeof (result as { pass?: unknown }).pass === 'boolean'
  ) {
    const { pass, score, reason } = result as { pass: boolean; score?: unknown; reason?: unknown }
    const text = typeof reason === 'string' && reason !== '' ? reason : `${label} returned pass: ${pass}`
    if (score === undefined) return { pass, reason: text }
    if (typeof score === 'number' && score >= 0 && score <= 1) return { pass, score, reason: text }
    return {
      pass: false,
      reason: `${label} returned score ${compactJson(score)}; a score is a number in 0..1`,
    }
  }
  return {
    pass: false,
    reason: `${label} returned ${compactJson(result)}; expected a boolean, a 0..1 score or { pass, score?, reason? }`,
  }
}

function scored(score: number, label: string, threshold: number): Verdict {
  if (!(score >= 0 && score <= 1)) {
    return { pass: false, reason: `${label} returned ${score}; a score is a number in 0..1` }
  }
  return score >= threshold
    ? { pass: true, score, reason: `${label} scored ${formatScore(score)}, at least ${threshold}` }
    : { pass: false, score, reason: `${label} scored ${formatScore(score)}, expected at least ${threshold}` }
}

/** the source on one line, shortened, in backticks */
function shown(source: string): string {
  const line = source.replace(/\s+/g, ' ').trim()
  return code(line.length > 60 ? `${line.slice(0, 59)}…` : line)
}
