import { z } from 'zod'

/** The `expect:` shorthand map: evaluator kind → shorthand value. */
export const expectationsSchema = z.record(z.string(), z.unknown())

/** One `assert:` item: `{ kind, …options, weight?, not? }`. */
export const assertionSchema = z.looseObject({
  kind: z.string(),
  weight: z.number().nonnegative().optional(),
  not: z.boolean().optional(),
})

export type Expectations = z.output<typeof expectationsSchema>
export type Assertion = z.output<typeof assertionSchema>

/** The case-file format (DESIGN.md §3), the single source of truth for validation and the published JSON Schema. */
export const caseFileSchema = z.strictObject({})

export type CaseFile = z.output<typeof caseFileSchema>

/** The JSON Schema of case files, as shipped in `schema/cases.schema.json`. */
export function caseFileJsonSchema(): Record<string, unknown> {
  return z.toJSONSchema(caseFileSchema, { io: 'input' })
}
