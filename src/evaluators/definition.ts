import type { z } from 'zod'
import type { Evaluator } from './evaluator.ts'

/** The zod namespace, as handed to a definition's `schemas`. */
export type Zod = typeof z

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
  /** the long-form options: an `assert:` item without `kind`, `weight` and `not`; built on first read, see `provideZod` */
  readonly options: Options
  /** the value accepted under `expect:`; built on first read, see `provideZod` */
  readonly shorthand: Shorthand
  /**
   * a quick check of common shorthand values, without zod: true only when `shorthand` accepts `value` and returns
   * it unchanged, and `fromShorthand(value)` is complete options that `options` returns unchanged; false leaves
   * the value to the schemas
   */
  accepts?(value: unknown): boolean
  /** turns a validated shorthand value into long-form options */
  fromShorthand(value: z.output<Shorthand>): z.input<Options>
  create(options: z.output<Options>, context: EvaluatorFactoryContext): Evaluator
}

/** What a check's module writes: its schemas come from a function of the zod namespace. */
export type EvaluatorSpec<Options extends z.ZodObject, Shorthand extends z.ZodType> = Omit<
  EvaluatorDefinition<Options, Shorthand>,
  'options' | 'shorthand'
> & {
  schemas(z: Zod): { options: Options; shorthand: Shorthand }
}

/** What a factory may use besides its options. */
export interface EvaluatorFactoryContext {
  /** directory of the case file; relative module paths (`custom: ./checks.ts#name`) resolve against it */
  baseDir: string
}

let zod: Zod | undefined

/**
 * Hands definitions the zod namespace to build their schemas with. The modules that validate with zod call it as
 * they load; nothing else imports zod, so a run whose values all pass `accepts` never loads it.
 */
export function provideZod(namespace: Zod): void {
  zod ??= namespace
}

/** Infers a definition's option and shorthand types, and builds its schemas on first read. */
export function defineEvaluator<Options extends z.ZodObject, Shorthand extends z.ZodType>(
  spec: EvaluatorSpec<Options, Shorthand>,
): EvaluatorDefinition<Options, Shorthand> {
  let built: { options: Options; shorthand: Shorthand } | undefined
  const schemasOf = () => {
    if (!zod) throw new Error(`the schemas of \`${spec.kind}\` were read before zod was provided`)
    return (built ??= spec.schemas(zod))
  }
  return {
    ...spec,
    get options() {
      return schemasOf().options
    },
    get shorthand() {
      return schemasOf().shorthand
    },
  }
}

/** A zod `error` option that words a wrong value but leaves a missing one to the case-file wording ("missing"). */
export function expected(message: string): (issue: { input?: unknown }) => string | undefined {
  return (issue) => (issue.input === undefined ? undefined : `expected ${message}`)
}

/** `accepts` for a non-empty string. */
export function isNonEmptyString(value: unknown): boolean {
  return typeof value === 'string' && value.length > 0
}

/** `accepts` for `z.number().nonnegative()`: zod numbers are finite. */
export function isNonNegativeNumber(value: unknown): boolean {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0
}

/** `accepts` for `z.int().nonnegative()`: zod ints are safe integers. */
export function isNonNegativeInt(value: unknown): boolean {
  return Number.isSafeInteger(value) && (value as number) >= 0
}
