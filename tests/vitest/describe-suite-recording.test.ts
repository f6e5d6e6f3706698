import { spawnSync } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, expect, test } from 'vitest'
import { repo } from '../e2e/helpers.ts'

const fixture = join(import.meta.dirname, 'fixtures', 'recording')
let work: string | undefined

afterEach(() => {
  if (work !== undefined) rmSync(work, { recursive: true, force: true })
})

test("describeSuite with `cassettes: 'record'` whose cases call no model says it recorded nothing, in one line", () => {
  work = mkdtempSync(join(tmpdir(), 'evals-describe-recording-'))
  const suite = join(work, 'quiet.yaml')
  writeFileSync(
    suite,
    `suite: quiet\ntarget: { function: ${join(fixture, 'target.ts')}#echo }\ncases:\n  - id: hi\n    input: hi\n    expect: { contains: hi }\n`,
  )
  const vitest = spawnSync(
    process.execPath,
    [join(repo, 'node_modules', 'vitest', 'vitest.mjs'), 'run', '--configLoader=runner'],
    {
      cwd: fixture,
      encoding: 'utf8',
      env: {
        ...process.env,
        CI: '1',
        NO_COLOR: '1',
        FORCE_COLOR: '0',
        EVALS_FIXTURE_CACHE_DIR: join(work, 'cache'),
        EVALS_FIXTURE_SUITE: suite,
      },
    },
  )

  const output = `${vitest.stdout}${vitest.stderr}`
  expect(vitest.status, output).toBe(0)
  expect(output.split('\n').filter((line) => line.includes('recorded nothing'))).toEqual([
    `Warning: \`describeSuite(…, { cassettes: 'record' })\` recorded nothing into ${join(work, '__cassettes__', 'quiet.jsonl')}: no case made a model call through the engine, an SDK in this process, or the recording proxy a command target's \`OPENAI_BASE_URL\` / \`ANTHROPIC_BASE_URL\` point at (an http: target's calls happen in its own service).`,
  ])
}, 60_000)
