import { spawnSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { basename, join } from 'node:path'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { loadSuite } from '../../src/cases/load.ts'
import type { CaseResult } from '../../src/model/case-result.ts'
import { runSuite } from '../../src/runner/run-suite.ts'
import type { EvalsTaskMeta } from '../../src/vitest/describe-suite.ts'
import { repo } from '../e2e/helpers.ts'

// four variants of one suite: the file's, other vars (`v2`), another target (`loud`), another model (`big`)
const fixture = join(import.meta.dirname, 'fixtures', 'variants')

interface TestResult {
  fullName: string
  status: string
  failureMessages: string[]
  meta: { evals?: EvalsTaskMeta }
}

/** the tests of each spec file of the fixture, by file name */
const byFile = new Map<string, TestResult[]>()
let tests: TestResult[]

const dirs: string[] = []
const tempDir = (): string => {
  const dir = mkdtempSync(join(tmpdir(), 'evals-describe-variants-'))
  dirs.push(dir)
  return dir
}
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true })
})

beforeAll(() => {
  const work = tempDir()
  const outputFile = join(work, 'vitest.json')
  const vitest = spawnSync(
    process.execPath,
    [
      join(repo, 'node_modules', 'vitest', 'vitest.mjs'),
      'run',
      '--configLoader=runner',
      '--reporter=json',
      `--outputFile=${outputFile}`,
    ],
    {
      cwd: fixture,
      encoding: 'utf8',
      // the fixture's vite cache is this run's own: see its vitest.config.ts
      env: { ...process.env, CI: '1', EVALS_FIXTURE_CACHE_DIR: join(work, 'cache') },
    },
  )
  // the fixture's failing cases fail their tests: exit code 1, with a report
  expect(vitest.status, `${vitest.stdout}${vitest.stderr}`).toBe(1)
  const report = JSON.parse(readFileSync(outputFile, 'utf8')) as {
    testResults: { name: string; assertionResults: TestResult[] }[]
  }
  for (const file of report.testResults) byFile.set(basename(file.name), file.assertionResults)
  tests = byFile.get('suite.spec.ts') ?? []
}, 60_000)

test('describeSuite makes one test per (case, variant, trial), named `case [variant]`', () => {
  expect(tests.map((entry) => `${entry.status} ${entry.fullName}`)).toEqual([
    'passed cases.yaml greet [v1] [trial 1/2]',
    'passed cases.yaml greet [v1] [trial 2/2]',
    'passed cases.yaml greet [v2] [trial 1/2]',
    'passed cases.yaml greet [v2] [trial 2/2]',
    'passed cases.yaml greet [loud] [trial 1/2]',
    'passed cases.yaml greet [loud] [trial 2/2]',
    'passed cases.yaml greet [big] [trial 1/2]',
    'passed cases.yaml greet [big] [trial 2/2]',
    'failed cases.yaml version [v1]',
    'passed cases.yaml version [v2]',
    'failed cases.yaml version [loud]',
    'failed cases.yaml version [big]',
    'skipped cases.yaml later [v1]',
    'skipped cases.yaml later [v2]',
    'skipped cases.yaml later [loud]',
    'skipped cases.yaml later [big]',
  ])
})

test("applies each variant's vars, target and model, and names the variant in a failure", () => {
  const failure = (name: string): string =>
    tests.find((entry) => entry.fullName === `cases.yaml ${name}`)?.failureMessages[0] ?? ''
  expect(failure('version [v1]')).toContain('Case `version` under variant `v1` failed')
  expect(failure('version [v1]')).toContain('Output: "v1 on local: which"')
  expect(failure('version [loud]')).toContain('Output: "WHICH"')
  expect(failure('version [big]')).toContain('Output: "v1 on house-model-xl: which"')
  const v2 = tests.find((entry) => entry.fullName === 'cases.yaml version [v2]')
  expect(v2?.meta.evals).toMatchObject({
    suite: 'compare',
    variant: 'v2',
    caseId: 'version',
    status: 'passed',
  })
})

test('grades every (case, variant, trial) as `evals run` does', async () => {
  const dir = tempDir()
  const report = await runSuite(await loadSuite(join(fixture, 'cases.yaml')), { outDir: dir, runId: 'cli' })
  const rows = readFileSync(report.resultsFile, 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as CaseResult)
  const key = (pair: {
    variant?: string | undefined
    caseId: string
    trial: number
    status: string
  }): string => `${String(pair.variant)}/${pair.caseId}#${pair.trial}:${pair.status}`
  const graded = tests.flatMap((entry) => (entry.meta.evals ? [key(entry.meta.evals)] : []))
  const cli = rows.filter((row) => row.status !== 'skipped').map(key)
  expect(graded.sort()).toEqual(cli.sort())
  expect(graded).toHaveLength(12)
})

test('describeSuite compares several models as variants named after them', () => {
  const models = byFile.get('models.spec.ts') ?? []
  expect(models.map((entry) => `${entry.status} ${entry.fullName}`)).toEqual([
    'passed cases.yaml greet [local] [trial 1/2]',
    'passed cases.yaml greet [local] [trial 2/2]',
    'passed cases.yaml greet [house-model-xl] [trial 1/2]',
    'passed cases.yaml greet [house-model-xl] [trial 2/2]',
    'failed cases.yaml version [local]',
    'failed cases.yaml version [house-model-xl]',
    'skipped cases.yaml later [local]',
    'skipped cases.yaml later [house-model-xl]',
  ])
  const big = models.find((entry) => entry.fullName === 'cases.yaml version [house-model-xl]')
  expect(big?.failureMessages[0]).toContain('Output: "v1 on house-model-xl: which"')
})
