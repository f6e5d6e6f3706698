import { mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { frameworkAgentFile } from '../../src/init/framework-agents.ts'
import { agentTarget } from '../../src/targets/agent.ts'
import { startMockLlmServer, type MockLlmServer } from '../../src/testing/index.ts'
import { context } from '../adapters/helpers.ts'

// the agent `evals init --framework mastra` writes, run through the Mastra adapter against the mock LLM server
// (standing in for OpenAI through OPENAI_BASE_URL, as the scaffold reads it)
let server: MockLlmServer
let dir = ''
beforeAll(async () => {
  server = await startMockLlmServer()
  dir = mkdtempSync(join(tmpdir(), 'evals-init-mastra-'))
  symlinkSync(join(import.meta.dirname, 'node_modules'), join(dir, 'node_modules'))
  writeFileSync(join(dir, 'package.json'), '{ "type": "module" }\n')
  writeFileSync(join(dir, 'agent.ts'), frameworkAgentFile('mastra'))
})
afterAll(async () => {
  await server.close()
  rmSync(dir, { recursive: true, force: true })
})

test('the scaffolded Mastra agent calls its tool and answers, recorded through the adapter', async () => {
  process.env.OPENAI_BASE_URL = server.openaiBaseURL
  process.env.OPENAI_API_KEY = 'sk-test'
  server.enqueue(
    { toolCalls: [{ name: 'order_status', args: { order_id: 'o-12' } }] },
    { text: 'Order o-12 arrives in 2 days.' },
  )
  const target = await agentTarget({
    file: join(dir, 'agent.ts'),
    baseDir: '/',
    model: 'openai:gpt-4.1-mini',
  })
  const transcript = await target.run('Where is my order o-12?', context())

  expect(transcript).toMatchObject({ source: 'adapter:mastra', output: 'Order o-12 arrives in 2 days.' })
  expect(transcript.toolCalls).toMatchObject([
    {
      name: 'order_status',
      args: { order_id: 'o-12' },
      result: expect.stringContaining('arrives in 2 days') as string,
    },
  ])
})
