import { evaluatorCompiler, type CompilableCase, type CompileContext } from './compile.ts'
import type { Evaluator } from './evaluator.ts'
import { compileJudges } from './llm-judge-compile.ts'

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

export { evaluatorDefinitions, evaluatorRegistry } from './registry.ts'
export { loadEvaluatorCompiler } from './compile.ts'
export type { CompilableCase, CompileContext, EvaluatorCompiler } from './compile.ts'
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
