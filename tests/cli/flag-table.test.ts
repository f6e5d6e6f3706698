import { expect, test } from 'vitest'
import { ConfigError } from '../../src/errors.ts'
import { HELP_FLAG, parseFlags, passedOn, type FlagTable } from '../../src/cli/flag-table.ts'
import { formatHelp } from '../../src/cli/help.ts'

const positive = (given: string, flag: string): number => {
  const n = Number(given)
  if (!(n > 0)) throw new ConfigError(`evals try: \`${flag}\` must be positive, got "${given}".`)
  return n
}

const TABLE = {
  'max-turns': { type: 'string', value: '<n>', parse: positive, passOn: true, description: 'turns at most' },
  label: {
    type: 'string',
    value: '<text>',
    multiple: true,
    default: [],
    key: 'labels',
    description: 'labels',
  },
  out: { type: 'string', value: '<dir>', default: 'reports', key: 'outDir', description: 'where' },
  quiet: { type: 'boolean', default: false, description: 'say less' },
  verbose: {
    type: 'boolean',
    section: 'Output',
    description: ['say more: every step', 'and every tool call'],
  },
  'no-color': { type: 'boolean', key: false, section: 'Output', description: 'plain text' },
  help: { ...HELP_FLAG, section: 'Output' },
} as const satisfies FlagTable

test('parses each flag under its key, fills defaults and leaves out the rest', () => {
  const parsed = parseFlags('evals try', TABLE, [
    'a.yaml',
    '--max-turns',
    '3',
    '--label',
    'x',
    '--label',
    'y',
  ])
  expect(parsed.flags).toStrictEqual({ maxTurns: 3, labels: ['x', 'y'], outDir: 'reports', quiet: false })
  expect(parsed.positionals).toEqual(['a.yaml'])
  expect(parseFlags('evals try', TABLE, ['--no-color', '--verbose'])).toMatchObject({
    flags: { verbose: true },
    given: { 'no-color': true, verbose: true },
  })
})

test('a default list is a fresh copy each time', () => {
  const first = parseFlags('evals try', TABLE, []).flags.labels
  first.push('changed')
  expect(parseFlags('evals try', TABLE, []).flags.labels).toEqual([])
})

test("a flag's own check names the flag; unknown flags get a did-you-mean", () => {
  expect(() => parseFlags('evals try', TABLE, ['--max-turns', '0'])).toThrow(
    'evals try: `--max-turns` must be positive, got "0".',
  )
  expect(() => parseFlags('evals try', TABLE, ['--max-turn', '2'])).toThrow(
    'evals try: unknown option `--max-turn`. Did you mean `--max-turns`? Run `evals try --help` for the options.',
  )
  expect(() => parseFlags('evals try', TABLE, ['a.yaml'], { positionals: false })).toThrow(
    /^evals try: Unexpected argument 'a.yaml'/,
  )
})

test('passes on only the flags marked `passOn` that were given', () => {
  expect(passedOn(TABLE, parseFlags('evals try', TABLE, ['--quiet']).flags)).toStrictEqual({})
  expect(passedOn(TABLE, parseFlags('evals try', TABLE, ['--max-turns', '2']).flags)).toStrictEqual({
    maxTurns: 2,
  })
})

test('help lists the flags in sections, descriptions in one column, further lines indented under the first', () => {
  expect(formatHelp('Usage: evals try [options]', TABLE, 'Exit codes: 0 ok.\n')).toBe(
    `Usage: evals try [options]

Options
  --max-turns <n>            turns at most
  --label <text>             labels
  --out <dir>                where
  --quiet                    say less

Output
  --verbose                  say more: every step
                             and every tool call
  --no-color                 plain text
  -h, --help                 this help

Exit codes: 0 ok.
`,
  )
})
