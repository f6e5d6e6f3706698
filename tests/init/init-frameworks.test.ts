import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { startMockLlmServer } from '../../src/testing/index.ts'
import type { MockLlmServer } from '../../src/testing/index.ts'
import { packedProject } from '../packed/packed-install.ts'
import { evalsBin, packageName, run, runAsync, tscIn } from './packed-project.ts'

// `evals init --framework X` in a project installed from the packed tarball: the scaffolded agent is built with
// that framework's real package, passes tsc, and its case runs through the adapter against our mock LLM server,
// which stands in for OpenAI (the agent reads OPENAI_BASE_URL). Mastra needs Node >= 22: npm run test:frameworks.

/** A project with the packed package installed and no package.json unless `files` has one: init writes it. */
const projectWith = (files: Record<string, string> = {}): string =>
  packedProject({ manifest: null, files }).dir
const evals = (dir: string, args: readonly string[]) => run(dir, process.execPath, [evalsBin(dir), ...args])

let llm: MockLlmServer
beforeAll(async () => {
  llm = await startMockLlmServer({})
})
afterAll(async () => {
  await llm.close()
})

const FRAMEWORKS = [
  { name: 'ai-sdk', packages: ['ai', '@ai-sdk/openai'] },
  { name: 'openai-agents', packages: ['@openai/agents'] },
  { name: 'langgraph', packages: ['@langchain/langgraph', '@langchain/core', '@langchain/openai'] },
] as const

describe('evals init --framework, each in its own folder of one project', () => {
  let dir = ''
  beforeAll(() => {
    dir = projectWith()
  })

  test.each(FRAMEWORKS)(
    '$name: scaffolds an agent of that framework, adds its packages, and leaves the baseline for a real key',
    ({ name, packages }) => {
      const init = evals(dir, ['init', '--yes', '--framework', name, '--dir', name])
      expect(init.code, init.output).toBe(0)
      expect(init.output).toContain(`  created  ${name}/agent.ts`)
      expect(init.output).toContain(
        '  skipped  the first baseline: set the API key of `openai:gpt-4.1-mini`, then run `npm run evals:baseline`',
      )
      const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as {
        devDependencies: Record<string, string>
      }
      expect(Object.keys(manifest.devDependencies)).toEqual(
        expect.arrayContaining([packageName, 'zod', ...packages]),
      )
      const cases = readFileSync(join(dir, name, 'cases/support.yaml'), 'utf8')
      expect(cases).toContain('model: openai:gpt-4.1-mini')
      expect(cases).toContain(`agent: ../agent.ts # exports createAgent({ model }), an agent of ${name}`)
    },
    60_000,
  )

  test('the workflow passes the OpenAI key, and every agent file passes tsc', () => {
    const workflow = readFileSync(join(dir, '.github/workflows/evals.yml'), 'utf8')
    expect(workflow).toContain("env: { OPENAI_API_KEY: '${{ secrets.OPENAI_API_KEY }}' }")
    // the first init wrote tsconfig.json for its folder; one tsc run checks the three
    const tsconfig = JSON.parse(readFileSync(join(dir, 'tsconfig.json'), 'utf8')) as { include: string[] }
    expect(tsconfig.include).toEqual([FRAMEWORKS[0].name])
    tsconfig.include = FRAMEWORKS.map(({ name }) => name)
    writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify(tsconfig))
    const tsc = tscIn(dir)
    expect(tsc.output).toBe('')
    expect(tsc.code).toBe(0)
  }, 120_000)

  test.each(FRAMEWORKS)(
    '$name: its case runs through the adapter, the tool call and the answer recorded and checked',
    async ({ name }) => {
      llm.enqueue(
        { toolCalls: [{ name: 'order_status', args: { order_id: 'o-12' } }] },
        { text: 'Order o-12 arrives in 2 days.' },
      )
      const result = await runAsync(
        dir,
        process.execPath,
        [evalsBin(dir), 'run', `${name}/cases/support.yaml`, '--filter', 'order-status', '--no-color'],
        { OPENAI_API_KEY: 'sk-test', OPENAI_BASE_URL: llm.openaiBaseURL, OPENAI_AGENTS_DISABLE_TRACING: '1' },
      )
      expect(result.code, result.output).toBe(0)
      expect(result.output).toContain('1 passed')
      expect(llm.remaining).toBe(0)
    },
    60_000,
  )
})

test('a framework with a model that is not OpenAI is one line and exit 2', () => {
  const dir = projectWith()
  const init = evals(dir, [
    'init',
    '--yes',
    '--framework',
    'ai-sdk',
    '--model',
    'anthropic:claude-sonnet-4-5',
  ])
  expect(init.code).toBe(2)
  expect(init.output).toMatch(/the ai-sdk agent evals init writes talks to OpenAI; give an OpenAI model/)
  expect(init.output).not.toMatch(/\n\s+at /)
  const unknown = evals(dir, ['init', '--yes', '--framework', 'crewai'])
  expect(unknown.code).toBe(2)
  expect(unknown.output).toContain('not a framework evals init knows; give one of agent-evals, ai-sdk')
}, 60_000)
