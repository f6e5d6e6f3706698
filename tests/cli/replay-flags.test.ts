import { describe, expect, test } from 'vitest'
import { parseRunFlags } from '../../src/cli/options.ts'

describe('--record and --replay', () => {
  test('a bare --replay replays strictly and leaves the next argument a case file', () => {
    const flags = parseRunFlags(['--replay', 'cases/a.yaml'])
    expect(flags.cassettes).toBe('replay')
    expect(flags.patterns).toEqual(['cases/a.yaml'])
  })

  test('--replay auto records misses; --record records everything; neither leaves cassettes off', () => {
    expect(parseRunFlags(['cases/a.yaml', '--replay', 'auto']).cassettes).toBe('auto')
    expect(parseRunFlags(['cases/a.yaml', '--replay=auto']).cassettes).toBe('auto')
    expect(parseRunFlags(['--record', 'cases/a.yaml']).cassettes).toBe('record')
    expect(parseRunFlags(['cases/a.yaml']).cassettes).toBeUndefined()
  })

  test('rejects an unknown replay mode and --record with --replay', () => {
    expect(() => parseRunFlags(['--replay=always'])).toThrow(
      'evals run: `--replay` takes no value or `auto`, got "always".',
    )
    expect(() => parseRunFlags(['--record', '--replay', 'x.yaml'])).toThrow(
      'give `--record` or `--replay`, not both',
    )
  })
})
