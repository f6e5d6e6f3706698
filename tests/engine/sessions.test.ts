import { createRedactor } from '../../src/util/redact.ts'
import { execFile } from 'node:child_process'
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { afterEach, beforeEach, describe, expect, test } from 'vitest'
import { z } from 'zod'
import { Agent, FileSessionStore, InMemorySessionStore, tool } from '../../src/index.ts'
import { AnthropicProvider } from '../../src/providers/anthropic.ts'
import { ScriptedProvider, sessionStoreContract, startMockLlmServer } from '../../src/testing/index.ts'
import { plainNodeScript } from '../setup/plain-node-script.ts'

let dir: string
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'evals-sessions-'))
})
afterEach(() => {
  rmSync(dir, { recursive: true, force: true })
})

describe('InMemorySessionStore keeps the session-store contract', () => {
  for (const check of sessionStoreContract(() => new InMemorySessionStore(), {
    withTtl: (ttlMs) => new InMemorySessionStore({ ttlMs }),
  }))
    test(check.name, check.run)
})

describe('FileSessionStore keeps the session-store contract', () => {
  for (const check of sessionStoreContract(() => new FileSessionStore({ dir: join(dir, 'store') }), {
    withTtl: (ttlMs) => new FileSessionStore({ dir: join(dir, 'ttl'), ttlMs }),
  }))
    test(check.name, check.run)
})

describe('the contract suite', () => {
  test('fails a store whose lock lets two holders in at once', async () => {
    const leaky = new InMemorySessionStore()
    leaky.lock = () => Promise.resolve(() => Promise.resolve())
    const check = sessionStoreContract(() => leaky).find((c) => c.name.startsWith('the lock makes holders'))!
    await expect(check.run()).rejects.toThrow()
  })
})

describe('FileSessionStore', () => {
  test('serialises writers of one session across processes with its lock file', async () => {
    const run = promisify(execFile)
    const writer = await plainNodeScript(join(import.meta.dirname, 'fixtures', 'session-writer.ts'))
    await Promise.all(['a', 'b', 'c'].map((who) => run(process.execPath, [writer, dir, who, '4'])))
    const record = await new FileSessionStore({ dir }).load('shared')

    expect(record?.messages.map((m) => m.content).sort()).toEqual(
      ['a', 'b', 'c'].flatMap((who) => [0, 1, 2, 3].map((turn) => `${who}-${turn}`)).sort(),
    )
    expect(readdirSync(dir)).toEqual(['shared.json'])
  }, 60_000)

  test('writes atomically, redacts secrets, and says which file is broken', async () => {
    const store = new FileSessionStore({ dir })
    // a GitHub token's shape (secretlint's rule), built here so no scanner flags this file
    const githubToken = `ghp_${'a1B2c3D4e5'.repeat(3)}f6G7H8`
    const content = `keys: sessions-key-0123456789 and ${githubToken}`
    await store.save({ id: 'user:42', messages: [{ role: 'user', content }], updatedAt: 1 })
    expect(readdirSync(dir)).toEqual(['user%3A42.json'])
    const written = readFileSync(join(dir, 'user%3A42.json'), 'utf8')
    expect(written).not.toContain(githubToken)
    expect(written).toContain('keys: sessions-key-0123456789 and ')
    // a store given the run's redactor takes out what it knows too
    const own = new FileSessionStore({
      dir,
      redactor: createRedactor({ secrets: ['sessions-key-0123456789'] }),
    })
    await own.save({ id: 'user:42', messages: [{ role: 'user', content }], updatedAt: 2 })
    expect(readFileSync(join(dir, 'user%3A42.json'), 'utf8')).not.toContain('sessions-key-0123456789')

    writeFileSync(join(dir, 'broken.json'), '{"id":')
    await expect(store.load('broken')).rejects.toThrow(
      `Session file ${join(dir, 'broken.json')} is not valid JSON`,
    )
  })
})

describe('sessions in runs', () => {
  test('a run loads the session before and saves it after, over the real anthropic SDK', async () => {
    const server = await startMockLlmServer({ script: [{ text: 'Hello Ada.' }, { text: 'You are Ada.' }] })
    try {
      const agent = new Agent({
        model: new AnthropicProvider({
          model: 'claude-test',
          apiKey: 'ant-test',
          baseURL: server.anthropicBaseURL,
        }),
        sessions: new FileSessionStore({ dir }),
      })
      await agent.run('I am Ada.', { sessionId: 'ada' })
      const second = await agent.run('Who am I?', { sessionId: 'ada' })

      expect(second.output).toBe('You are Ada.')
      const sent = server.journal[1]?.body as { messages: { role: string }[] }
      expect(sent.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'user'])
      const saved = JSON.parse(readFileSync(join(dir, 'ada.json'), 'utf8')) as {
        messages: unknown[]
        agent: string
      }
      expect(saved.messages).toHaveLength(4)
      expect(saved.agent).toBe('agent')
    } finally {
      await server.close()
    }
  })

  test('two runs of one session at once take turns, so neither loses the other’s messages', async () => {
    const slow = tool({
      name: 'slow',
      description: 'Takes a while',
      parameters: z.object({}),
      execute: () =>
        new Promise((resolve) => {
          setTimeout(() => {
            resolve('ok')
          }, 30)
        }),
    })
    const store = new InMemorySessionStore()
    const model = new ScriptedProvider([
      { toolCalls: [{ name: 'slow', args: {} }] },
      'first done',
      { toolCalls: [{ name: 'slow', args: {} }] },
      'second done',
    ])
    const agent = new Agent({ model, tools: [slow], sessions: store })
    await Promise.all([agent.run('one', { sessionId: 's' }), agent.run('two', { sessionId: 's' })])

    const saved = await store.load('s')
    expect(saved?.messages.filter((m) => m.role === 'user').map((m) => m.content)).toEqual(['one', 'two'])
    expect(saved?.messages).toHaveLength(8)
  })

  test('an interrupted run saves nothing; its resume saves the whole turn', async () => {
    const send = tool({
      name: 'send',
      description: 'Sends',
      parameters: z.object({}),
      needsApproval: true,
      execute: () => 'sent',
    })
    const store = new InMemorySessionStore()
    const agent = new Agent({
      model: new ScriptedProvider([{ toolCalls: [{ name: 'send', args: {}, id: 'x' }] }, 'Sent.']),
      tools: [send],
      sessions: store,
    })
    const first = await agent.run('send it', { sessionId: 's' })
    expect(await store.load('s')).toBeUndefined()
    expect(first.state?.sessionId).toBe('s')
    await agent.resume(first.state!, [{ callId: 'x', approved: true }])

    expect((await store.load('s'))?.messages.map((m) => m.role)).toEqual([
      'user',
      'assistant',
      'tool',
      'assistant',
    ])
  })

  test('misuse is a ConfigError saying what to do', async () => {
    const plain = new Agent({ model: 'local' })
    await expect(plain.run('hi', { sessionId: 's' })).rejects.toThrow(
      'Agent `agent`: `sessionId` needs a session store: `new Agent({ …, sessions: new FileSessionStore({ dir }) })`.',
    )
    const withStore = new Agent({ model: 'local', sessions: new InMemorySessionStore() })
    await expect(withStore.run('hi', { sessionId: 's', history: [] })).rejects.toThrow(
      'give `sessionId` or `history`, not both',
    )
    await expect(withStore.run('hi', { sessionId: '../etc' })).rejects.toThrow('session id "../etc" must be')
  })
})
