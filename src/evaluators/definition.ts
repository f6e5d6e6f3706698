import type { z } from 'zod'
import type { Evaluator } from './evaluator.ts'

/**
 * One check as the registry knows it: the schema of its long-form options, how an `expect:` shorthand value
 * becomes those options, and the factory. Adding a check means one definition and one registry line.
 */
export interface EvaluatorDefinition<
  Options extends z.ZodObject = z.ZodObject,
  Shorthand extends z.ZodType = z.ZodType,
> {
  /** the case-file name, used as the `expect:` key and the `assert:` kind, e.g. `tool_args` */
  readonly kind: string
  /** one line for the JSON Schema and editor hovers */
  readonly description: string
  /** the long-form options: an `assert:` item without `kind`, `weight` and `not` */
  readonly options: Options
  /** the value accepted under `expect:` */
  readonly shorthand: Shorthand
  /** turns a validated shorthand value into long-form options */
  fromShorthand(value: z.output<Shorthand>): z.input<Options>
  create(options: z.output<Options>, context: EvaluatorFactoryContext): Evaluator
}

/** What a factory may use besides its options. */
export interface EvaluatorFactoryContext {
  /** directory of the case file; relative module paths (`custom: ./checks.ts#name`) resolve against it */
  baseDir: string
}

/** Returns `definition` as it is: `fromShorthand` and `create` get their parameter types from its schemas. */
export function defineEvaluator<Options extends z.ZodObject, Shorthand extends z.ZodType>(
  definition: EvaluatorDefinition<Options, Shorthand>,
): EvaluatorDefinition<Options, Shorthand> {
  return definition
}

/** A zod `error` option that words a wrong value but leaves a missing one to the case-file wording ("missing"). */
export function expected(message: string): (issue: { input?: unknown }) => string | undefined {
  return (issue) => (issue.input === undefined ? undefined : `expected ${message}`)
}
