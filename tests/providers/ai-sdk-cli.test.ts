import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeAll, beforeEach, expect, test } from 'vitest'
import { ensureBuilt, repo, runCli } from '../e2e/helpers.ts'

let dir: string
beforeAll(() => {
  ensureBuilt()
}, 120_000)
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'evals-ai-sdk-cli-'))
})
afterEach(() => {
  rmSync(dir, { recursive: true, force: true })
})

test('a case file whose model needs a provider package that is not installed is one line and exit 2, before any case runs', async () => {
  writeFileSync(
    join(dir, 'cases.yaml'),
    `suite: gemini
target:
  agent: ${JSON.stringify(join(repo, 'cases', 'agents', 'support.ts'))}
model: google:gemini-2.5-flash
cases:
  - { id: a, input: Look up user u-1, expect: { tool: lookup_user } }
`,
  )
  const out = join(dir, 'reports')
  const run = await runCli(['run', 'cases.yaml', '--out', out], {
    cwd: dir,
    env: { GOOGLE_GENERATIVE_AI_API_KEY: 'g-key' },
  })
  expect(run.stderr).toBe(
    'cases.yaml: `model`: `google:gemini-2.5-flash` needs the `@ai-sdk/google` package: run `npm install @ai-sdk/google`.\n',
  )
  expect(run.code).toBe(2)
  expect(readdirSync(dir)).toEqual(['cases.yaml'])
})
