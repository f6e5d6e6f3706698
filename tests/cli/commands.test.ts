import { beforeAll, describe, expect, expectTypeOf, test } from 'vitest'
import type { Command } from '../../src/cli/command.ts'
import { COMMANDS } from '../../src/cli/dispatch.ts'
import { type RunFlags } from '../../src/cli/options.ts'
import { DEFAULT_ALPHA } from '../../src/baselines/defaults.ts'
import { DEFAULT_REPORTERS } from '../../src/reporters/index.ts'
import {
  DEFAULT_BASELINE_DIR,
  DEFAULT_CONCURRENCY,
  DEFAULT_OUT_DIR,
  DEFAULT_TIMEOUT_MS,
} from '../../src/runner/plan/defaults.ts'
import type { Shard } from '../../src/model/run-report.ts'
import { ensureBuilt, runCli } from '../e2e/helpers.ts'

const commands = await Promise.all(
  [...COMMANDS].map(async ([name, load]) => [name, await load()] as [string, Command]),
)
const everyFlag = new Set(commands.flatMap(([, command]) => Object.keys(command.flags)))

/** the given form of a flag: a value for string flags, that may still fail the flag's own check */
function argsOf(name: string, type: 'string' | 'boolean'): string[] {
  return type === 'boolean' ? [`--${name}`] : [`--${name}`, '1']
}

describe.each(commands)('evals %s', (name, command) => {
  test('--help lists every flag of its table, with its alias and value', () => {
    const listed = command.help.split('\n').filter((line) => /^ {2}-/.test(line))
    expect(listed).toHaveLength(Object.keys(command.flags).length)
    for (const [flag, spec] of Object.entries(command.flags)) {
      const label = `${spec.short === undefined ? '' : `-${spec.short}, `}--${flag}${spec.value === undefined ? '' : ` ${spec.value}`}`
      expect(listed.some((line) => line.startsWith(`  ${label}  `))).toBe(true)
    }
  })

  test('the parser knows every flag of its table and asks for help with -h and --help', () => {
    for (const [flag, spec] of Object.entries(command.flags)) {
      let problem = ''
      try {
        command.parse(argsOf(flag, spec.type))
      } catch (error) {
        problem = (error as Error).message
      }
      expect(problem).not.toMatch(/unknown option|needs a value/)
    }
    expect(command.parse(['--help']).help).toBe(true)
    expect(command.parse(['-h']).help).toBe(true)
  })

  test("the parser rejects the other commands' flags with a pointer to --help", () => {
    const others = [...everyFlag].filter((flag) => !(flag in command.flags))
    for (const flag of others) {
      expect(() => command.parse([`--${flag}`, '1'])).toThrow(
        new RegExp(
          `^evals ${name}: unknown option \`--${flag}\`\\..* Run \`evals ${name} --help\` for the options\\.$`,
        ),
      )
    }
  })
})

describe('help reads the defaults from their constants', () => {
  const help = (name: string): string => commands.find(([command]) => command === name)?.[1].help ?? ''

  test('evals run', () => {
    expect(help('run')).toContain(
      `per-case limit on target plus checks (default ${String(DEFAULT_TIMEOUT_MS)})`,
    )
    expect(help('run')).toContain(`case runs at once (default ${String(DEFAULT_CONCURRENCY)})`)
    expect(help('run')).toContain(`results and reports goes (default ${DEFAULT_OUT_DIR})`)
    expect(help('run')).toContain(`where --update-baseline writes (default ${DEFAULT_BASELINE_DIR})`)
    expect(help('run')).toContain(`(default ${DEFAULT_REPORTERS.join(',')})`)
    expect(help('run')).toContain(`accuracy-regression test (default ${String(DEFAULT_ALPHA)})`)
  })

  test('evals merge and evals view', () => {
    expect(help('merge')).toContain(`(default ${DEFAULT_REPORTERS.join(',')})`)
    expect(help('view')).toContain(`report folders (default \`${DEFAULT_OUT_DIR}\`)`)
  })
})

test('`RunFlags` follows the table: keys, parsed types, and which flags are always there', () => {
  expectTypeOf<RunFlags['timeoutMs']>().toEqualTypeOf<number | undefined>()
  expectTypeOf<RunFlags['outDir']>().toEqualTypeOf<string>()
  expectTypeOf<RunFlags['tags']>().toEqualTypeOf<string[]>()
  expectTypeOf<RunFlags['reporters']>().toEqualTypeOf<string[]>()
  expectTypeOf<RunFlags['shard']>().toEqualTypeOf<Shard | undefined>()
  expectTypeOf<RunFlags['baselineMissing']>().toEqualTypeOf<'ok' | 'error'>()
  expectTypeOf<RunFlags['bail']>().toEqualTypeOf<boolean>()
  expectTypeOf<RunFlags>().not.toHaveProperty('record')
  expectTypeOf<RunFlags>().not.toHaveProperty('noColor')
})

describe('the built bin', () => {
  beforeAll(() => {
    ensureBuilt()
  }, 120_000)

  test('`evals help <command>` prints the help `<command> --help` prints', async () => {
    for (const [name, command] of commands.filter(([name]) => name === 'init' || name === 'run')) {
      expect(await runCli(['help', name])).toMatchObject({ code: 0, stdout: command.help })
      expect(await runCli([name, '--help'])).toMatchObject({ code: 0, stdout: command.help })
    }
  })

  test('a bad flag value exits 2 with its message and no stack', async () => {
    expect(await runCli(['view', '--port', 'abc'])).toMatchObject({
      code: 2,
      stdout: '',
      stderr: 'evals view: `--port abc` is not a port; give a number from 0 to 65535.\n',
    })
  })
})
