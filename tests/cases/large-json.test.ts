import { writeFileSync } from 'node:fs'
import { expect, test } from 'vitest'
import { loadSuite } from '../../src/cases/load.ts'
import { CaseFileError } from '../../src/errors.ts'
import { scratchFile } from './helpers.ts'

// over 8 MiB (long descriptions), so the loader parses each case from its own slice of the text
const COUNT = 12_000
const PADDING = 'a description long enough to make the file large. '.repeat(14)

function casesText(edit: (cases: string[]) => void = () => undefined): string {
  const cases = Array.from({ length: COUNT }, (_, i) =>
    JSON.stringify({
      id: `case-${i}`,
      description: PADDING,
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
  expect(text.length).toBeGreaterThan(8 << 20)
  const suite = await loadSuite(scratchFile('big.json', text))
  expect(suite.trials).toBe(2)
  expect(suite.cases).toHaveLength(COUNT)
  const last = suite.cases.get(COUNT - 1)
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

test('a large file keeps no case definitions: each is read again from the file, multi-byte text included', async () => {
  const text = casesText((cases) => {
    cases[5] = JSON.stringify({ id: 'café-☕', input: 'crème brûlée 🍮', expect: { contains: 'brûlée' } })
  })
  const file = scratchFile('unicode.json', text)
  const suite = await loadSuite(file)
  const all = [...suite.cases]
  expect(all[5]).toMatchObject({ id: 'café-☕', input: 'crème brûlée 🍮', expect: { contains: 'brûlée' } })
  expect(all[COUNT - 1]).toMatchObject({ id: `case-${COUNT - 1}`, input: `hello ${COUNT - 1}` })
  // read twice, built twice: equal definitions, not the same objects
  expect(suite.cases.get(7)).toEqual(all[7])
  expect(suite.cases.get(7)).not.toBe(all[7])
})

test('a large file edited after it was loaded stops the reading of its cases with a clear error', async () => {
  const file = scratchFile('edited.json', casesText())
  const suite = await loadSuite(file)
  writeFileSync(
    file,
    casesText((cases) => cases.reverse()),
  )
  expect(() => suite.cases.get(0)).toThrow(
    `${file} changed after it was loaded; run again to use the new cases.`,
  )
})
