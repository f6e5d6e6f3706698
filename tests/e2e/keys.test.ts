import { mkdtempSync, readdirSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, relative } from 'node:path'
import { beforeAll, describe, expect, test } from 'vitest'
import { ensureBuilt, repo, runCli } from './helpers.ts'

const fixtures = join(import.meta.dirname, 'fixtures')
const out = (): string => mkdtempSync(join(tmpdir(), 'evals-e2e-keys-'))
const noKeys = { OPENAI_API_KEY: '', ANTHROPIC_API_KEY: '' }

beforeAll(() => {
  ensureBuilt()
}, 120_000)

describe('missing API keys and other known errors from user modules (built bin)', () => {
  test('a missing agent key is one line naming the variable and the case file, before any case runs', async () => {
    const dir = out()
    const run = await runCli(['run', join(fixtures, 'needs-key.yaml'), '--out', dir], { env: noKeys })
    expect(run.code).toBe(2)
    expect(run.stderr).toBe(
      `${relative(repo, join(fixtures, 'needs-key.yaml'))}: \`model\`: No API key for \`openai:gpt-4.1-mini\`: ` +
        'set the OPENAI_API_KEY environment variable.\n',
    )
    expect(readdirSync(dir)).toEqual([])
  })

  test('a missing judge key is found before the first case, not once per case', async () => {
    const dir = out()
    const file = join(fixtures, 'keys', 'judge-needs-key.yaml')
    const run = await runCli(['run', file, '--out', dir], { env: noKeys })
    expect(run.code).toBe(2)
    expect(run.stderr).toBe(
      `${relative(repo, file)}: \`judge.model\`: No API key for \`anthropic:claude-haiku-4-5\`: ` +
        'set the ANTHROPIC_API_KEY environment variable.\n',
    )
    expect(readdirSync(dir)).toEqual([])
  })

  test('without a judge model a judged case passes partially; --require-judges makes that a run that could not happen', async () => {
    const file = join(fixtures, 'keys', 'judged-no-model.yaml')
    const partial = await runCli(['run', file, '--out', out(), '--reporter', 'console'], { env: noKeys })
    expect(partial.code).toBe(0)
    expect(partial.stdout).toMatch(
      /✓ judged-no-model › a \S+ — partial: 1 of 2 checks ran \(skipped: rubric\)/,
    )
    expect(partial.stdout).toMatch(/Cases\s+0 passed · 1 partial · 0 failed/)

    const dir = out()
    const required = await runCli(['run', file, '--out', dir, '--require-judges'], { env: noKeys })
    expect(required.code).toBe(2)
    expect(required.stderr).toBe(
      `${relative(repo, file)}: cases have LLM judges but no judge model is set, and --require-judges does not ` +
        'let them be skipped: set `judge.model` in the file or pass `--judge openai:gpt-4.1-mini`.\n',
    )
    expect(readdirSync(dir)).toEqual([])
  })

  test('an EvalsError thrown by a user module importing its own copy of the package prints no stack', async () => {
    const run = await runCli(['run', join(fixtures, 'keys', 'agent-throws.yaml'), '--out', out()])
    expect(run.code).toBe(2)
    // prefixed with where the error came from: the case file's agent and its factory
    expect(run.stderr).toBe(
      'tests/e2e/fixtures/keys/agent-throws.yaml: target.agent: `createAgent` in `tests/e2e/fixtures/keys/throwing-agent.ts`: ' +
        'acme: no API key: set the ACME_API_KEY environment variable.\n',
    )
  })
})
