import type { Evaluator } from '../evaluators/evaluator.ts'
import { evaluatorCompiler, type CompilableCase, type CompileContext } from './compile-checks.ts'
import { compileJudges } from './compile-judges.ts'

const compileAll = evaluatorCompiler({ compileJudges })

/**
 * Turns a case's `expect:` shorthand, `assert:` list and `judge:` list into evaluators, in that order. `not: true`
 * negates a check and `weight` sets its share of the case score. Options are validated again here, so hand-built
 * cases fail with a ConfigError rather than at run time. Without `judge.model` (or `judge.provider`), judges
 * return skipped verdicts. It loads the LLM judge up front; `loadEvaluatorCompiler` loads it only when the cases
 * need it.
 */
export function compileEvaluators(caseDef: CompilableCase, context: CompileContext): Evaluator[] {
  return compileAll(caseDef, context)
}

export type { CompilableCase, CompileContext } from './compile-checks.ts'
