import type { CaseDefinition } from './case-definition.ts'
import type { EvaluatorDefinition, EvaluatorFactoryContext } from '../evaluators/definition.ts'
import type { Evaluator, Verdict } from '../evaluators/evaluator.ts'
import type { JudgeOptions } from '../evaluators/llm-judge-options.ts'
import type { compileJudges } from './compile-judges.ts'
import { accepts, evaluatorRegistry, unknownKind } from '../evaluators/registry.ts'
import type { parseOptions, parseShorthand } from '../evaluators/schemas.ts'

/** The part of a case its checks are compiled from. */
export type CompilableCase = Pick<CaseDefinition, 'expect' | 'assert'> &
  Partial<Pick<CaseDefinition, 'id' | 'vars' | 'judge'>>

export type CompileContext = EvaluatorFactoryContext & { judge?: JudgeOptions }

/**
 * Turns a case's `expect:` shorthand, `assert:` list and `judge:` list into evaluators, in that order; throws a
 * ConfigError for a check that cannot be built.
 */
export type EvaluatorCompiler = (caseDef: CompilableCase, context: CompileContext) => Evaluator[]

/** What compiling needs beyond the registry, each part loaded only when some case needs it. */
export interface CompileSupport {
  /** zod validation, for `assert:` items and for `expect:` values that `accepts` does not vouch for */
  schemas?: { parseShorthand: typeof parseShorthand; parseOptions: typeof parseOptions }
  /** the LLM judge, for `judge:` items */
  compileJudges?: typeof compileJudges
}

/** What compiling some cases needs loaded. */
export interface CompilerNeeds {
  /** zod, for `assert:` items and `expect:` values that `accepts` does not vouch for */
  schemas: boolean
  /** the LLM judge, for `judge:` items */
  judges: boolean
}

/** What compiling these cases needs. */
export function needsOf(cases: Iterable<CompilableCase>): CompilerNeeds {
  const needs = { schemas: false, judges: false }
  for (const caseDef of cases) {
    needs.schemas ||= needsSchemas(caseDef)
    needs.judges ||= (caseDef.judge?.length ?? 0) > 0
    if (needs.schemas && needs.judges) break
  }
  return needs
}

/**
 * A compiler with zod loaded only when some value needs validating beyond `accepts`, and the LLM judge (with the
 * engine and the providers it calls) only when some case has `judge:` items.
 */
export async function loadEvaluatorCompiler(needs: CompilerNeeds): Promise<EvaluatorCompiler> {
  return evaluatorCompiler({
    ...(needs.schemas && { schemas: await import('../evaluators/schemas.ts') }),
    ...(needs.judges && { compileJudges: (await import('./compile-judges.ts')).compileJudges }),
  })
}

/** A compiler with the given support; it throws an Error when a case needs support it was not given. */
export function evaluatorCompiler(support: CompileSupport): EvaluatorCompiler {
  const shared = new SharedEvaluators()
  const schemas = () => support.schemas ?? unsupported('zod validation')
  return (caseDef, context) => {
    const evaluators: Evaluator[] = []
    const { expect } = caseDef
    for (const kind of Object.keys(expect)) {
      const value = expect[kind]
      if (value === undefined) continue
      const definition = evaluatorRegistry.get(kind) ?? unknownKind(kind, `expect.${kind}`)
      evaluators.push(
        shared.quick(definition, value, context) ??
          definition.create(schemas().parseShorthand(definition, value, `expect.${kind}`), context),
      )
    }
    caseDef.assert.forEach(({ kind, weight, not, ...options }, index) => {
      const path = `assert[${index}]`
      const definition = evaluatorRegistry.get(kind) ?? unknownKind(kind, path)
      const evaluator = definition.create(schemas().parseOptions(definition, options, path), context)
      evaluators.push(withWeight(not === true ? negate(evaluator) : evaluator, weight))
    })
    if (caseDef.judge?.length) {
      evaluators.push(...(support.compileJudges ?? unsupported('the LLM judge'))(caseDef, context))
    }
    return evaluators
  }
}

/** Whether compiling a case's checks needs the zod schemas: `assert:` items, or `expect:` values `accepts` does not vouch for. */
export function needsSchemas(
  caseDef: Pick<CaseDefinition, 'expect' | 'assert'> & Partial<Pick<CaseDefinition, 'turns'>>,
): boolean {
  return (
    caseDef.assert.length > 0 ||
    !allAccepted(caseDef.expect) ||
    (caseDef.turns?.some((turn) => !allAccepted(turn.expect)) ?? false)
  )
}

function allAccepted(expect: CaseDefinition['expect']): boolean {
  for (const kind of Object.keys(expect)) {
    const value = expect[kind]
    if (value !== undefined && !accepts(kind, value)) return false
  }
  return true
}

function unsupported(what: string): never {
  throw new Error(`the evaluator compiler was made without ${what}: load it with loadEvaluatorCompiler`)
}

/**
 * The evaluator each check compiled last, reused while the next cases repeat its value: thousands of cases
 * usually share a few (the defaults', one `custom:` ref, one pattern), so a regex compiles and a `custom:` ref
 * resolves once per run of cases that repeat it. Built-in evaluators keep no state, so sharing one is safe.
 */
class SharedEvaluators {
  private readonly last = new Map<
    EvaluatorDefinition,
    { value: unknown; baseDir: string; evaluator: Evaluator }
  >()

  /** the evaluator of an `expect:` value the definition `accepts`; undefined for a value it does not */
  quick(
    definition: EvaluatorDefinition,
    value: unknown,
    context: EvaluatorFactoryContext,
  ): Evaluator | undefined {
    const last = this.last.get(definition)
    if (last && last.value === value && last.baseDir === context.baseDir) return last.evaluator
    if (!accepts(definition.kind, value)) return undefined
    const evaluator = definition.create(definition.fromShorthand(value), context)
    this.last.set(definition, { value, baseDir: context.baseDir, evaluator })
    return evaluator
  }
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
