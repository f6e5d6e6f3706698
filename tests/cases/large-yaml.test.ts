import fc from 'fast-check'
import { dump } from 'js-yaml'
import { closeSync, mkdtempSync, openSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { isDeepStrictEqual } from 'node:util'
import { afterAll, describe, expect, test } from 'vitest'
import { stringify } from 'yaml'
import { largeYamlSource } from '../../src/cases/large-files/large-yaml-source.ts'
import { SourceSyntaxError } from '../../src/cases/large-files/large-source.ts'
import { loadSuite } from '../../src/cases/load.ts'
import { parseSource } from '../../src/cases/source-map.ts'
import { parseYamlSource } from '../../src/cases/yaml-source.ts'
import { CaseFileError } from '../../src/errors.ts'

// the files of this test run to 9 MiB each: they are removed when it ends
const scratchDir = mkdtempSync(join(tmpdir(), 'evals-large-yaml-'))
afterAll(() => {
  rmSync(scratchDir, { recursive: true, force: true })
})

function scratchFile(name: string, text: string): string {
  const file = join(scratchDir, name)
  writeFileSync(file, text)
  return file
}

/** What reading `text` in parts gives: the data with every entry read, the line of each, or undefined (read whole). */
function readInParts(text: string): { data: unknown; lines: number[] } | SourceSyntaxError | undefined {
  const file = scratchFile('parts.yaml', text)
  const fd = openSync(file, 'r')
  try {
    const read = largeYamlSource(file, fd, statSync(file))
    if (read === undefined || Buffer.isBuffer(read)) return undefined
    const { source } = read
    const data = source.data as { cases: unknown[] }
    const lines: number[] = []
    for (let index = 0; index < data.cases.length; index++) {
      data.cases[index] = source.caseEntry?.(index)
      lines.push(source.line(['cases', index]))
    }
    return { data, lines }
  } catch (error) {
    if (error instanceof SourceSyntaxError) return error
    throw error
  } finally {
    closeSync(fd)
  }
}

/** Read in parts and read whole agree: the same value and case lines, or the same first error. True when split. */
function expectSameReading(text: string): boolean {
  const whole = parseSource(text)
  const parts = readInParts(text)
  if (parts === undefined) return false
  if (parts instanceof SourceSyntaxError) {
    expect(whole.errors[0], text).toMatchObject({
      message: parts.message,
      line: parts.line,
      column: parts.column,
    })
    return true
  }
  expect(whole.errors, text).toEqual([])
  expect(isDeepStrictEqual(parts.data, whole.data), text).toBe(true)
  // lines as a small file gets them
  const small = parseYamlSource(text)
  expect(parts.lines, text).toEqual(parts.lines.map((_, index) => small.line(['cases', index])))
  return true
}

const scalar = fc.oneof(
  fc.string(),
  fc.constantFrom('yes', '~', '0x1F', '.inf', '- x', '#c', 'a: b', 'line\nbreak', 'cases:', '---'),
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
)
const { value } = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    scalar,
    fc.array(tie('value'), { maxLength: 3 }),
    fc.dictionary(fc.string({ minLength: 1 }), tie('value'), { maxKeys: 3 }),
  ),
}))
const caseFile = fc.record({
  before: fc.dictionary(fc.constantFrom('suite', 'target', 'defaults'), value, { maxKeys: 2 }),
  cases: fc.array(value, { minLength: 1, maxLength: 6 }),
  after: fc.dictionary(fc.constantFrom('trials', 'variants', 'judge'), value, { maxKeys: 2 }),
})
const runs = 300

describe('a YAML case file read in parts reads as it does whole', () => {
  test('files dumped by `yaml` in block styles', () => {
    let split = 0
    fc.assert(
      fc.property(
        caseFile,
        fc.constantFrom('PLAIN', 'QUOTE_DOUBLE', 'QUOTE_SINGLE', 'BLOCK_LITERAL', 'BLOCK_FOLDED'),
        fc.constantFrom(2, 4),
        fc.boolean(),
        ({ before, cases, after }, defaultStringType, indent, indentSeq) => {
          const text = stringify(
            { ...before, cases, ...after },
            {
              collectionStyle: 'block',
              defaultKeyType: 'PLAIN',
              defaultStringType,
              indent,
              indentSeq,
              lineWidth: 20,
            },
          )
          if (expectSameReading(text)) split++
        },
      ),
      { numRuns: runs },
    )
    expect(split).toBeGreaterThan(runs / 2)
  })

  test('files dumped by js-yaml, with comments between the entries', () => {
    let split = 0
    fc.assert(
      fc.property(caseFile, fc.boolean(), fc.boolean(), ({ before, cases, after }, seqNoIndent, comments) => {
        let text = dump({ ...before, cases, ...after }, { seqNoIndent, lineWidth: 20 })
        if (comments) text = text.replace(/^( *)- /gm, '$1# an entry\n\n$1- ')
        if (expectSameReading(text)) split++
      }),
      { numRuns: runs },
    )
    expect(split).toBeGreaterThan(runs / 2)
  })

  // split: whether the file is read in parts; false only where the header does not parse without the list
  test.each([
    ['entries on column 0, keys after', 'suite: s\ncases:\n- id: a\n  input: x\n- id: b\ntrials: 2\n', true],
    ['a leading document marker', '---\nsuite: s\ncases:\n  - id: a\n  - id: b\n', true],
    ['CRLF line ends', 'suite: s\r\ncases:\r\n  - id: a\r\n    input: x\r\n  - id: b\r\n', true],
    ['an entry whose mapping starts on the next line', 'cases:\n  -\n    id: a\n  - id: b\n', true],
    [
      'a block scalar with dashes inside',
      'cases:\n  - input: |\n      - not an entry\n      # nor a comment\n  - id: b\n',
      true,
    ],
    [
      'an alias to an anchor in the header',
      'defaults: &d {x: 1}\ncases:\n  - id: a\n    vars: *d\n  - id: b\n',
      true,
    ],
    ['a tag in an entry', 'cases:\n  - id: !!str 3\n  - id: b\n', true],
    ['a syntax error in an entry', 'suite: s\ncases:\n  - id: a\n  - id: [b\n  - id: c\n', true],
    ['a syntax error after the list', 'cases:\n  - id: a\ntrials: [2\n', false],
    ['a quoted string running over an entry line', 'cases:\n  - input: "a\n  - b"\n  - id: c\n', true],
    ['entries of a scalar and a list', 'cases:\n  - ./rows.csv\n  - [1, 2]\n', true],
  ])('%s', (_, text, split) => {
    expect(expectSameReading(text)).toBe(split)
  })

  test.each([
    ['a flow list', 'cases: [{id: a}, {id: b}]\n'],
    ['no cases', 'suite: s\n'],
    ['an empty cases key', 'cases:\nsuite: s\n'],
    ['a cases key twice', 'cases:\n  - id: a\ncases:\n  - id: b\n'],
    ['two documents', 'cases:\n  - id: a\n---\ncases:\n  - id: b\n'],
    ['tabs in the indentation', 'cases:\n\t- id: a\n'],
    ['a bare list', '- id: a\n- id: b\n'],
    ['a nested cases key', 'suite:\n  cases:\n    - id: a\n'],
  ])('%s is read whole', (_, text) => {
    expect(readInParts(text)).toBeUndefined()
  })

  test('a file that reads shorter than its size is read again, not split', () => {
    const file = scratchFile('shrunk.yaml', 'cases:\n  - id: a\n')
    const fd = openSync(file, 'r')
    try {
      const { size, mtimeMs } = statSync(file)
      expect(largeYamlSource(file, fd, { size: size + 1, mtimeMs })).toBeUndefined()
    } finally {
      closeSync(fd)
    }
  })
})

// 8 MiB or more, so the loader reads each case from its own lines of the file. The bytes make a file large, not the
// number of cases: 1,500 cases (six of the loader's batches of 256) with long descriptions cost a tenth of the CPU
// of 12,000 shorter ones, and the split, the lines and the templating are the same
const COUNT = 1_500
const PADDING = 'a description long enough to make the file large. '.repeat(120)

/** `head`: lines before `cases:`, after the suite's name and target */
function largeYaml(edit: (cases: string[]) => void = () => undefined, head = ''): string {
  const cases = Array.from(
    { length: COUNT },
    (_, i) =>
      `  - id: case-${i}\n    description: '${PADDING}'\n    input: "hello {{n}}"\n    vars:\n      n: ${i}\n    expect:\n      contains: HELLO ${i}\n`,
  )
  edit(cases)
  return `suite: big\ntarget:\n  command: cat\n${head}cases:\n${cases.join('')}trials: 2\n`
}

// the three tests below each parse a file of 9 MiB: seconds of CPU, more on a loaded 2-core machine
test('a large YAML file loads every case, templated, with its line and the settings after the list', async () => {
  const text = largeYaml()
  expect(text.length).toBeGreaterThan(8 << 20)
  const suite = await loadSuite(scratchFile('big.yaml', text))
  expect(suite.trials).toBe(2)
  expect(suite.cases).toHaveLength(COUNT)
  const last = COUNT - 1
  expect(suite.cases.get(last)).toMatchObject({
    id: `case-${last}`,
    input: `hello ${last}`,
    expect: { contains: `HELLO ${last}` },
    line: 5 + 7 * last,
  })
  // read again from the file when asked for: equal definitions, not the same objects
  expect(suite.cases.get(7)).toEqual(suite.cases.get(7))
  expect(suite.cases.get(7)).not.toBe(suite.cases.get(7))
}, 60_000)

/** the entry with the syntax error: in the file's last batch of 256 */
const BROKEN = 1_400

test('an issue deep in a large YAML file is reported at its line and column, from a whole-file parse', async () => {
  const text = largeYaml((cases) => {
    cases[BROKEN] = `  - id: case-${BROKEN}\n    input: x\n    expect:\n      contains: [1, 2\n`
  })
  const error: unknown = await loadSuite(scratchFile('broken.yaml', text)).catch((caught: unknown) => caught)
  expect(error).toBeInstanceOf(CaseFileError)
  const issues = (error as CaseFileError).issues
  expect(issues).toHaveLength(1)
  // the broken entry's `- id:` is line 9805 and its unclosed list line 9808: `yaml` places the error within the
  // entry or just after it
  expect(issues[0]?.line).toBeGreaterThanOrEqual(5 + 7 * BROKEN)
  expect(issues[0]?.line).toBeLessThanOrEqual(5 + 7 * BROKEN + 5)
  expect(issues[0]?.column).toBeGreaterThan(0)
}, 60_000)

test('a large YAML file whose `cases:` also names a dataset loads as it does read whole', async () => {
  scratchFile('rows.csv', 'id,input,expected\nrow-1,from a row,FROM\nrow-2,another row,ANOTHER\n')
  const text = largeYaml(
    (cases) => cases.splice(1, 0, '  - ./rows.csv\n'),
    "defaults: { expect: { contains: '{{expected}}' } }\n",
  )
  // the split reads the dataset entry, which the loader cannot rebuild by index, so it parses the file whole
  expect(readInParts(text)).toHaveProperty(['data', 'cases', 1], './rows.csv')
  const suite = await loadSuite(scratchFile('with-rows.yaml', text))
  // a document end marker makes the split refuse a file: the same values and lines, read whole from the start
  const wholeText = `${text}...\n`
  expect(readInParts(wholeText)).toBeUndefined()
  const whole = await loadSuite(scratchFile('with-rows-whole.yaml', wholeText))
  expect(suite.cases).toHaveLength(COUNT + 2)
  expect(suite.cases.get(1)).toMatchObject({ id: 'row-1', input: 'from a row', line: 13 })
  expect([...suite.cases]).toEqual([...whole.cases])
  expect(suite.datasetsHash).toBe(whole.datasetsHash)
}, 60_000)
