import { spawnSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { repo } from '../e2e/helpers.ts'

// two case files in one worker, one with a `snapshot: strict` case whose stored output differs
const fixture = join(import.meta.dirname, 'fixtures', 'services')

interface TestResult {
  fullName: string
  status: string
  failureMessages: string[]
}

let work: string
let tests: TestResult[]
let snapshotFile: string

beforeAll(() => {
  work = mkdtempSync(join(tmpdir(), 'evals-describe-services-'))
  const snapshots = join(work, 'snapshots')
  mkdirSync(snapshots)
  snapshotFile = join(snapshots, 'acme.snapshots.json')
  writeFileSync(
    snapshotFile,
    JSON.stringify({ version: 1, suite: 'acme', snapshots: { strict: { output: 'the old answer' } } }),
  )
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
      env: {
        ...process.env,
        CI: '1',
        EVALS_FIXTURE_CACHE_DIR: join(work, 'cache'),
        EVALS_FIXTURE_SNAPSHOTS: snapshots,
      },
    },
  )
  expect(vitest.status, `${vitest.stdout}${vitest.stderr}`).toBe(1)
  const report = JSON.parse(readFileSync(outputFile, 'utf8')) as {
    testResults: { assertionResults: TestResult[] }[]
  }
  tests = report.testResults.flatMap((file) => file.assertionResults)
}, 60_000)

afterAll(() => {
  rmSync(work, { recursive: true, force: true })
})

const failureOf = (name: string): string =>
  tests.find((entry) => entry.fullName === name)?.failureMessages.join('\n') ?? `no test ${name}`

test('a `snapshot: strict` case whose output moved fails its test, as under `evals run`', () => {
  expect(tests.find((entry) => entry.fullName === 'acme.yaml strict')?.status).toBe('failed')
  expect(failureOf('acme.yaml strict')).toContain('the output changed from its snapshot')
  // the stored snapshot stays as it was: only --update-snapshots replaces it
  expect(readFileSync(snapshotFile, 'utf8')).toContain('the old answer')
})

test("each file's `redact:` patterns hide its secrets from vitest's output, and only its own", () => {
  const acme = failureOf('acme.yaml fails-with-secret')
  const beta = failureOf('beta.yaml fails-with-secret')
  expect(acme).not.toContain('ACME-123456')
  expect(acme).toContain('BETA-654321')
  expect(beta).not.toContain('BETA-654321')
  expect(beta).toContain('ACME-123456')
})
