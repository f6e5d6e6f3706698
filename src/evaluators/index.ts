import { InternalError } from '../errors.ts'
import type { CaseDefinition } from '../cases/suite.ts'
import type { Evaluator } from './evaluator.ts'
import type { EvaluatorFactoryContext } from './definition.ts'

/**
 * Turns a case's `expect:` shorthand and `assert:` list into evaluators, in that order. Options were validated
 * when the case file loaded; `not: true` negates a check and `weight` sets its share of the case score.
 */
export function compileEvaluators(
  caseDef: Pick<CaseDefinition, 'expect' | 'assert'>,
  context: EvaluatorFactoryContext,
): Evaluator[] {
  throw new InternalError(
    `compileEvaluators is not implemented yet (${Object.keys(caseDef).join()}, ${context.baseDir})`,
  )
}
