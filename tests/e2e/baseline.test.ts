import { execFileSync } from 'node:child_process'
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { beforeAll, describe, expect, test } from 'vitest'
import { ensureBuilt, repo, runCli } from './helpers.ts'

/**
 * A project of its own: the quickstart suite and its agent in a fresh git repository, importing agent-evals from this
 * checkout, so the baseline records a real commit.
 */
function project(): string {
  const dir = mkdtempSync(join(tmpdir(), 'evals-baseline-'))
  mkdirSync(join(dir, 'cases', 'agents'), { recursive: true })
  copyFileSync(join(repo, 'cases', 'quickstart.yaml'), join(dir, 'cases', 'quickstart.yaml'))
  for (const file of ['support.ts', 'checks.ts'])
    copyFileSync(join(repo, 'cases', 'agents', file), join(dir, 'cases', 'agents', file))
  // the agent imports `agent-evals` and zod, as in a user's project
  mkdirSync(join(dir, 'node_modules'))
  symlinkSync(repo, join(dir, 'node_modules', 'agent-evals'))
  symlinkSync(join(repo, 'node_modules', 'zod'), join(dir, 'node_modules', 'zod'))
  const git = (...args: string[]): string => execFileSync('git', args, { cwd: dir, encoding: 'utf8' }).trim()
  git('init', '-q', '-b', 'main')
  git('add', 'cases')
  git('-c', 'user.name=evals', '-c', 'user.email=evals@example.com', 'commit', '-q', '-m', 'quickstart')
  return dir
}

function headOf(dir: string): string {
  return execFileSync('git', ['rev-parse', 'HEAD'], { cwd: dir, encoding: 'utf8' }).trim()
}

beforeAll(() => {
  ensureBuilt()
}, 120_000)

describe('baselines end to end (built bin)', () => {
  test('update, identical rerun, missing baseline, first run, then a broken agent fails naming the case', async () => {
    const dir = project()
    const run = (...args: string[]) =>
      runCli(['run', 'cases/quickstart.yaml', '--out', 'reports', ...args], { cwd: dir })

    const update = await run('--update-baseline')
    expect(update.stderr).toBe('')
    expect(update.code).toBe(0)
    expect(update.stdout).toContain('Baseline  wrote baselines/quickstart.json\n')
    const baseline = JSON.parse(readFileSync(join(dir, 'baselines', 'quickstart.json'), 'utf8')) as {
      suite: string
      createdAt: string
      git: { commit: string; branch: string }
      cases: { id: string; status: string }[]
    }
    expect(baseline).toMatchObject({ suite: 'quickstart', git: { commit: headOf(dir), branch: 'main' } })
    expect(baseline.cases).toHaveLength(10)
    expect(baseline.cases.every((entry) => entry.status === 'passed')).toBe(true)

    const same = await run('--baseline', 'baselines')
    expect(same.stderr).toBe('')
    expect(same.code).toBe(0)
    expect(same.stdout).toContain('Compared  0 regressed · 0 improved · 10 unchanged · 0 new · 0 removed\n')
    expect(same.stdout).toContain('Gate      PASS\n')

    const missing = await run('--baseline', 'nowhere')
    expect(missing.code).toBe(2)
    expect(missing.stderr).toBe(
      'Baseline file `nowhere/quickstart.json` does not exist. Create it with `evals run <case-file> --update-baseline`, or pass `--baseline-missing ok` for a first run.\n',
    )
    expect(missing.stdout).toBe('')

    const first = await run('--baseline', 'nowhere', '--baseline-missing', 'ok')
    expect(first.code).toBe(0)
    expect(first.stdout).toContain(
      'Baseline  none at `nowhere/quickstart.json`: nothing to compare (`--baseline-missing ok`). Create it with `evals run <case-file> --update-baseline`.\n',
    )

    const agent = join(dir, 'cases', 'agents', 'support.ts')
    writeFileSync(agent, readFileSync(agent, 'utf8').replace('is cancelled;', 'is paused;'))
    const broken = await run('--baseline', 'baselines')
    expect(broken.code).toBe(1)
    expect(broken.stdout).toContain('✗ quickstart › cancel-subscription\n      contains:')
    expect(broken.stdout).toContain('  ↓ cancel-subscription 1/1 → 0/1 [billing, critical]\n')
    expect(broken.stdout).toContain(
      'Gate      FAIL (1 reason)\n  ✗ Critical case `cancel-subscription` regressed: 1/1 → 0/1 trials passed (tagged `critical`).\n',
    )

    const compared = await runCli(['compare', 'reports', 'baselines/quickstart.json'], { cwd: dir })
    expect(compared.code).toBe(1)
    expect(compared.stdout).toContain('Critical case `cancel-subscription` regressed')

    const shown = await runCli(['baseline', 'show', 'baselines/quickstart.json'], { cwd: dir })
    expect(shown.code).toBe(0)
    expect(shown.stdout).toContain(
      `Taken     ${baseline.createdAt} · commit ${headOf(dir).slice(0, 12)} (main)\n`,
    )
  }, 60_000)

  test('--update-baseline refuses a run with a failing case and names it; --force writes it anyway', async () => {
    const dir = project()
    const agent = join(dir, 'cases', 'agents', 'support.ts')
    writeFileSync(agent, readFileSync(agent, 'utf8').replace('is cancelled;', 'is paused;'))
    const run = (...args: string[]) =>
      runCli(['run', 'cases/quickstart.yaml', '--out', 'reports', '--update-baseline', ...args], { cwd: dir })

    const refused = await run()
    expect(refused.code).toBe(1)
    expect(refused.stderr).toBe(
      'Baseline not updated: 1 case run failed and 0 errored (quickstart/cancel-subscription); a baseline records a good run. Fix them and run again with `--update-baseline`, or add `--force` to record this run as it is.\n',
    )
    expect(existsSync(join(dir, 'baselines', 'quickstart.json'))).toBe(false)
    const forced = await run('--force')
    expect(forced.code).toBe(1)
    expect(forced.stdout).toContain('Baseline  wrote baselines/quickstart.json\n')
    expect(readFileSync(join(dir, 'baselines', 'quickstart.json'), 'utf8')).toContain('"status": "failed"')
  }, 60_000)

  test('the committed example baseline passes offline: npx evals run cases/quickstart.yaml --baseline baselines', async () => {
    const out = mkdtempSync(join(tmpdir(), 'evals-e2e-'))
    const run = await runCli(['run', 'cases/quickstart.yaml', '--baseline', 'baselines', '--out', out])
    expect(run.stderr).toBe('')
    expect(run.code).toBe(0)
    expect(run.stdout).toContain('Compared  0 regressed · 0 improved · 10 unchanged · 0 new · 0 removed\n')
  })
})
