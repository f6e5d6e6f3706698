import { spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { hostname } from 'node:os'
import { join } from 'node:path'
import { expect, test, vi } from 'vitest'
import { loadSuites } from '../../src/cases/load.ts'
import { ConfigError } from '../../src/errors.ts'
import { lockRunFolder } from '../../src/runner/results/run-lock.ts'
import { resumeRun } from '../../src/runner/resume-run.ts'
import { runSuites } from '../../src/runner/run-suite.ts'
import { tempDir } from './helpers.ts'
import { rowsOf, writeCaseFile } from './resume-fixtures.ts'

test('two resumes of one run at once: one runs the missing pairs, the other is refused; no row is doubled', async () => {
  const work = tempDir()
  const suites = await loadSuites([writeCaseFile(work, 'locked', 40, { trials: 2 })])
  const clean = await runSuites(suites, { outDir: work, runId: 'clean', concurrency: 4 })
  await runSuites(suites, { outDir: work, runId: 'cut', concurrency: 4 })
  // killed after its first 10 rows
  const results = join(work, 'cut', 'results.jsonl')
  writeFileSync(results, readFileSync(results, 'utf8').split('\n').slice(0, 10).join('\n') + '\n')
  rmSync(join(work, 'cut', 'summary.json'))
  const first = await resumeRun(join(work, 'cut'), { force: false })
  const second = await resumeRun(join(work, 'cut'), { force: false })
  const outcomes = await Promise.allSettled([
    runSuites(first.suites, first.options),
    runSuites(second.suites, second.options),
  ])
  const refused = outcomes.filter((outcome) => outcome.status === 'rejected')
  expect(refused).toHaveLength(1)
  expect((refused[0] as PromiseRejectedResult).reason).toBeInstanceOf(ConfigError)
  expect(String((refused[0] as PromiseRejectedResult).reason)).toContain('Another process is running')
  // without the lock both resumes append the 69 missing rows
  expect(rowsOf(results)).toEqual(rowsOf(clean.resultsFile))
  // the lock goes with the run that held it
  expect(existsSync(join(work, 'cut', '.lock'))).toBe(false)
  expect(existsSync(join(work, 'cut', '.lock.json'))).toBe(false)
})

test('a folder locked by another run is refused with what to do; released, it can be locked again', async () => {
  const dir = join(tempDir(), 'run')
  const release = await lockRunFolder(dir)
  const refused: unknown = await lockRunFolder(dir).catch((error: unknown) => error)
  expect(refused).toBeInstanceOf(ConfigError)
  expect((refused as Error).message).toMatch(/Another process is running .*run.*try again in 15 s\.$/)
  await release()
  const again = await lockRunFolder(dir)
  await again()
})

test('a lock left by a killed process of this machine is taken over at once', async () => {
  const dir = join(tempDir(), 'run')
  // the lock a `kill -9` leaves: the folder, naming a process that has ended
  const { pid } = spawnSync(process.execPath, ['-e', ''])
  mkdirSync(join(dir, '.lock'), { recursive: true })
  writeFileSync(join(dir, '.lock.json'), JSON.stringify({ pid, host: hostname() }))
  const release = await lockRunFolder(dir)
  await release()
  // a live holder is not: this process
  mkdirSync(join(dir, '.lock'))
  writeFileSync(join(dir, '.lock.json'), JSON.stringify({ pid: process.pid, host: hostname() }))
  await expect(lockRunFolder(dir)).rejects.toThrow('Another process is running')
})

test('a run longer than the lock’s refresh keeps its lock to the end and releases it', async () => {
  const dir = join(tempDir(), 'run')
  const lockDir = join(dir, '.lock')
  // proper-lockfile refreshes every 7.5 s (half its 15 s stale time); anything that touches the lock folder meanwhile
  // makes it think the lock was taken over. The clock moves 8 s, not the test: the refresh's file I/O is real
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] })
  try {
    const release = await lockRunFolder(dir)
    const locked = statSync(lockDir).mtimeMs
    await vi.advanceTimersByTimeAsync(8_000)
    // the refresh stamped the lock with its time (a lock it thought taken over it would leave as it was)
    await vi.waitFor(() => {
      expect(statSync(lockDir).mtimeMs).toBeGreaterThanOrEqual(locked + 7_000)
    })
    await expect(lockRunFolder(dir)).rejects.toThrow('Another process is running')
    await release()
    expect(existsSync(lockDir)).toBe(false)
  } finally {
    vi.useRealTimers()
  }
})
