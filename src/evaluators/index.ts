import { z } from 'zod'
import type { CaseDefinition } from '../cases/suite.ts'
import { ConfigError } from '../errors.ts'
import { didYouMean } from '../util/did-you-mean.ts'
import { costUsdLte, iterationsLte, latencyMsLte } from './budgets.ts'
import { contains, notContains } from './contains.ts'
import { custom } from './custom.ts'
import type { EvaluatorDefinition, EvaluatorFactoryContext } from './definition.ts'
import { code } from './describe.ts'
import type { Evaluator, Verdict } from './evaluator.ts'
import { json, parsed } from './json.ts'
import type { JudgeOptions } from './llm-judge.ts'
import { compileJudges } from './llm-judge-compile.ts'
import { maxLength, minLength } from './length.ts'
import { noInjection } from './no-injection.ts'
import { noPii } from './no-pii.ts'
import { endsWith, output, outputRegex, startsWith } from './output-match.ts'
import { toolArgs, tool, tools } from './tools.ts'
import { toolOrder, trajectory } from './trajectory.ts'

/** Every built-in check, in the order the JSON Schema and the docs list them. */
export const evaluatorDefinitions: readonly EvaluatorDefinition[] = [
  tool,
  tools,
  toolArgs,
  toolOrder,
  trajectory,
  contains,
  notContains,
  output,
  outputRegex,
  json,
  parsed,
  startsWith,
  endsWith,
  minLength,
  maxLength,
  latencyMsLte,
  costUsdLte,
  iterationsLte,
  noPii,
  noInjection,
  custom,
]

/** The registry: case-file kind → definition (options schema, shorthand, factory). */
export const evaluatorRegistry: ReadonlyMap<string, EvaluatorDefinition> = new Map(
  evaluatorDefinitions.map((definition) => [definition.kind, definition]),
)

/**
 * Turns a case's `expect:` shorthand, `assert:` list and `judge:` list into evaluators, in that order. `not: true`
 * negates a check and `weight` sets its share of the case score. Options are validated again here, so hand-built
 * cases fail with a ConfigError rather than at run time. Without `judge.model` (or `judge.provider`), judges
 * return skipped verdicts.
 */
export function compileEvaluators(
  caseDef: Pick<CaseDefinition, 'expect' | 'assert'> & Partial<Pick<CaseDefinition, 'id' | 'vars' | 'judge'>>,
  context: EvaluatorFactoryContext & { judge?: JudgeOptions },
): Evaluator[] {
  const fromExpect = Object.entries(caseDef.expect)
    .filter(([, value]) => value !== undefined)
    .map(([kind, value]) => {
      const definition = lookup(kind, `expect.${kind}`)
      const shorthand = parseOrThrow(definition.shorthand, value, `expect.${kind}`)
      return definition.create(
        parseOrThrow(definition.options, definition.fromShorthand(shorthand), `expect.${kind}`),
        context,
      )
    })
  const fromAssert = caseDef.assert.map(({ kind, weight, not, ...options }, index) => {
    const definition = lookup(kind, `assert[${index}]`)
    const evaluator = definition.create(
      parseOrThrow(definition.options, options, `assert[${index}]`),
      context,
    )
    return withWeight(not === true ? negate(evaluator) : evaluator, weight)
  })
  return [...fromExpect, ...fromAssert, ...compileJudges(caseDef, context)]
}

function lookup(kind: string, path: string) {
  const definition = evaluatorRegistry.get(kind)
  if (definition) return definition
  const suggestion = didYouMean(kind, evaluatorRegistry.keys())
  throw new ConfigError(
    `Unknown evaluator kind "${kind}" at ${path}.${suggestion ? ` Did you mean ${code(suggestion)}?` : ''} Known kinds: ${[...evaluatorRegistry.keys()].join(', ')}.`,
  )
}

function parseOrThrow<T extends z.ZodType>(schema: T, value: unknown, path: string): z.output<T> {
  const result = schema.safeParse(value)
  if (result.success) return result.data
  throw new ConfigError(`Invalid options at ${path}:\n${z.prettifyError(result.error)}`)
}

function negate(evaluator: Evaluator): Evaluator {
  return {
    name: `not ${evaluator.name}`,
    ...(evaluator.usesModel === undefined ? {} : { usesModel: evaluator.usesModel }),
    evaluate: async (transcript, context) => {
      const verdict: Verdict = await evaluator.evaluate(transcript, context)
      return {
        ...verdict,
        pass: !verdict.pass,
        ...(verdict.score === undefined ? {} : { score: 1 - verdict.score }),
        reason: `${verdict.pass ? 'expected the opposite' : 'negated'}: ${verdict.reason}`,
      }
    },
  }
}

function withWeight(evaluator: Evaluator, weight: number | undefined): Evaluator {
  return weight === undefined ? evaluator : { ...evaluator, weight }
}

export { defineEvaluator } from './definition.ts'
export type { EvaluatorDefinition, EvaluatorFactoryContext } from './definition.ts'
export type { Evaluator, EvaluatorContext, Verdict } from './evaluator.ts'
export { judgeRegistry, judgeSpecs, loadJudgeSpecFile, defineJudgeSpec, specHash } from './judges/index.ts'
export type { JudgeSpec, JudgeSpecInput } from './judges/index.ts'
export { JudgeError } from './llm-judge-call.ts'
export type { JudgeOptions } from './llm-judge.ts'
export type { JudgeItem, JudgeSettings } from './llm-judge-options.ts'
export type { CustomCheck } from './custom.ts'
export type { ArgsMode, OrderMode } from './trajectory.ts'
