import { createHash } from 'node:crypto'
import { closeSync, openSync } from 'node:fs'
import fc from 'fast-check'
import { expect, test } from 'vitest'
import { scanJsonCases } from '../../src/cases/large-files/json-case-scan.ts'
import { scratchFile } from './helpers.ts'

function scan(text: string, chunkBytes: number) {
  const fd = openSync(scratchFile('scan.json', text), 'r')
  try {
    return scanJsonCases(fd, chunkBytes)
  } finally {
    closeSync(fd)
  }
}

const space = fc.constantFrom('', ' ', '\n', '  \n\t', '\r\n')
/** JSON text of a value, compact or indented, with keys that may look like `cases` deeper down */
const jsonText = (value: unknown, indent: number) => JSON.stringify(value, null, indent)

test('every item of `cases` is found at its bytes and line, and the rest parses as the header', () => {
  fc.assert(
    fc.property(
      fc.array(fc.jsonValue(), { maxLength: 12 }),
      fc.dictionary(
        fc.string().filter((key) => key !== 'cases' && key !== '__proto__'),
        fc.jsonValue(),
        { maxKeys: 3 },
      ),
      fc.nat(3),
      space,
      space,
      fc.integer({ min: 1, max: 64 }),
      (items, rest, indent, before, between, chunkBytes) => {
        const body = items.map((item) => jsonText(item, indent)).join(`,${between}`)
        const restText = Object.entries(rest).map(
          ([k, v]) => `,${between}${JSON.stringify(k)}: ${jsonText(v, indent)}`,
        )
        const text = `${before}{${between}"cases":${before}[${between}${body}${between}]${restText.join('')}${before}}${before}`
        const result = scan(text, chunkBytes)
        expect(result).toBeDefined()
        if (!result) return
        const bytes = Buffer.from(text)
        const found = Array.from(
          result.lines,
          (_, index) =>
            JSON.parse(
              bytes.toString('utf8', result.ranges[2 * index], result.ranges[2 * index + 1]),
            ) as unknown,
        )
        expect(found).toEqual(JSON.parse(JSON.stringify(items)))
        Array.from(result.lines).forEach((line, index) => {
          const start = result.ranges[2 * index] ?? 0
          expect(line).toBe(bytes.subarray(0, start).toString('utf8').split('\n').length)
        })
        expect(result.header).toEqual({ ...(JSON.parse(text) as object), cases: [] })
        expect(result.hash).toBe(createHash('sha256').update(bytes).digest('hex'))
      },
    ),
    { numRuns: 300 },
  )
})

test('multi-byte text, escaped quotes and brackets inside strings do not move the item bounds', () => {
  const items = [{ id: 'café ☕ "quoted" [not] {a list}', input: 'back\\slash\\' }, '🍮 ] , }', 12.5e3, null]
  const text = JSON.stringify({ suite: 's', cases: items, note: '"cases": [1]' }, null, 2)
  for (const chunkBytes of [1, 2, 3, 7, 1 << 20]) {
    const result = scan(text, chunkBytes)
    const bytes = Buffer.from(text)
    const found = Array.from(
      result?.lines ?? [],
      (_, index) =>
        JSON.parse(
          bytes.toString('utf8', result?.ranges[2 * index], result?.ranges[2 * index + 1]),
        ) as unknown,
    )
    expect(found).toEqual(items)
    expect(result?.header).toEqual({ suite: 's', cases: [], note: '"cases": [1]' })
  }
})

test('a file that is not an object with one `cases` list, or is broken around the items, is left to the whole-file parse', () => {
  const broken = [
    '[{"id": "a"}]',
    '{"suite": "s"}',
    '{"cases": {"a": 1}}',
    '{"cases": [1], "cases": [2]}',
    '{"cases": [{"id": "a"} {"id": "b"}]}',
    '{"cases": [{"id": "a"},]}',
    '{"cases": [,{"id": "a"}]}',
    '{"cases": [{"id": "a"}]',
    '{"cases": [{"id": "a"}]} trailing',
    '{"cases": [{"id": "a"}], "suite": }',
    '{"cases": [{"id": "a"',
  ]
  for (const text of broken)
    for (const chunkBytes of [1, 5, 1 << 20]) expect(scan(text, chunkBytes)).toBeUndefined()
})

test('an empty list and a list of bare words are read as they are', () => {
  expect(scan('{"cases": [ ], "suite": "s"}', 3)).toMatchObject({
    header: { cases: [], suite: 's' },
    lines: new Uint32Array(0),
  })
  const result = scan('{"cases": [1,true , null\n,"x"]}', 2)
  expect(Array.from(result?.ranges ?? [])).toEqual([11, 12, 13, 17, 20, 24, 26, 29])
  expect(Array.from(result?.lines ?? [])).toEqual([1, 1, 1, 2])
})
