import fc from 'fast-check'
import { dump } from 'js-yaml'
import { isDeepStrictEqual } from 'node:util'
import { describe, expect, test } from 'vitest'
import { stringify } from 'yaml'
import { parseSource } from '../../src/cases/source-map.ts'
import { parseYamlSource, quickSource } from '../../src/cases/yaml-source.ts'

/** scalars whose meaning differs between YAML 1.1, YAML 1.2 core and JSON, or between parsers */
const tricky = [
  'yes',
  'no',
  'on',
  'off',
  'y',
  'n',
  'Yes',
  'NO',
  'true',
  'False',
  'TRUE',
  '~',
  'null',
  'Null',
  'NULL',
  '',
  '0x1F',
  '0o17',
  '017',
  '0b101',
  '1e3',
  '1E-3',
  '.5',
  '1.',
  '+5',
  '-0',
  '1_000',
  '12:30',
  '2001-12-14',
  '.inf',
  '-.Inf',
  '+.INF',
  '.nan',
  '.NaN',
  '1e400',
  '123456789012345678901234567890',
  '<<',
  '__proto__',
  'a: b',
  '- x',
  '#not a comment',
  'x #y',
  "it's",
  '"q"',
  '{{name}}',
  '*alias',
  '&anchor',
  '!tag',
  '%d',
  'line\nbreak',
  ' lead',
  'trail ',
  'tab\there',
  'é ☃ 😀',
  '\u0085',
  '@at',
  '`tick`',
  '? q',
]

const scalar = fc.oneof(
  fc.string(),
  fc.constantFrom(...tricky),
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
)
const key = fc.oneof(fc.string({ minLength: 1 }), fc.constantFrom('id', 'input', 'expect', 'yes', 'no', 'on'))
const { value } = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    scalar,
    fc.array(tie('value'), { maxLength: 4 }),
    fc.dictionary(key, tie('value'), { maxKeys: 4 }),
  ),
}))

const yamlStyles = fc.record({
  collectionStyle: fc.constantFrom('any', 'block', 'flow'),
  defaultStringType: fc.constantFrom(
    'PLAIN',
    'QUOTE_DOUBLE',
    'QUOTE_SINGLE',
    'BLOCK_LITERAL',
    'BLOCK_FOLDED',
  ),
  defaultKeyType: fc.constantFrom(null, 'PLAIN', 'QUOTE_DOUBLE'),
  lineWidth: fc.constantFrom(0, 20, 80),
  indent: fc.constantFrom(2, 4),
  indentSeq: fc.boolean(),
} as const)
const jsYamlStyles = fc.record({
  flowLevel: fc.constantFrom(-1, 0, 1, 2),
  quoteStyle: fc.constantFrom('single', 'double'),
  forceQuotes: fc.boolean(),
  lineWidth: fc.constantFrom(-1, 20, 80),
  seqNoIndent: fc.boolean(),
} as const)

/** full-line comments before the root keys of a block mapping (its lines at column 0) and around the document */
function withComments(text: string): string {
  const lines = text.split('\n').flatMap((line) => (/^[\w"']/.test(line) ? ['# a comment', line] : [line]))
  return `# head\n${lines.join('\n')}\n# tail\n`
}

/** Both paths agree: the same value, or both an error. True when the good path read the file. */
function expectSameReading(text: string): boolean {
  const reference = parseSource(text)
  const read = parseYamlSource(text)
  expect(read.errors.length > 0, text).toBe(reference.errors.length > 0)
  expect(isDeepStrictEqual(read.data, reference.data), text).toBe(true)
  return quickSource(text) !== undefined
}

const runs = 400

describe('the js-yaml good path reads what `yaml` reads', () => {
  // each property also counts the files the good path read, so that it cannot pass by leaving them all to `yaml`
  test('values dumped by `yaml` in every style', () => {
    let quick = 0
    fc.assert(
      fc.property(value, yamlStyles, fc.boolean(), (data, options, comments) => {
        const text = stringify({ root: data }, options)
        if (expectSameReading(comments && options.collectionStyle !== 'flow' ? withComments(text) : text))
          quick++
      }),
      { numRuns: runs },
    )
    expect(quick).toBeGreaterThan(runs / 2)
  })

  test('values dumped by js-yaml in every style', () => {
    let quick = 0
    fc.assert(
      fc.property(value, jsYamlStyles, (data, options) => {
        if (expectSameReading(dump({ root: data }, options))) quick++
      }),
      { numRuns: runs },
    )
    expect(quick).toBeGreaterThan(runs / 2)
  })

  test('plain scalars of every kind, as values and as keys', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...tricky.filter((raw) => !/[\n:#]|^[-?&*!%@`'"{[]|^$| $/.test(raw))),
        (raw) => {
          expectSameReading(`value: ${raw}\nlist: [${raw}]\n`)
          expectSameReading(`${raw}: value\n`)
        },
      ),
    )
  })

  test.each([
    ['YAML 1.1 booleans are strings', 'a: yes\nb: no\nc: on\nd: off\n'],
    [
      'numbers of the core schema',
      'a: 0x1F\nb: 0o17\nc: 1e3\nd: .inf\ne: -.Inf\nf: .NaN\ng: 1e400\nh: -0\ni: 007\n',
    ],
    ['not numbers in YAML 1.2', 'a: 0b101\nb: 1_000\nc: 12:30\nd: 2001-12-14\ne: 2001-12-14T21:59:43Z\n'],
    ['null spellings', 'a: ~\nb: null\nc: NULL\nd:\ne: Null\n'],
    ['duplicate keys', 'a: 1\na: 2\n'],
    ['merge keys', 'base: &b {x: 1, y: 1}\nc:\n  <<: *b\n  y: 2\n'],
    ['merge of a list', 'a: &a {x: 1}\nb: &b {y: 2}\nc:\n  <<: [*a, *b]\n'],
    ['an anchor without alias', 'a: &x 1\nb: 2\n'],
    ['tags', 'a: !!str 3\nb: !!int "3"\nc: !custom x\n'],
    ['a YAML 1.1 directive', '%YAML 1.1\n---\na: yes\n'],
    ['several documents', 'a: 1\n---\nb: 2\n'],
    ['null, number, bool and collection keys', '~: 1\nnull: 2\n1: a\ntrue: b\n1.0: c\n[x]: d\n{y: 1}: e\n'],
    ['an explicit key', '? a\n: b\n'],
    ['a merge-looking quoted key', '"<<": {x: 1}\n'],
    ['__proto__ keys', '__proto__: 1\n"__proto__": {a: 1}\n'],
    ['block scalars', 'a: |\n  x\n  y\nb: >-\n  z\n  w\nc: |+\n  k\n\nd: end\n'],
    ['escapes', "a: \"\\u00e9\\x41\\U0001F600\\t\\n\"\nb: 'it''s'\n"],
    ['comments', '# top\na: b #c\nd: "e" # f\n# end\n'],
    ['CRLF line ends', 'a: 1\r\nb:\r\n  - x\r\n  - y\r\n'],
    ['a tab after the colon', 'a:\tb\n'],
    ['an empty file', ''],
    ['a comment only', '# nothing\n'],
    ['a bare list', '- a\n- b\n'],
    ['a scalar document', 'hello\n'],
    ['a syntax error', 'a: [1, 2\nb: 3\n'],
    ['a bad indent', 'a:\n  b: 1\n c: 2\n'],
  ])('%s', (_, text) => {
    expectSameReading(text)
  })
})

describe('the good path', () => {
  const suite = [
    'suite: s',
    'target:',
    '  function: ./t.mjs#t',
    'cases:',
    '  - id: a',
    '    input: "hello {{n}}"',
    '    vars: { n: 1 }',
    '  -   id: b',
    '      input: >-',
    '        folded',
    '  - { id: c, input: x }',
    '',
    '  # a comment',
    '  - id: d',
    '    input: y',
    '',
  ].join('\n')

  test('reads a plain case file with js-yaml, each case at the line `yaml` gives', () => {
    const quick = quickSource(suite)
    const reference = parseSource(suite)
    expect(quick).toBeDefined()
    expect([0, 1, 2, 3].map((index) => quick?.line(['cases', index]))).toEqual([5, 8, 11, 14])
    expect([0, 1, 2, 3].map((index) => reference.line(['cases', index]))).toEqual([5, 8, 11, 14])
  })

  test('finds other positions with `yaml`', () => {
    expect(quickSource(suite)?.locate(['cases', 1, 'input'])).toEqual(
      parseSource(suite).locate(['cases', 1, 'input']),
    )
  })

  test('takes the values `yaml` dumps in block and flow style', () => {
    fc.assert(
      fc.property(
        fc.dictionary(fc.constantFrom('a', 'b', 'c'), fc.string()),
        fc.constantFrom('block', 'flow'),
        (data, style) => {
          expect(quickSource(stringify({ root: data }, { collectionStyle: style }))).toBeDefined()
        },
      ),
    )
  })

  test.each([
    ['an alias', 'a: &x 1\nb: *x\n'],
    ['a tag', 'a: !!str 1\n'],
    ['a merge key', 'a:\n  <<: {x: 1}\n'],
    ['a null key', '~: 1\n'],
    ['a number key', '1: a\n'],
    ['a directive', '%YAML 1.2\n---\na: 1\n'],
    ['a duplicate key', 'a: 1\na: 2\n'],
  ])('leaves a file with %s to `yaml`', (_, text) => {
    expect(quickSource(text)).toBeUndefined()
  })
})
