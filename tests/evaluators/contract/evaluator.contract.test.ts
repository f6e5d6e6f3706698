import { describe, expect, test } from 'vitest'
import type { Assertion } from '../../../src/cases/schema.ts'
import { compileEvaluators } from '../../../src/cases/compile-evaluators.ts'
import type { Evaluator, EvaluatorContext, Verdict } from '../../../src/evaluators/evaluator.ts'
import { evaluatorDefinitions } from '../../../src/evaluators/registry.ts'
import { NotReportedError } from '../../../src/errors.ts'
import type { Transcript } from '../../../src/types.ts'
import { full, SAMPLES, type Reportable } from './samples.ts'

// What every registered check must do, as providers and reporters have a contract: a well-formed verdict, the same
// one twice, `not` inverting it, an unknown field either not needed (the same verdict) or a NotReportedError (the
// case errors) — never a grade on a made-up value — and an aborted case never hanging in a check.

const baseDir = import.meta.dirname
const context = (signal = new AbortController().signal): EvaluatorContext => ({
  caseId: 'refund',
  trial: 0,
  signal,
  vars: {},
})

function compiled(kind: string, not = false): Evaluator {
  const sample = SAMPLES[kind]
  const evaluators = not
    ? compileEvaluators({ expect: {}, assert: [assertionOf(kind, sample?.value, true)] }, { baseDir })
    : compileEvaluators({ expect: { [kind]: sample?.value }, assert: [] }, { baseDir })
  const [evaluator] = evaluators
  if (!evaluator) throw new Error(`${kind}: nothing compiled`)
  return evaluator
}

/** The long form of an `expect:` value, as the case-file schema turns it: `{ kind, ...options, not }`. */
function assertionOf(kind: string, value: unknown, not: boolean): Assertion {
  const definition = evaluatorDefinitions.find((candidate) => candidate.kind === kind)
  if (!definition) throw new Error(`${kind} is not registered`)
  const options = definition.options.parse(
    definition.fromShorthand(definition.shorthand.parse(value)),
  ) as object
  return { kind, ...options, not }
}

/** `transcript` with `field` unknown, as a target that does not report it leaves it. */
function without(field: Reportable): Transcript {
  if (field === 'agent' || field === 'trace' || field === 'spans') {
    const { [field]: _unknown, ...rest } = full
    return rest
  }
  return { ...full, [field]: null }
}

const kinds = evaluatorDefinitions.map((definition) => definition.kind)
const FIELDS: readonly Reportable[] = [
  'toolCalls',
  'iterations',
  'usage',
  'costUsd',
  'agent',
  'trace',
  'spans',
]

test('every registered check has a sample in the contract', () => {
  expect(Object.keys(SAMPLES).sort()).toEqual([...kinds].sort())
})

describe.each(kinds)('%s (evaluator contract)', (kind) => {
  test('gives a well-formed verdict, the same one twice, and `not` inverts it', async () => {
    const evaluator = compiled(kind)
    const first: Verdict = await evaluator.evaluate(full, context())
    expect(typeof first.pass).toBe('boolean')
    expect(first.reason.trim()).not.toBe('')
    if (first.score !== undefined) {
      expect(first.score).toBeGreaterThanOrEqual(0)
      expect(first.score).toBeLessThanOrEqual(1)
    }
    const second = await evaluator.evaluate(full, context())
    expect({ pass: second.pass, score: second.score, reason: second.reason }).toEqual({
      pass: first.pass,
      score: first.score,
      reason: first.reason,
    })
    const negated = await compiled(kind, true).evaluate(full, context())
    expect(negated.pass).toBe(!first.pass)
  })

  test.each(FIELDS)(
    'unknown `%s`: the same verdict when not needed, a NotReportedError when needed',
    async (field) => {
      const evaluator = compiled(kind)
      const needed = SAMPLES[kind]?.needs?.includes(field) === true
      // a check may throw before its first await: either way the case errors
      const outcome = (async () => evaluator.evaluate(without(field), context()))()
      if (needed) {
        await expect(outcome).rejects.toThrow(NotReportedError)
        await expect(outcome).rejects.toThrow(`\`${kind}\``)
        return
      }
      const known = await evaluator.evaluate(full, context())
      const unknown = await outcome
      expect({ pass: unknown.pass, score: unknown.score }).toEqual({ pass: known.pass, score: known.score })
    },
  )

  test('settles on an aborted case instead of hanging', async () => {
    const controller = new AbortController()
    controller.abort(new Error('the case timed out'))
    const settled = (async () => compiled(kind).evaluate(full, context(controller.signal)))().then(
      () => 'settled',
      () => 'settled',
    )
    const hung = new Promise((resolve) =>
      setTimeout(() => {
        resolve('hung')
      }, 5_000).unref(),
    )
    expect(await Promise.race([settled, hung])).toBe('settled')
  })
})
