import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import { loadSuites } from '../../src/cases/load.ts'
import { ConfigError } from '../../src/errors.ts'
import { readPlan } from '../../src/runner/plan/run-json.ts'
import { runSuites } from '../../src/runner/run-suite.ts'
import { parseShard, selectShard, shardOf } from '../../src/runner/plan/shard.ts'
import { caseOf, suiteOf, tempDir } from './helpers.ts'
import { rowsOf, writeCaseFile } from './resume-fixtures.ts'

const ids = Array.from({ length: 100 }, (_, i) => `case-${String(i)}`)

describe('shards', () => {
  test('parses i/n and rejects anything else with the flag in the message', () => {
    expect(parseShard('2/4')).toEqual({ index: 2, count: 4 })
    for (const bad of ['0/4', '5/4', '1/0', '1', 'a/b', '1/2/3']) {
      expect(() => parseShard(bad)).toThrow(ConfigError)
    }
    expect(() => parseShard('5/4')).toThrow(
      'evals run: `--shard` must be `i/n` with 1 ≤ i ≤ n, e.g. `--shard 2/4`, got "5/4".',
    )
  })

  test('the union of shards 1..n is every case exactly once, and each shard gets some', () => {
    const suite = suiteOf(ids.map((id) => caseOf(id)))
    const shards = [1, 2, 3, 4].map((index) => selectShard([suite], { index, count: 4 })[0]?.cases ?? [])
    const all = shards.flatMap((cases) => [...cases].map((c) => c.id))

    expect(all.sort()).toEqual([...ids].sort())
    for (const cases of shards) expect(cases.length).toBeGreaterThan(5)
  })

  test('a case lands in the same shard whatever the file order, and adding cases moves none', () => {
    const forward = suiteOf(ids.map((id) => caseOf(id)))
    const reversed = suiteOf([...ids].reverse().map((id) => caseOf(id)))
    const grown = suiteOf([caseOf('new-1'), ...ids.map((id) => caseOf(id)), caseOf('new-2')])
    const shardMap = (suite: typeof forward): Map<string, number> => {
      const map = new Map<string, number>()
      for (const index of [1, 2, 3])
        for (const c of selectShard([suite], { index, count: 3 })[0]?.cases ?? []) map.set(c.id, index)
      return map
    }
    const expected = shardMap(forward)

    for (const id of ids) {
      expect(shardMap(reversed).get(id)).toBe(expected.get(id))
      expect(shardMap(grown).get(id)).toBe(expected.get(id))
      expect(shardOf('demo', id, 3)).toBe(expected.get(id))
    }
  })

  test('a sharded run runs every trial of its cases only and records the shard in run.json and the report', async () => {
    const work = tempDir()
    const suites = await loadSuites([writeCaseFile(work, 'sharded', 20, { trials: 2 })])
    const report = await runSuites(suites, { outDir: work, runId: 's2', shard: { index: 2, count: 3 } })
    const mine = [...(suites[0]?.cases ?? [])].filter((c) => shardOf('sharded', c.id, 3) === 2)
    const pairs = mine.map((c) => (c.skip === undefined ? 2 : 1)).reduce((a, b) => a + b, 0)

    expect(report.shard).toEqual({ index: 2, count: 3 })
    expect(report.total).toBe(pairs)
    expect(rowsOf(report.resultsFile)).toHaveLength(pairs)
    const plan = await readPlan(join(work, 's2'), 'test')
    expect(plan.shard).toEqual({ index: 2, count: 3 })
    expect(plan.suites).toEqual([expect.objectContaining({ name: 'sharded', fileHash: suites[0]?.fileHash })])
  })
})
