import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import { loadSuites } from '../../src/cases/load.ts'
import { ConfigError } from '../../src/errors.ts'
import { mergeRuns } from '../../src/runner/merge.ts'
import { runSuites } from '../../src/runner/run-suite.ts'
import { tempDir } from '../runner/helpers.ts'
import { rowsOf, writeCaseFile } from '../runner/resume-fixtures.ts'

async function shardRuns(work: string, count: number, trials = 2) {
  const file = writeCaseFile(work, 'merged', 40, { trials })
  const suites = await loadSuites([file])
  const full = await runSuites(suites, { outDir: work, runId: 'full' })
  for (let index = 1; index <= count; index++)
    await runSuites(suites, { outDir: work, runId: `shard-${String(index)}`, shard: { index, count } })
  return { file, full, dirs: Array.from({ length: count }, (_, i) => join(work, `shard-${String(i + 1)}`)) }
}

describe('evals merge', () => {
  test('merging shards 1..n equals an unsharded run: counts, cases and rows', async () => {
    const work = tempDir()
    const { full, dirs } = await shardRuns(work, 3)
    const merged = await mergeRuns([dirs[2] ?? '', join(dirs[0] ?? '', 'summary.json'), dirs[1] ?? ''], {
      out: join(work, 'merged'),
    })

    expect(merged.counts).toEqual(full.counts)
    expect(merged.total).toBe(full.total)
    expect(merged.notRun).toBe(0)
    expect(merged.accuracy).toBe(full.accuracy)
    expect([...merged.cases].map((c) => [c.id, c.status, c.passes])).toEqual(
      [...full.cases].map((c) => [c.id, c.status, c.passes]),
    )
    expect(merged.shard).toBeUndefined()
    expect(rowsOf(merged.resultsFile)).toEqual(rowsOf(full.resultsFile))
    const summary = JSON.parse(readFileSync(join(work, 'merged', 'summary.json'), 'utf8')) as {
      counts: unknown
    }
    expect(summary.counts).toEqual(full.counts)
  })

  test('refuses the same shard twice', async () => {
    const work = tempDir()
    const { dirs } = await shardRuns(work, 2, 1)
    const error = await mergeRuns([dirs[0] ?? '', dirs[0] ?? ''], { out: join(work, 'm') }).catch(
      (e: unknown) => e,
    )
    expect(error).toBeInstanceOf(ConfigError)
    expect((error as Error).message).toBe(
      `evals merge: shards overlap: \`${dirs[0] ?? ''}\` and \`${dirs[0] ?? ''}\` are both 1/2.`,
    )
  })

  test('refuses shards of different splits and an unsharded run beside shards', async () => {
    const work = tempDir()
    const { dirs } = await shardRuns(work, 2, 1)
    await expect(mergeRuns([dirs[0] ?? '', join(work, 'full')], { out: join(work, 'm') })).rejects.toThrow(
      /^evals merge: shards overlap: `.*full` is unsharded but `.*shard-1` is of 2/,
    )
  })

  test('refuses runs of different suites', async () => {
    const work = tempDir()
    const { dirs } = await shardRuns(work, 2, 1)
    const other = writeCaseFile(work, 'other', 5)
    await runSuites(await loadSuites([other]), {
      outDir: work,
      runId: 'other',
      shard: { index: 2, count: 2 },
    })
    await expect(mergeRuns([dirs[0] ?? '', join(work, 'other')], { out: join(work, 'm') })).rejects.toThrow(
      /did not run the same suites as .*suites other vs merged\); only shards of one run can be merged\.$/,
    )
  })

  test('refuses a split with a shard missing, so a CI job that lost one cannot pass on the others', async () => {
    const work = tempDir()
    const { dirs } = await shardRuns(work, 3, 1)
    const error = await mergeRuns([dirs[0] ?? '', dirs[2] ?? ''], { out: join(work, 'm') }).catch(
      (e: unknown) => e,
    )
    expect(error).toBeInstanceOf(ConfigError)
    expect((error as Error).message).toBe(
      'evals merge: shard 2/3 missing: got 2 of the 3 shards of the split. Merge every shard, or add ' +
        "`--allow-missing-shards` to merge these and count the missing shards' cases as not run.",
    )
  })

  test('with allowMissingShards, warns about a missing shard and counts its pairs as not run', async () => {
    const work = tempDir()
    const { dirs, full } = await shardRuns(work, 3, 1)
    const warnings: string[] = []
    const merged = await mergeRuns([dirs[0] ?? '', dirs[2] ?? ''], {
      out: join(work, 'm'),
      allowMissingShards: true,
      warn: (m) => warnings.push(m),
    })
    expect(warnings).toEqual(['merging 2 of 3 shards; shard 2/3 missing, their cases count as not run'])
    expect(merged.stoppedBy).toBeUndefined()
    expect(merged.total).toBe(full.total)
    expect(merged.notRun).toBe(full.total - rowsOf(merged.resultsFile).length)
    expect(merged.notRun).toBeGreaterThan(0)
  })

  test('refuses when a case file changed since the shards ran', async () => {
    const work = tempDir()
    const { dirs, file } = await shardRuns(work, 2, 1)
    writeFileSync(file, readFileSync(file, 'utf8').replace('input: ok-c1 }', 'input: ok-c1-new }'))
    await expect(mergeRuns(dirs, { out: join(work, 'm') })).rejects.toThrow(/1 case changed since the run/)
  })

  test('compares the merged run with a baseline and gates it, as an unsharded run would', async () => {
    const work = tempDir()
    const { file } = await shardRuns(work, 2, 1)
    const suites = await loadSuites([file])
    const baselineDir = join(work, 'baselines')
    // the cases include failing ones: the baseline records them as they are
    await runSuites(suites, {
      outDir: work,
      runId: 'blessed',
      updateBaseline: { dir: baselineDir, force: true },
    })
    const whole = await runSuites(suites, { outDir: work, runId: 'whole', baseline: { path: baselineDir } })
    const merged = await mergeRuns([join(work, 'shard-1'), join(work, 'shard-2')], {
      out: join(work, 'm'),
      baseline: { path: baselineDir },
    })

    expect(merged.comparison).toBeDefined()
    expect(merged.gate?.decision).toBe(whole.gate?.decision)
    expect(merged.suiteStats[0]?.baselineFile).toBe(join(baselineDir, 'merged.json'))
  })
})
