import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { describe, expect, test } from 'vitest'
import { agentTarget } from '../../src/targets/agent.ts'
import type { TargetContext } from '../../src/targets/target.ts'

const baseDir = resolve(import.meta.dirname, 'fixtures')
const context: TargetContext = { signal: new AbortController().signal, caseId: 'c', trial: 1 }

describe('agentTarget', () => {
  test('runs a default-exported agent (anything with `run`) and passes the trial index', async () => {
    const target = await agentTarget({ file: './agent-instance.ts', baseDir })
    const transcript = await target.run('hi', context)
    expect(transcript.output).toBe('agent saw hi on trial 1')
    expect(transcript.latencyMs).toBe(7)
    expect(transcript.stopReason).toBe('final')
    expect(transcript.usage?.inputTokens).toBe(10)
  })

  test('passes the suite model to a `createAgent` factory', async () => {
    const target = await agentTarget({ file: './agent-factory.ts', baseDir, model: 'local' })
    expect((await target.run('hi', context)).output).toBe('local: hi')
  })

  test('loads a plain JavaScript handler natively and gives it the model in ctx', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'evals-agent-'))
    writeFileSync(
      join(dir, 'handler.mjs'),
      'export default (input, ctx) => `handled ${input} with ${ctx.model}`\n',
    )
    const target = await agentTarget({ file: './handler.mjs', baseDir: dir, model: 'local' })
    expect((await target.run('hi', { ...context, model: 'local' })).output).toBe('handled hi with local')
  })

  test('reports an agent run that stopped with an error on the transcript', async () => {
    const target = await agentTarget({ file: './agent-crashes.ts', baseDir })
    expect((await target.run('hi', context)).error).toBe('provider down')
  })

  test('says what the module exports when it has no agent', async () => {
    await expect(agentTarget({ file: './nothing-useful.ts', baseDir })).rejects.toThrow(
      'target.agent: `./nothing-useful.ts` must default-export an Agent, an agent of a supported framework (the AI SDK, the OpenAI Agents SDK, LangGraph, Mastra) or a function `(input, ctx) => string | Transcript`, or export `createAgent({ model })`; it exports `helper`, `version`.',
    )
  })

  test('wraps a module that fails to load with its file name', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'evals-agent-'))
    writeFileSync(join(dir, 'broken.ts'), 'export const broken = (\n')
    await expect(agentTarget({ file: './broken.ts', baseDir: dir })).rejects.toThrow(
      '`./broken.ts` failed to load',
    )
  })

  test('checks the model resolves before any case runs', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'evals-agent-'))
    writeFileSync(join(dir, 'handler.mjs'), 'export default () => "x"\n')
    await expect(agentTarget({ file: './handler.mjs', baseDir: dir, model: 'nope:model' })).rejects.toThrow(
      'Unknown model `nope:model`',
    )
  })
})
