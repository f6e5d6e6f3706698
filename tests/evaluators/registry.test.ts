import { expect, test } from 'vitest'
import { caseFileJsonSchema } from '../../src/cases/schema.ts'
import { evaluatorDefinitions } from '../../src/evaluators/registry.ts'

interface Branch {
  description: string
  properties: { kind: { const: string } } & Record<string, unknown>
}

const schema = caseFileJsonSchema() as {
  $defs: {
    Expectations: { properties: Record<string, { description: string }> }
    Assertion: { oneOf: Branch[] }
  }
}

test('the case-file JSON Schema offers each registered check under `expect:`, in registry order, with its description', () => {
  const { properties } = schema.$defs.Expectations
  expect(Object.keys(properties)).toEqual(evaluatorDefinitions.map((definition) => definition.kind))
  for (const definition of evaluatorDefinitions)
    expect(properties[definition.kind]?.description).toBe(definition.description)
})

test('the case-file JSON Schema has an `assert:` kind for each registered check, with its options and `weight` / `not`', () => {
  const branches = schema.$defs.Assertion.oneOf
  expect(branches.map((branch) => branch.properties.kind.const)).toEqual(
    evaluatorDefinitions.map((definition) => definition.kind),
  )
  branches.forEach((branch, index) => {
    const definition = evaluatorDefinitions[index]
    expect(branch.description).toBe(definition?.description)
    expect(Object.keys(branch.properties).sort()).toEqual(
      [...Object.keys(definition?.options.shape ?? {}), 'kind', 'weight', 'not'].sort(),
    )
  })
})
