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
  // an ES-module package, as `evals init` writes one: without it Node 20 loads each .ts file as CommonJS, through tsx,
  // which turns the whole agent-evals bundle into CommonJS on every run (3.6 s a run instead of 1 s)
  writeFileSync(join(dir, 'package.json'), '{ "private": true, "type": "module" }\n')
  // the agent imports `agent-evals` and zod, as in a user's project
  mkdirSync(join(dir, 'node_modules'))
  symlinkSync(repo, join(dir, 'node_modules', 'agent-evals'))
  symlinkSync(join(repo, 'node_modules', 'zod'), join(dir, 'node_modules', 'zod'))
  const git = (...args: string[]): string => execFileSync('git', args, { cwd: dir, encoding: 'utf8' }).trim()
  git('init', '-q', '-b', 'main')
  git('add', 'cases', 'package.json')
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
  test('update, identical rerun, a missing baseline warns, then a broken agent fails its case; the gate warns on a one-trial critical drop unless strict', async () => {
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

    // a new suite never blocks (issue 34): without its baseline file it runs ungated, and says so and how to fix it
    const missing = await run('--baseline', 'nowhere')
    expect(missing.stderr).toBe('')
    expect(missing.code).toBe(0)
    expect(missing.stdout).toContain(
      'Baseline  none at `nowhere/quickstart.json`: this suite ran ungated. Create it with `evals run <case-file> --update-baseline`.\n' +
        'Gate      WARN\n' +
        '  ! No baseline at `nowhere/quickstart.json`, so this suite ran ungated (only floors apply). Create it with `evals run <case-file> --update-baseline`; `--baseline-missing error` makes a missing baseline stop the run.\n',
    )
    expect(missing.stdout).toContain(
      'Outcome   passed: all 10 case runs passed → exit 0 (`--fail-on failure`)\n',
    )
    expect(existsSync(join(dir, 'nowhere'))).toBe(false)

    // `ok` is the default, said out loud
    const first = await run('--baseline', 'nowhere', '--baseline-missing', 'ok')
    expect(first.code).toBe(0)
    expect(first.stdout).toContain(
      'Baseline  none at `nowhere/quickstart.json`: this suite ran ungated. Create it with `evals run <case-file> --update-baseline`.\n',
    )

    const strictMissing = await run('--baseline', 'nowhere', '--baseline-missing', 'error')
    expect(strictMissing.code).toBe(2)
    expect(strictMissing.stderr).toBe(
      'Baseline file `nowhere/quickstart.json` does not exist. Create it with `evals run <case-file> --update-baseline`, or drop `--baseline-missing error` to run this suite ungated.\n',
    )
    expect(strictMissing.stdout).toBe('')

    const agent = join(dir, 'cases', 'agents', 'support.ts')
    writeFileSync(agent, readFileSync(agent, 'utf8').replace('is cancelled;', 'is paused;'))
    // the case fails (exit 1 under the default `--fail-on failure`); one trial against the baseline's one cannot
    // tell the critical case's drop from noise (one-sided Fisher exact p = 0.5), so the gate warns with the reason
    const broken = await run('--baseline', 'baselines')
    expect(broken.code).toBe(1)
    expect(broken.stdout).toContain('✗ quickstart › cancel-subscription\n      contains:')
    expect(broken.stdout).toContain('  ↓ cancel-subscription 1/1 → 0/1 [billing, critical]\n')
    expect(broken.stdout).toContain(
      "Gate      WARN\n  ! Critical case `cancel-subscription` dropped: 1/1 → 0/1 trials passed (tagged `critical`), but 1 trial(s) against the baseline's 1 cannot tell a drop from noise (even 0/1 gives p = 0.5000 ≥ α = 0.05). Run more trials, give it a floor with `critical: { min_pass_rate: … }`, or set `strict_critical: true` to fail on any drop.\n",
    )
    expect(broken.stdout).toContain('Outcome   failed: 1 case run failed → exit 1 (`--fail-on failure`)\n')

    // a gate that only warned does not fail a job that fails on regressions alone
    const gateOnly = await run('--baseline', 'baselines', '--fail-on', 'regression')
    expect(gateOnly.code).toBe(0)
    expect(gateOnly.stdout).toContain(
      'Outcome   failed: 1 case run failed → exit 0 (`--fail-on regression`: fails only on a failed gate or errored cases)\n',
    )

    const strict = await run('--baseline', 'baselines', '--strict-critical', '--fail-on', 'regression')
    expect(strict.code).toBe(1)
    expect(strict.stdout).toContain(
      'Gate      FAIL (1 reason)\n  ✗ Critical case `cancel-subscription` dropped: 1/1 → 0/1 trials passed (tagged `critical`; `strict_critical` fails any drop).\n',
    )
    expect(strict.stdout).toContain(
      'Outcome   regressed: the gate failed (1 reason) → exit 1 (`--fail-on regression`)\n',
    )

    const compared = await runCli(['compare', 'reports', 'baselines/quickstart.json'], { cwd: dir })
    expect(compared.code).toBe(0)
    expect(compared.stdout).toContain(
      'Gate      WARN\n  ! Critical case `cancel-subscription` dropped: 1/1 → 0/1',
    )
    const comparedStrict = await runCli(
      ['compare', 'reports', 'baselines/quickstart.json', '--strict-critical'],
      { cwd: dir },
    )
    expect(comparedStrict.code).toBe(1)
    expect(comparedStrict.stdout).toContain(
      'Gate      FAIL (1 reason)\n  ✗ Critical case `cancel-subscription` dropped: 1/1 → 0/1 trials passed (tagged `critical`; `strict_critical` fails any drop).\n',
    )

    const shown = await runCli(['baseline', 'show', 'baselines/quickstart.json'], { cwd: dir })
    expect(shown.code).toBe(0)
    expect(shown.stdout).toContain(
      `Taken     ${baseline.createdAt} · commit ${headOf(dir).slice(0, 12)} (main)\n`,
    )
  }, 180_000) // a dozen whole runs of the built bin: 15 s alone, more beside the typecheck and lint on 2 cores

  test('--update-baseline refuses a run with a failing case and names it; --force writes it anyway', async () => {
    const dir = project()
    const agent = join(dir, 'cases', 'agents', 'support.ts')
    writeFileSync(agent, readFileSync(agent, 'utf8').replace('is cancelled;', 'is paused;'))
    const run = (...args: string[]) =>
      runCli(['run', 'cases/quickstart.yaml', '--out', 'reports', '--update-baseline', ...args], { cwd: dir })

    const refused = await run()
    expect(refused.code).toBe(1)
    expect(refused.stderr).toBe(
      'Baseline of `quickstart` not updated: 1 failed (`cancel-subscription`); a baseline records a good run. Fix them, mark a known failure with `expect_fail: true`, or add `--force` to record this run as it is.\n',
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
