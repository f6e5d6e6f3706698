import fc from 'fast-check'
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { expect, test } from 'vitest'
import { formatJson, writeJsonFile } from '../../src/util/json-file.ts'

test('reads back as the same JSON as JSON.stringify gives, for any value', () => {
  fc.assert(
    fc.property(fc.jsonValue(), (value) => {
      expect(JSON.parse(formatJson(value))).toEqual(JSON.parse(JSON.stringify(value)))
    }),
  )
})

test('is JSON.stringify(value, null, 2) where no list holds only flat items', () => {
  const value = {
    run: { id: 'r', suites: [{ name: 's', meta: { git: { commit: 'c' } } }] },
    empty: [],
    none: {},
  }
  expect(formatJson(value)).toBe(`${JSON.stringify(value, null, 2)}\n`)
})

test('puts each flat item of a list on its own compact line', () => {
  const value = {
    cases: [
      { id: 'a', tags: ['x'], passRate: 1, gone: undefined },
      { id: 'b', tags: [], passRate: null },
    ],
    pairs: [
      ['s', 'a', 0],
      ['s', 'b', 0],
    ],
  }
  expect(formatJson(value)).toBe(
    [
      '{',
      '  "cases": [',
      '    {"id":"a","tags":["x"],"passRate":1},',
      '    {"id":"b","tags":[],"passRate":null}',
      '  ],',
      '  "pairs": [',
      '    ["s","a",0],',
      '    ["s","b",0]',
      '  ]',
      '}',
      '',
    ].join('\n'),
  )
})

test('writes through a temporary file, in pieces, and leaves nothing else behind', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'evals-json-file-'))
  const value = {
    cases: Array.from({ length: 30_000 }, (_, i) => ({ id: `case-${i}`, text: 'x'.repeat(40) })),
  }
  await writeJsonFile(join(dir, 'summary.json'), value)
  expect(readdirSync(dir)).toEqual(['summary.json'])
  expect(readFileSync(join(dir, 'summary.json'), 'utf8')).toBe(formatJson(value))
})

test('a write that fails halfway rejects and leaves no file, temporary or not', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'evals-json-file-'))
  // a megabyte is written before the bigint, which JSON cannot hold
  const value = { text: 'x'.repeat(2_000_000), count: 10n }
  await expect(writeJsonFile(join(dir, 'summary.json'), value)).rejects.toThrow(/BigInt/)
  expect(readdirSync(dir)).toEqual([])
})

test('writes any other iterable as a list, each flat item on its own line, reading it once', () => {
  let reads = 0
  function* items(): Generator {
    reads++
    yield { id: 'a', tags: ['x'] }
    yield { id: 'b', nested: { deep: true } }
    yield undefined
  }
  const value = { cases: items(), none: new Set(), names: new Set(['x']) }
  expect(formatJson(value)).toBe(
    [
      '{',
      '  "cases": [',
      '    {"id":"a","tags":["x"]},',
      '    {',
      '      "id": "b",',
      '      "nested": {',
      '        "deep": true',
      '      }',
      '    },',
      '    null',
      '  ],',
      '  "none": [],',
      '  "names": [',
      '    "x"',
      '  ]',
      '}',
      '',
    ].join('\n'),
  )
  expect(reads).toBe(1)
})
