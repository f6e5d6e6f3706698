import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest'
import { planCommand } from '../../src/cli/plan-command.ts'

const repo = join(import.meta.dirname, '..', '..')
let stdout = ''
let stderr = ''

beforeEach(() => {
  stdout = ''
  stderr = ''
  vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
    stdout += String(chunk)
    return true
  })
  vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
    stderr += String(chunk)
    return true
  })
})

afterEach(() => {
  vi.restoreAllMocks()
})

describe('evals plan', () => {
  test('answers how many trials a 5-point drop needs, from the committed baseline', async () => {
    const code = await planCommand.main([
      join(repo, 'cases', 'quickstart.yaml'),
      '--baseline',
      join(repo, 'baselines'),
      '--drop',
      '5',
      '--no-color',
    ])
    expect(stderr).toBe('')
    expect(code).toBe(0)
    // the committed baseline ran one trial a case and all ten passed: p = 10.5 / 11 for every case
    expect(stdout).toContain(
      `Suite     quickstart · 10 cases · ${join(repo, 'baselines', 'quickstart.json')} has one trial a case, so every case is taken at the suite's pass rate, 95.5%\n`,
    )
    expect(stdout).toContain('\n  trials per run             1     2     3     5    10    20\n')
    // Z · √(10 · p(1 − p) · 2/n) / 10 at n = 1, 2, 3, 5, 10, 20 trials a side
    expect(stdout).toContain('  baseline at as many     25.9  18.3  15.0  11.6   8.2   5.8\n')
    expect(stdout).toContain(
      'Drop      to see a 5.0-point drop: 27 trials a side; against this baseline no number of trials does',
    )
  })

  test('assumes a pass rate without a baseline, and says so', async () => {
    await planCommand.main([join(repo, 'cases', 'quickstart.yaml'), '--pass-rate', '0.8', '--no-color'])
    expect(stdout).toContain(
      'every case assumed to pass 80.0% of its trials (give `--baseline` for the real variance)',
    )
    expect(stdout).not.toContain('baseline as is')
  })

  test('rejects a drop that is not a number of points, naming the flag', async () => {
    expect(await planCommand.main([join(repo, 'cases', 'quickstart.yaml'), '--drop', 'five'])).toBe(2)
    expect(stderr).toBe('evals plan: `--drop` must be a number of points between 0 and 100, got "five".\n')
  })
})
