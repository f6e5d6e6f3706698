import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { describe, expect, test } from 'vitest'
import { loadSuite } from '../../src/cases/load.ts'
import type { Suite } from '../../src/cases/suite.ts'
import { CaseFileError } from '../../src/errors.ts'

/** A folder holding the given files; returns the path of `cases.yaml` in it. */
function suiteDir(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'evals-datasets-'))
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, name)), { recursive: true })
    writeFileSync(join(dir, name), text)
  }
  return join(dir, 'cases.yaml')
}

function caseFile(cases: string, extra = ''): string {
  return [
    'suite: support',
    'target: { command: cat }',
    "defaults: { expect: { contains: '{{expected}}' } }",
    extra,
    `cases: ${cases}`,
    '',
  ].join('\n')
}

function casesOf(suite: Suite) {
  return [...suite.cases].map(({ id, input, vars, tags, expect, line }) => ({
    id,
    input,
    vars,
    tags,
    expect,
    line,
  }))
}

async function loadErrorOf(file: string): Promise<string> {
  const error: unknown = await loadSuite(file).catch((caught: unknown) => caught)
  if (!(error instanceof CaseFileError)) throw new Error(`expected a CaseFileError, got ${String(error)}`)
  return error.message.replaceAll(`${dirname(file)}/`, '')
}

describe('cases from a CSV file', () => {
  test('reads one case per row: quoted commas, quotes and newlines in fields, a BOM, CRLF lines', async () => {
    const csv =
      '\uFEFFid,input,expected,tags\r\n' +
      'greet,"Hello, there",hello,smoke;fast\r\n' +
      'quote,"Say ""hi""\r\ntwice",hi,\r\n'
    const suite = await loadSuite(suiteDir({ 'cases.yaml': caseFile('./support.csv'), 'support.csv': csv }))
    expect(casesOf(suite)).toEqual([
      {
        id: 'greet',
        input: 'Hello, there',
        vars: { expected: 'hello' },
        tags: ['smoke', 'fast'],
        expect: { contains: 'hello' },
        line: 5,
      },
      {
        id: 'quote',
        input: 'Say "hi"\r\ntwice',
        vars: { expected: 'hi' },
        tags: [],
        expect: { contains: 'hi' },
        line: 5,
      },
    ])
  })

  test('maps columns: input, id and tags from named columns, vars renamed, the rest into vars by name', async () => {
    const file = suiteDir({
      'cases.yaml': caseFile(
        './tickets.csv',
        'columns: { input: question, id: ticket, tags: labels, expected: answer }',
      ),
      'tickets.csv':
        'ticket,question,answer,labels,customer\nT-1,Where is my order?,shipped,billing; vip ,Ada\n',
    })
    expect(casesOf(await loadSuite(file))).toEqual([
      {
        id: 'T-1',
        input: 'Where is my order?',
        vars: { expected: 'shipped', customer: 'Ada' },
        tags: ['billing', 'vip'],
        expect: { contains: 'shipped' },
        line: 5,
      },
    ])
  })

  test('gives rows without an id column a hash of their content: the same row has the same id anywhere', async () => {
    const csv = 'input,expected\nfirst,one\nsecond,two\n'
    const ids = async (text: string) =>
      [...(await loadSuite(suiteDir({ 'cases.yaml': caseFile('./qa.csv'), 'qa.csv': text }))).cases].map(
        (caseDef) => caseDef.id,
      )
    const [first, second] = await ids(csv)
    expect(first).toMatch(/^qa-[0-9a-f]{12}$/)
    expect(second).not.toBe(first)
    // another folder, the rows reordered, CRLF line ends: each row keeps its id
    expect(await ids('input,expected\r\nsecond,two\r\nfirst,one\r\n')).toEqual([second, first])
  })

  test('renders the input with the row vars, and defaults other than expect apply to every row', async () => {
    const file = suiteDir({
      'cases.yaml': caseFile('./qa.csv').replace(
        "defaults: { expect: { contains: '{{expected}}' } }",
        "defaults: { expect: { contains: '{{expected}}' }, tags: [dataset], trials: 2 }",
      ),
      'qa.csv': 'id,input,expected,name\na,Greet {{name}},hi,Ada\n',
    })
    const [caseDef] = (await loadSuite(file)).cases
    expect(caseDef).toMatchObject({ input: 'Greet Ada', tags: ['dataset'], trials: 2 })
  })
})

describe('rows built again when they run', () => {
  test('keeps no row definitions: each is read again from its bytes, multi-byte text and CRLF included', async () => {
    const csv = 'id,input,expected\r\nü,"Grüße, ""du""\r\nzwei",ü\r\nb,x,x\r\n'
    const file = suiteDir({ 'cases.yaml': caseFile('./qa.csv'), 'qa.csv': csv })
    const suite = await loadSuite(file)
    const first = suite.cases.get(0)
    expect(first).toMatchObject({ id: 'ü', input: 'Grüße, "du"\r\nzwei', vars: { expected: 'ü' } })
    expect(suite.cases.get(0)).toEqual(first)
    expect(suite.cases.get(0)).not.toBe(first)
    expect(suite.cases.get(1)).toMatchObject({ id: 'b', input: 'x' })
  })

  test('a dataset edited after loading stops the reading of its rows with a clear error', async () => {
    const file = suiteDir({
      'cases.yaml': caseFile('./qa.jsonl'),
      'qa.jsonl': '{"input": "x", "expected": "x"}\n',
    })
    const suite = await loadSuite(file)
    writeFileSync(join(dirname(file), 'qa.jsonl'), '{"input": "changed", "expected": "x"}\n')
    expect(() => suite.cases.get(0)).toThrow(
      `${join(dirname(file), 'qa.jsonl')} changed after it was loaded; run again to use the new rows.`,
    )
  })
})

describe('cases from a JSONL file', () => {
  test('reads one case per line, keeps the types of vars and skips blank lines', async () => {
    const jsonl =
      '{"id": "a", "input": "2+2?", "expected": "4", "meta": {"level": 1}, "tags": ["math"]}\n\n' +
      '{"id": 7, "input": "3+3?", "expected": "6"}'
    const suite = await loadSuite(suiteDir({ 'cases.yaml': caseFile('./math.jsonl'), 'math.jsonl': jsonl }))
    expect(casesOf(suite)).toEqual([
      {
        id: 'a',
        input: '2+2?',
        vars: { expected: '4', meta: { level: 1 } },
        tags: ['math'],
        expect: { contains: '4' },
        line: 5,
      },
      { id: '7', input: '3+3?', vars: { expected: '6' }, tags: [], expect: { contains: '6' }, line: 5 },
    ])
  })
})

describe('a list of datasets, globs and cases', () => {
  test('keeps the order of the list, expanding a glob to its files in name order', async () => {
    const file = suiteDir({
      'cases.yaml': caseFile(
        '\n  - ./data/*.csv\n  - { id: inline, input: hi, vars: { expected: hi } }\n  - ./more.jsonl',
      ),
      'data/b.csv': 'id,input,expected\nb1,x,x\n',
      'data/a.csv': 'id,input,expected\na1,x,x\na2,y,y\n',
      'more.jsonl': '{"id": "j1", "input": "z", "expected": "z"}\n',
    })
    const suite = await loadSuite(file)
    expect([...suite.cases].map(({ id, line }) => [id, line])).toEqual([
      ['a1', 6],
      ['a2', 6],
      ['b1', 6],
      ['inline', 7],
      ['j1', 8],
    ])
  })

  test('hashes the datasets read, so a resumed run can tell they changed', async () => {
    const files = { 'cases.yaml': caseFile('./qa.csv'), 'qa.csv': 'input,expected\nfirst,one\n' }
    const before = await loadSuite(suiteDir(files))
    const same = await loadSuite(suiteDir(files))
    const changed = await loadSuite(suiteDir({ ...files, 'qa.csv': 'input,expected\nfirst,uno\n' }))
    expect(before.datasetsHash).toMatch(/^[0-9a-f]{64}$/)
    expect(same.datasetsHash).toBe(before.datasetsHash)
    expect(changed.datasetsHash).not.toBe(before.datasetsHash)
    expect(changed.fileHash).toBe(before.fileHash)
  })
})

describe('dataset errors', () => {
  test('a bad CSV row is reported at its file:line with what is wrong and how to fix it', async () => {
    const file = suiteDir({
      'cases.yaml': caseFile('./qa.csv'),
      'qa.csv': 'id,input,expected\na,"two\nlines",x\nb,one,two,three\nc,,x\n',
    })
    expect(await loadErrorOf(file)).toBe(
      [
        'qa.csv:4:1: the row has 4 fields where the header has 3 (id, input, expected); quote a field that holds a comma, and "" a quote inside it',
        'qa.csv:5:1: no `input`: the row has no value in column `input`; name the column that holds it with `columns: { input: <column> }`',
      ].join('\n'),
    )
  })

  test('an unclosed quote is reported at the line its record starts', async () => {
    const file = suiteDir({
      'cases.yaml': caseFile('./qa.csv'),
      'qa.csv': 'id,input,expected\na,x,x\nb,"open,x\n',
    })
    expect(await loadErrorOf(file)).toMatch(/^qa\.csv:3:1: Quote Not Closed: .*; fix the CSV quoting$/)
  })

  test('a bad JSONL line is reported at its line', async () => {
    const file = suiteDir({
      'cases.yaml': caseFile('./qa.jsonl'),
      'qa.jsonl':
        '{"id": "a", "input": "x", "expected": "x"}\n{"id": "b", "input": \n[1, 2]\n{"id": "c", "input": 3}\n',
    })
    const message = await loadErrorOf(file)
    expect(
      message.split('\n').map((line) => line.replace(/not valid JSON: .*;/, 'not valid JSON: …;')),
    ).toEqual([
      'qa.jsonl:2:1: not valid JSON: …; write one JSON object per line',
      'qa.jsonl:3:1: expected a JSON object such as {"input": "…"}, one per line',
      'qa.jsonl:4:1: `input` (column `input`) must be a string, not number 3',
    ])
  })

  test('duplicate ids name both places, across rows, files and the case file', async () => {
    const file = suiteDir({
      'cases.yaml': caseFile(
        '\n  - { id: inline, input: hi, vars: { expected: hi } }\n  - ./a.csv\n  - ./b.jsonl',
      ),
      'a.csv': 'id,input,expected\nx,1,1\ninline,2,2\n',
      'b.jsonl': '{"id": "x", "input": "3", "expected": "3"}\n',
    })
    expect(await loadErrorOf(file)).toBe(
      [
        'a.csv:3:1: duplicate case id `inline` (first at cases.yaml:6); give the rows distinct ids',
        'b.jsonl:1:1: duplicate case id `x` (first at a.csv:2); give the rows distinct ids',
      ].join('\n'),
    )
  })

  test('identical rows without ids are duplicates', async () => {
    const file = suiteDir({
      'cases.yaml': caseFile('./qa.csv'),
      'qa.csv': 'input,expected\nsame,x\nsame,x\n',
    })
    expect(await loadErrorOf(file)).toMatch(
      /^qa\.csv:3:1: duplicate case id `qa-[0-9a-f]{12}` \(first at qa\.csv:2\)/,
    )
  })

  test('a missing file, a glob matching nothing and an unknown extension are located in the case file', async () => {
    const file = suiteDir({
      'cases.yaml': caseFile('\n  - ./missing.csv\n  - ./none/*.jsonl\n  - ./notes.txt'),
      'notes.txt': 'hello',
    })
    const dir = dirname(file)
    expect(await loadErrorOf(file)).toBe(
      [
        `cases.yaml:6:5: cases[0]: dataset not found: missing.csv`,
        `cases.yaml:7:5: cases[1]: no file matches \`./none/*.jsonl\` (relative to ${dir})`,
        'cases.yaml:8:5: cases[2]: notes.txt: expected a .csv or .jsonl dataset (or a case object)',
      ].join('\n'),
    )
  })

  test('a column named in `columns:` that the header lacks, and a missing input column, point at the header', async () => {
    const file = suiteDir({
      'cases.yaml': caseFile('./qa.csv', 'columns: { expected: answer }'),
      'qa.csv': 'question,expected\nx,y\n',
    })
    expect(await loadErrorOf(file)).toBe(
      [
        'qa.csv:1:1: `columns.expected` names column `answer`, which the header lacks; its columns are `question`, `expected`',
        'qa.csv:1:1: no `input` column; name the column holding the input with `columns: { input: <column> }` (columns: question, expected)',
      ].join('\n'),
    )
  })

  test('a dataset without rows is an error', async () => {
    const file = suiteDir({
      'cases.yaml': caseFile('\n  - ./a.csv\n  - ./b.jsonl'),
      'a.csv': 'input,expected\n',
      'b.jsonl': '',
    })
    expect(await loadErrorOf(file)).toBe(
      [
        'a.csv: no rows; add some, or take the file out of `cases:`',
        'b.jsonl: no rows; add some, or take the file out of `cases:`',
      ].join('\n'),
    )
  })

  test('a template of the defaults that a row cannot fill is located in the case file and names the row', async () => {
    const file = suiteDir({ 'cases.yaml': caseFile('./qa.csv'), 'qa.csv': 'id,input,answer\na,x,y\n' })
    expect(await loadErrorOf(file)).toBe(
      'cases.yaml:3:33: defaults.expect.contains: missing template variable `expected` (vars: `answer`) (in case `a`) (row qa.csv:2)',
    )
  })

  test('a dataset without checks in `defaults:` is an error at the reference', async () => {
    const file = suiteDir({
      'cases.yaml': 'suite: s\ntarget: { command: cat }\ncases: ./qa.csv\n',
      'qa.csv': 'input\nx\n',
    })
    expect(await loadErrorOf(file)).toBe(
      "cases.yaml:3:8: cases: cases from a dataset take their checks from `defaults:`; add e.g. `defaults: { expect: { contains: '{{expected}}' } }`",
    )
  })
})
