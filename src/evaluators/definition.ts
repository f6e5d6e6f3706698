import type { z } from 'zod'
import type { Evaluator } from './evaluator.ts'

/**
 * One family of checks, as the registry knows it: the schema of its long-form options, how an `expect:` shorthand
 * value becomes those options, and the factory. Adding a check means one file exporting one of these and one
 * registry line.
 */
export interface EvaluatorDefinition<Options = unknown> {
  /** the case-file name, used as the `expect:` key and the `assert:` kind, e.g. `tool_args` */
  readonly kind: string
  /** one line for the JSON Schema and editor hovers */
  readonly description: string
  /** the long-form options: the `assert:` item without `kind`, `weight` and `not` */
  readonly options: z.ZodType<Options>
  /** the value accepted under `expect:`; omitted when it is the options object itself */
  readonly shorthand?: z.ZodType
  /** turns a shorthand value into options; omitted when the shorthand is the options object itself */
  fromShorthand?(value: unknown): Options
  create(options: Options, context: EvaluatorFactoryContext): Evaluator
}

/** What a factory may use besides its options. */
export interface EvaluatorFactoryContext {
  /** directory of the case file; relative module paths (`custom: ./checks.ts#name`) resolve against it */
  baseDir: string
}
