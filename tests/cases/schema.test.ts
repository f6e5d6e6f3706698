import { readFile } from 'node:fs/promises'
import { expect, test } from 'vitest'
import { caseFileJsonSchema } from '../../src/cases/schema.ts'

test('the committed schema/cases.schema.json matches the zod schema (run `npm run schema:build`)', async () => {
  const committed: unknown = JSON.parse(
    await readFile(new URL('../../schema/cases.schema.json', import.meta.url), 'utf8'),
  )
  expect(committed).toEqual(caseFileJsonSchema())
})

test('the JSON Schema offers every evaluator kind under `expect` for editor completion', () => {
  const schema = caseFileJsonSchema() as {
    $defs: { Expectations: { properties: Record<string, unknown>; additionalProperties: boolean } }
  }
  expect(Object.keys(schema.$defs.Expectations.properties)).toContain('tool_args')
  expect(schema.$defs.Expectations.additionalProperties).toBe(false)
})
