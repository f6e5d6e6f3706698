import { expect, test } from 'vitest'
import { loadSuite } from '../../src/cases/load.ts'
import { CaseFileError } from '../../src/errors.ts'
import { scratchFile } from './helpers.ts'

// over 1 MiB, so the loader parses each case from its own slice of the text
const COUNT = 12_000

function casesText(edit: (cases: string[]) => void = () => undefined): string {
  const cases = Array.from({ length: COUNT }, (_, i) =>
    JSON.stringify({
      id: `case-${i}`,
      input: `hello ${i}`,
      expect: { contains: `HELLO ${i}`, min_length: 3 },
    }),
  )
  edit(cases)
  return `{\n  "suite": "big",\n  "target": { "command": "cat" },\n  "cases": [\n    ${cases.join(',\n    ')}\n  ],\n  "trials": 2\n}\n`
}

async function caseFileError(text: string): Promise<CaseFileError> {
  const error: unknown = await loadSuite(scratchFile('big.json', text)).catch((caught: unknown) => caught)
  if (!(error instanceof CaseFileError)) throw new Error(`expected a CaseFileError, got ${String(error)}`)
  return error
}

test('a large JSON file loads every case, with its line and the settings after the case list', async () => {
  const text = casesText()
  expect(text.length).toBeGreaterThan(1 << 20)
  const suite = await loadSuite(scratchFile('big.json', text))
  expect(suite.trials).toBe(2)
  expect(suite.cases).toHaveLength(COUNT)
  const last = suite.cases[COUNT - 1]
  expect(last).toMatchObject({
    id: `case-${COUNT - 1}`,
    input: `hello ${COUNT - 1}`,
    expect: { contains: `HELLO ${COUNT - 1}`, min_length: 3 },
    line: COUNT + 4,
  })
})

test('a repeated id deep in a large file is reported with the line of its first use', async () => {
  const error = await caseFileError(casesText((cases) => (cases[9000] = cases[7] ?? '')))
  expect(error.issues).toHaveLength(1)
  expect(error.issues[0]).toMatchObject({ path: 'cases[9000].id', line: 9005 })
  expect(error.issues[0]?.message).toContain('duplicate case id `case-7` (first defined at line 12)')
})

test('a syntax error inside a case is the one a whole-file parse gives, at its place in the file', async () => {
  const text = casesText((cases) => (cases[6000] = '{"id": "case-6000", "input": "x" "expect": {}}'))
  let expected = ''
  try {
    JSON.parse(text)
  } catch (error) {
    expected = (error as Error).message
  }
  const error = await caseFileError(text)
  expect(error.issues).toHaveLength(1)
  expect(error.issues[0]).toMatchObject({ message: expected, line: 6005 })
  const line = text.split('\n')[6004] ?? ''
  expect(error.issues[0]?.column).toBe(line.indexOf('"expect"') + 1)
})
