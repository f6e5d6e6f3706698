import { spawnSync } from 'node:child_process'
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { ensureBuilt, repo } from '../e2e/helpers.ts'

const fixture = join(repo, 'tests', 'fixtures', 'vitest-project')
const dir = mkdtempSync(join(tmpdir(), 'evals-vitest-project-'))

interface Manifest {
  dependencies: Record<string, string>
  devDependencies: Record<string, string>
}

function run(command: string, args: readonly string[]): { code: number | null; output: string } {
  const result = spawnSync(command, args, { cwd: dir, encoding: 'utf8', env: { ...process.env, CI: '1' } })
  return { code: result.status, output: `${result.stdout}${result.stderr}` }
}

beforeAll(() => {
  ensureBuilt()
  cpSync(fixture, dir, { recursive: true })
  // the fixture's manifest is kept as package.fixture.json so the repo's typecheck resolves `agent-evals` to itself
  const manifest = JSON.parse(readFileSync(join(dir, 'package.fixture.json'), 'utf8')) as Manifest
  rmSync(join(dir, 'package.fixture.json'))
  manifest.dependencies['agent-evals'] = `file:${repo}`
  // everything else links to this checkout's copies: offline, and one vitest instance for agent-evals and the tests
  for (const deps of [manifest.dependencies, manifest.devDependencies]) {
    for (const name of Object.keys(deps)) {
      if (name !== 'agent-evals') deps[name] = `file:${join(repo, 'node_modules', name)}`
    }
  }
  writeFileSync(join(dir, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`)
  const install = run('npm', [
    'install',
    '--no-audit',
    '--no-fund',
    '--offline',
    '--install-links=false',
    '--ignore-scripts',
    '--no-package-lock',
  ])
  if (install.code !== 0) throw new Error(`npm install failed:\n${install.output}`)
}, 120_000)

afterAll(() => {
  rmSync(dir, { recursive: true, force: true })
})

test('the example project installs agent-evals by path and its types check', () => {
  expect(existsSync(join(dir, 'node_modules', 'agent-evals', 'dist', 'vitest', 'index.js'))).toBe(true)
  const tsc = run(process.execPath, [join(dir, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', '.'])
  expect(tsc.output).toBe('')
  expect(tsc.code).toBe(0)
}, 60_000)

test('vitest runs the matchers and describeSuite, keeping per-case metadata in the JSON report', () => {
  const vitest = run(process.execPath, [
    join(dir, 'node_modules', 'vitest', 'vitest.mjs'),
    'run',
    '--reporter=json',
    '--outputFile=report.json',
  ])
  expect(vitest.code, vitest.output).toBe(0)
  const report = JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8')) as {
    testResults: {
      assertionResults: { fullName: string; status: string; meta: { evals?: Record<string, unknown> } }[]
    }[]
  }
  const tests = report.testResults
    .flatMap((file) => file.assertionResults)
    .map((result) => `${result.status} ${result.fullName}`)
    .sort()
  expect(tests).toEqual([
    'passed cases/support.yaml cancel-subscription',
    'passed cases/support.yaml cancel-subscription',
    'passed cases/support.yaml lookup-user [trial 1/2]',
    'passed cases/support.yaml lookup-user [trial 1/2]',
    'passed cases/support.yaml lookup-user [trial 2/2]',
    'passed cases/support.yaml lookup-user [trial 2/2]',
    'passed cases/support.yaml open-ticket',
    'passed cases/support.yaml open-ticket',
    'passed support agent cancels for the right user and says so',
    'passed support agent looks the user up before cancelling',
    'passed support agent opens a ticket whose answer is structured',
    'skipped cases/support.yaml refund',
    'skipped cases/support.yaml refund',
  ])
  const cancel = report.testResults
    .flatMap((file) => file.assertionResults)
    .find((result) => result.fullName === 'cases/support.yaml cancel-subscription')
  expect(cancel?.meta.evals).toMatchObject({
    suite: 'support',
    caseId: 'cancel-subscription',
    trial: 0,
    status: 'passed',
    score: 1,
    tags: ['billing'],
    costUsd: 0,
    verdicts: [
      { evaluator: 'no_pii', pass: true, reason: expect.any(String) as string },
      { evaluator: 'tool_args', pass: true, reason: expect.any(String) as string },
      { evaluator: 'contains', pass: true, reason: 'output contains `cancelled`' },
    ],
  })
}, 60_000)
