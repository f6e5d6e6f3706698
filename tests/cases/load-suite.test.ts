import { createHash } from 'node:crypto'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { describe, expect, test } from 'vitest'
import { loadSuite } from '../../src/cases/load.ts'
import { CaseFileError } from '../../src/errors.ts'
import { evaluatorRegistry } from '../../src/evaluators/registry.ts'
import { fixture, fixturesDir, loadErrorOf, scratchFile } from './helpers.ts'

describe('loadSuite on a valid file', () => {
  test('resolves the target against the case file and keeps suite settings', async () => {
    const suite = await loadSuite(fixture('valid.yaml'))
    expect({ ...suite, cases: suite.cases.length }).toEqual({
      name: 'support',
      description: 'A support agent with tools',
      file: fixture('valid.yaml'),
      fileHash: createHash('sha256')
        .update(readFileSync(fixture('valid.yaml')))
        .digest('hex'),
      target: { type: 'agent', module: `${fixturesDir}agents/support.ts` },
      model: 'local',
      judge: { model: 'openai:gpt-4.1-mini' },
      trials: 2,
      cases: 3,
    })
  })

  test('renders vars, merges defaults under the case and records the source line', async () => {
    const [cancel] = (await loadSuite(fixture('valid.yaml'))).cases
    expect(cancel).toEqual({
      id: 'cancel',
      input: 'Cancel the subscription for user u-42',
      vars: { user: 'u-42' },
      tags: ['support', 'billing', 'critical'],
      weight: 3,
      only: false,
      trials: 2,
      expect: {
        latency_ms_lte: 5000,
        tool: 'cancel_subscription',
        tool_args: { cancel_subscription: { user_id: 'u-42' } },
        contains: 'cancelled',
      },
      assert: [],
      judge: [{ rubric: 'Confirms the cancellation and says what happens next', threshold: 7 }],
      line: 13,
    })
  })

  test('renders each turn of a conversation input, and a whole `{{var}}` keeps its type', async () => {
    const [, refund] = (await loadSuite(fixture('valid.yaml'))).cases
    expect(refund).toMatchObject({
      input: [
        { role: 'system', content: 'You are terse.' },
        { role: 'user', content: 'Refund order 1234' },
      ],
      trials: 3,
      timeoutMs: 1000,
      assert: [
        { kind: 'tool', value: 'refund', weight: 2 },
        { kind: 'contains', value: 'password', not: true },
      ],
    })
  })

  test('turns `skip` into a reason', async () => {
    const later = (await loadSuite(fixture('valid.yaml'))).cases.get(2)
    expect(later.skip).toBe('waiting for the greeting tool')
  })

  test('reads JSON files, tabs included', async () => {
    const json = (await readFile(fixture('valid.json'), 'utf8')).replaceAll('  ', '\t')
    const suite = await loadSuite(scratchFile('tabs.json', json))
    expect(suite.target).toEqual({
      type: 'command',
      command: 'cat',
      input: 'stdin',
      cwd: dirname(suite.file),
      timeoutMs: 500,
    })
    expect(suite.cases.get(0)).toMatchObject({ input: 'hello world', line: 5 })
  })
})

describe('loadSuite on an invalid file', () => {
  test('names the new key for a trajectory key renamed before 1.0', async () => {
    const file = scratchFile(
      'renamed.yaml',
      [
        'suite: renamed',
        'target: { command: cat }',
        'cases:',
        '  - id: refund',
        '    input: refund o-9',
        '    expect:',
        '      trajectory:',
        '        steps: [{ name: refund_payment, args_match: exact }]',
        '        args_match: subset',
        '',
      ].join('\n'),
    )
    expect(await loadErrorOf(loadSuite(file))).toBe(
      [
        'renamed.yaml:8:17: cases[0].expect.trajectory.steps[0].tool: missing (required)',
        'renamed.yaml:8:19: cases[0].expect.trajectory.steps[0].name: `name` is now `tool`; rename it',
        'renamed.yaml:8:41: cases[0].expect.trajectory.steps[0].args_match: `args_match` is now `args_mode`; rename it',
        'renamed.yaml:9:9: cases[0].expect.trajectory.args_match: `args_match` is now `args_mode`; rename it',
      ].join('\n'),
    )
  })

  test('points selectools-style flat check keys to their `expect:` entry', async () => {
    const file = scratchFile(
      'selectools.yaml',
      [
        'suite: selectools',
        'target: { command: cat }',
        'cases:',
        '  - id: weather',
        '    input: weather in Paris',
        '    expect_tool: get_weather',
        '    expect_tool_args: { city: Paris }',
        '    expect_contains: Paris',
        '    expect_toll: x',
        '',
      ].join('\n'),
    )
    const message = await loadErrorOf(loadSuite(file))
    expect(message.split('\n').slice(0, 3)).toEqual([
      'selectools.yaml:6:5: cases[0].expect_tool: unknown key `expect_tool`; did you mean `expect: { tool: … }`?',
      'selectools.yaml:7:5: cases[0].expect_tool_args: unknown key `expect_tool_args`; did you mean `expect: { tool_args: … }`?',
      'selectools.yaml:8:5: cases[0].expect_contains: unknown key `expect_contains`; did you mean `expect: { contains: … }`?',
    ])
    expect(message.split('\n')[3]).toMatch(
      /^selectools\.yaml:9:5: cases\[0\]\.expect_toll: unknown key `expect_toll`; /,
    )
  })

  test('says how to wrap a bare list of cases, as selectools writes them, into a suite', async () => {
    const file = scratchFile(
      'bare-list.json',
      '\n[\n  { "input": "weather in Paris", "expect_tool": "get_weather" }\n]\n',
    )
    expect(await loadErrorOf(loadSuite(file))).toBe(
      'bare-list.json:2:1: a case file is an object, not a bare list of cases; wrap the list as ' +
        '{ "suite": "my-suite", "target": { "agent": "./agent.ts" }, "cases": [ …your cases… ] }',
    )
  })

  test('reports every schema issue at once with file:line:column, path and did-you-mean', async () => {
    expect(await loadErrorOf(loadSuite(fixture('invalid/many-issues.yaml')))).toBe(
      [
        'invalid/many-issues.yaml:4:1: tirals: unknown key `tirals`; did you mean `trials`?',
        'invalid/many-issues.yaml:10:7: cases[0].expect.tol: unknown key `tol`; did you mean `tool`?',
        'invalid/many-issues.yaml:11:21: cases[0].expect.output_regex: Invalid regular expression: /(unclosed/: Unterminated group',
        'invalid/many-issues.yaml:12:9: cases[1].id: duplicate case id `cancel` (first defined at line 6)',
        'invalid/many-issues.yaml:14:13: cases[1].weight: expected number, received string "heavy"',
        `invalid/many-issues.yaml:16:17: cases[1].assert[0].kind: unknown evaluator kind \`tool_call\`; known kinds: ${[...evaluatorRegistry.keys()].join(', ')}`,
        'invalid/many-issues.yaml:17:9: cases[1].assert[1].value: missing (required)',
        'invalid/many-issues.yaml:17:27: cases[1].assert[1].valu: unknown key `valu`; did you mean `value`?',
        'invalid/many-issues.yaml:20:17: cases[2].input[0].role: expected one of system, user, assistant, received string "robot"',
        'invalid/many-issues.yaml:21:30: cases[2].expect.contains[1]: expected string, received number 3',
      ].join('\n'),
    )
  })

  test('reports missing template variables, modules and exports with their locations', async () => {
    expect(await loadErrorOf(loadSuite(fixture('invalid/semantic.yaml')))).toBe(
      [
        'invalid/semantic.yaml:2:21: target.function: module not found: invalid/agents/missing.ts',
        'invalid/semantic.yaml:7:12: cases[0].input: missing template variable `ordr`; did you mean `order`? (vars: `order`, `user`, `greeting`)',
        'invalid/semantic.yaml:10:20: cases[0].expect.starts_with: missing template variable `prefix` (vars: `order`, `user`, `greeting`)',
        'invalid/semantic.yaml:13:32: cases[1].input[0].content: missing template variable `name` (vars: `greeting`)',
        'invalid/semantic.yaml:18:23: cases[2].expect.custom: checks.ts has no function export `isPolit`; did you mean `isPolite`?',
        'invalid/semantic.yaml:20:32: cases[2].assert[0].value: module not found: no-such-file.ts',
      ].join('\n'),
    )
  })

  test('reports schema issues, missing modules and cases without checks in one pass', async () => {
    const file = scratchFile(
      'one-pass.yaml',
      [
        'suite: s',
        'target:',
        '  function: ./nope.ts#f',
        'cases:',
        '  - id: a',
        '    input: hi',
        '    expect: { tol: x }',
        '  - id: b',
        '    input: hi',
        '    expect: { custom: ./missing.ts#check }',
        '  - id: c',
        '    input: hi',
        '',
      ].join('\n'),
    )
    const message = await loadErrorOf(loadSuite(file))
    expect(message.split('\n').map((line) => line.replace(/^.*one-pass\.yaml:/, ''))).toEqual([
      '3:13: target.function: module not found: nope.ts',
      '7:15: cases[0].expect.tol: unknown key `tol`; did you mean `tool`?',
      '10:23: cases[1].expect.custom: module not found: missing.ts',
      '11:5: cases[2]: case `c` has no checks: add `expect`, `assert` or `judge`',
    ])
  })

  test('names a missing variable of the defaults with the case it broke', async () => {
    const message = await loadErrorOf(loadSuite(fixture('invalid/defaults-var.yaml')))
    expect(message).toBe(
      'invalid/defaults-var.yaml:4:23: defaults.expect.contains: missing template variable `greeting` (the case has no `vars`) (in case `plain`)',
    )
  })

  test('locates JSON issues too', async () => {
    expect(await loadErrorOf(loadSuite(fixture('invalid/bad.json')))).toBe(
      [
        'invalid/bad.json:3:56: target.http.metod: unknown key `metod`; did you mean `method`?',
        'invalid/bad.json:4:53: cases[0].expect.contians: unknown key `contians`; did you mean `contains`?',
      ].join('\n'),
    )
  })

  test('reports YAML syntax errors with their position', async () => {
    const file = scratchFile(
      'syntax.yaml',
      'suite: syntax\ncases:\n  - id: a\n    input: "unterminated\n  - id: b\n',
    )
    expect(await loadErrorOf(loadSuite(file))).toBe('syntax.yaml:6:1: Missing closing "quote')
  })

  test('validates checks again after rendering vars', async () => {
    expect(await loadErrorOf(loadSuite(fixture('rendered.yaml')))).toBe(
      'rendered.yaml:9:21: cases[0].expect.output_regex: Invalid regular expression: /(broken/: Unterminated group (after rendering vars)',
    )
  })

  test('reports JSON syntax errors with their position', async () => {
    const file = scratchFile(
      'syntax.json',
      '{\n  "suite": "x",\n  "cases": [\n    { "id": "a" "input": "hi" }\n  ]\n}\n',
    )
    expect(await loadErrorOf(loadSuite(file))).toMatch(/^syntax\.json:4:17: .*position 47$/)
  })

  test('requires exactly one target kind', async () => {
    expect(await loadErrorOf(loadSuite(fixture('invalid/two-targets.yaml')))).toBe(
      'invalid/two-targets.yaml:2:9: target: expected exactly one of `agent`, `function`, `http`, `command`, got `agent`, `command`',
    )
  })

  test('rejects a case without any check, since it would pass vacuously', async () => {
    expect(await loadErrorOf(loadSuite(fixture('invalid/no-checks.yaml')))).toBe(
      'invalid/no-checks.yaml:4:5: cases[0]: case `nothing` has no checks: add `expect`, `assert` or `judge`',
    )
  })

  test('carries the issues as data for annotations', async () => {
    const error = await loadSuite(fixture('invalid/bad.json')).catch((caught: unknown) => caught)
    expect(error).toBeInstanceOf(CaseFileError)
    expect((error as CaseFileError).issues[0]).toEqual({
      file: fixture('invalid/bad.json'),
      path: 'target.http.metod',
      message: 'unknown key `metod`; did you mean `method`?',
      line: 3,
      column: 56,
    })
  })
})

test('a check that is exactly `{{var}}` takes the variable with its type', async () => {
  const file = scratchFile(
    'typed.yaml',
    [
      'suite: typed',
      `target: { agent: ${fixture('agents/support.ts')} }`,
      'cases:',
      '  - id: typed',
      "    input: 'Refund {{amount}} on {{order.id}}'",
      '    vars: { amount: 10, order: { id: o-7 } }',
      "    expect: { tool_args: { refund: { amount: '{{amount}}', order: '{{order}}' } } }",
    ].join('\n'),
  )
  const [typed] = (await loadSuite(file)).cases
  expect(typed?.input).toBe('Refund 10 on o-7')
  expect(typed?.expect).toEqual({ tool_args: { refund: { amount: 10, order: { id: 'o-7' } } } })
})

test('a JSON case file of 8 MiB or more whose `cases` also names a dataset is read whole', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'evals-large-json-'))
  try {
    writeFileSync(join(dir, 'rows.csv'), 'id,input,expected\nrow-1,from a row,FROM\n')
    const padding = 'a description long enough to make the file large. '.repeat(14)
    const cases = Array.from({ length: 12_000 }, (_, i) =>
      JSON.stringify({
        id: `case-${i}`,
        description: padding,
        input: `hello ${i}`,
        vars: { expected: `HELLO ${i}` },
      }),
    )
    cases.splice(1, 0, '"./rows.csv"')
    const text = `{\n  "suite": "big",\n  "target": { "command": "cat" },\n  "defaults": { "expect": { "contains": "{{expected}}" } },\n  "cases": [\n    ${cases.join(',\n    ')}\n  ]\n}\n`
    expect(text.length).toBeGreaterThanOrEqual(8 << 20)
    writeFileSync(join(dir, 'big.json'), text)
    const suite = await loadSuite(join(dir, 'big.json'))
    expect(suite.cases).toHaveLength(12_001)
    expect(suite.cases.get(1)).toMatchObject({ id: 'row-1', input: 'from a row', line: 7 })
    expect(suite.cases.get(12_000)).toMatchObject({ id: 'case-11999', input: 'hello 11999', line: 12_006 })
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
})
