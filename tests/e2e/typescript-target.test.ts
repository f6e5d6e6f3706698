import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { beforeAll, expect, test } from 'vitest'
import { ensureBuilt, runCli } from './helpers.ts'

beforeAll(() => {
  ensureBuilt()
}, 120_000)

test('an error a TypeScript target throws is recorded with the TypeScript file and line', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'evals-ts-target-'))
  writeFileSync(join(dir, 'package.json'), '{ "type": "module" }\n')
  writeFileSync(
    join(dir, 'fail.ts'),
    'type Input = string\n\nexport function fail(input: Input): never {\n  throw new Error(input)\n}\n',
  )
  writeFileSync(
    join(dir, 'cases.yaml'),
    'suite: s\ntarget:\n  function: ./fail.ts#fail\ncases:\n  - id: a\n    input: hi\n    expect: { contains: hi }\n',
  )

  const run = await runCli(['run', 'cases.yaml', '--reporter', 'console,json', '--out', 'out'], { cwd: dir })

  expect(run.code).toBe(2) // the only case errored
  const [runDir = ''] = readdirSync(join(dir, 'out'))
  const result = JSON.parse(
    readFileSync(join(dir, 'out', runDir, 'results.jsonl'), 'utf8').split('\n')[0] ?? '',
  ) as {
    error?: { stack?: string }
  }
  expect(result.error?.stack).toContain(`at fail (${join(dir, 'fail.ts')}:4:`)
})
