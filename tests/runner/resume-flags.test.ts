import { describe, expect, test } from 'vitest'
import { parseRunFlags } from '../../src/cli/options.ts'

describe('--resume, --resume-force and --shard flags', () => {
  test('parse into the run flags', () => {
    expect(parseRunFlags(['--resume', 'reports/r1', '--resume-force'])).toMatchObject({
      patterns: [],
      resume: 'reports/r1',
      resumeForce: true,
    })
    expect(parseRunFlags(['cases.yaml', '--shard', '3/4']).shard).toEqual({ index: 3, count: 4 })
  })

  test('--resume refuses case files and the flags run.json saved', () => {
    expect(() => parseRunFlags(['--resume', 'reports/r1', 'cases.yaml'])).toThrow(
      "evals run: `--resume` takes the case files, selection, model, trials, timeout and shard from the run's run.json; drop case files.",
    )
    expect(() => parseRunFlags(['--resume', 'reports/r1', '--shard', '1/2'])).toThrow(/drop `--shard`\.$/)
  })

  test('--resume-force needs --resume, and --shard needs i/n', () => {
    expect(() => parseRunFlags(['cases.yaml', '--resume-force'])).toThrow(
      'evals run: `--resume-force` only applies with `--resume <run-dir>`.',
    )
    expect(() => parseRunFlags(['cases.yaml', '--shard', '2'])).toThrow(/`--shard` must be `i\/n`/)
  })
})
