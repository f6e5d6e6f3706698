import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, expect, test } from 'vitest'
import { agentTarget } from '../../src/targets/agent.ts'

const dirs: string[] = []
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true })
})

/** A project whose `node_modules` holds `name` at `version`, and an agent module that default-exports `agent`. */
function project(name: string, version: string, agent: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'evals-adapter-version-'))
  dirs.push(dir)
  mkdirSync(join(dir, 'node_modules', name), { recursive: true })
  writeFileSync(join(dir, 'node_modules', name, 'package.json'), JSON.stringify({ name, version }))
  writeFileSync(join(dir, 'agent.mjs'), `export default ${agent}\n`)
  return dir
}

test('an AI SDK older than 6 is one line naming the supported range', async () => {
  const dir = project('ai', '5.0.60', '{ version: "agent-v1", generate() {} }')
  await expect(agentTarget({ file: 'agent.mjs', baseDir: dir })).rejects.toThrow(
    'target.agent: `agent.mjs`: the AI SDK 5.0.60 (`ai`) is not supported; evals supports `ai` >=6.0.0 <8.0.0: install a version in that range.',
  )
})

test('an OpenAI Agents SDK from before 0.14 is refused the same way', async () => {
  const dir = project('@openai/agents', '0.0.17', '{ name: "triage", handoffs: [], asTool() {} }')
  await expect(agentTarget({ file: 'agent.mjs', baseDir: dir })).rejects.toThrow(
    'target.agent: `agent.mjs`: the OpenAI Agents SDK 0.0.17 (`@openai/agents`) is not supported; evals supports `@openai/agents` >=0.14.0 <1.0.0: install a version in that range.',
  )
})

test('a supported version passes the check', async () => {
  const dir = project('ai', '7.0.173', '{ version: "agent-v1", generate() {} }')
  await expect(agentTarget({ file: 'agent.mjs', baseDir: dir })).resolves.toMatchObject({
    id: 'agent:agent.mjs',
  })
})
