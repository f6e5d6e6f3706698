import { describe, expect, test } from 'vitest'
import { z } from 'zod'
import { Agent, MemoryCache, tool } from '../../src/index.ts'
import { ScriptedProvider } from '../../src/testing/index.ts'

interface Session {
  userId: string
}

const profiles: Record<string, string> = { alice: 'Alice, Berlin', bob: 'Bob, Oslo' }

function profileTool(withDepsPart: boolean) {
  const runs: string[] = []
  const getProfile = tool.withDeps<Session>()({
    name: 'get_profile',
    description: 'The signed-in user’s profile',
    parameters: z.object({}),
    readOnly: true,
    cache: withDepsPart ? { deps: (deps) => deps.userId } : true,
    execute: (_args, ctx) => {
      runs.push(ctx.deps.userId)
      return profiles[ctx.deps.userId]
    },
  })
  return { runs, getProfile }
}

const askProfile = { toolCalls: [{ name: 'get_profile', args: {} }] }

describe('tool results cached per user', () => {
  test('a run given its own deps never gets another run’s cached result', async () => {
    const { runs, getProfile } = profileTool(false)
    const provider = new ScriptedProvider([askProfile, 'A.', askProfile, 'B.'])
    const agent = new Agent<undefined, Session>({
      model: provider,
      tools: [getProfile],
      cache: new MemoryCache(),
    })

    const alice = await agent.run('Me?', { deps: { userId: 'alice' } })
    const bob = await agent.run('Me?', { deps: { userId: 'bob' } })

    expect(alice.toolCalls[0]?.result).toBe('Alice, Berlin')
    expect(bob.toolCalls[0]?.result).toBe('Bob, Oslo')
    expect(runs).toEqual(['alice', 'bob'])
  })

  test('the `deps` part a tool declares keys the result, so runs of one user share it', async () => {
    const { runs, getProfile } = profileTool(true)
    const provider = new ScriptedProvider([askProfile, 'A.', askProfile, 'B.', askProfile, 'C.'])
    const agent = new Agent<undefined, Session>({
      model: provider,
      tools: [getProfile],
      cache: new MemoryCache(),
    })

    await agent.run('Me?', { deps: { userId: 'alice' } })
    const bob = await agent.run('Me?', { deps: { userId: 'bob' } })
    const aliceAgain = await agent.run('Me again?', { deps: { userId: 'alice' } })

    expect(runs).toEqual(['alice', 'bob'])
    expect(bob.toolCalls[0]?.result).toBe('Bob, Oslo')
    expect(aliceAgain.toolCalls[0]?.result).toBe('Alice, Berlin')
    expect(aliceAgain.trace.some((step) => step.type === 'tool_cache_hit')).toBe(true)
  })
})

describe('a tool that writes invalidates the cached results it makes stale', () => {
  function editor(options: { resources: boolean }) {
    const files = new Map([
      ['a.txt', 'old a'],
      ['b.txt', 'old b'],
    ])
    const reads: string[] = []
    const resource = options.resources ? { resource: ({ path }: { path: string }) => path } : {}
    const readFile = tool({
      name: 'read_file',
      description: 'Reads a file',
      parameters: z.object({ path: z.string() }),
      readOnly: true,
      cache: true,
      ...resource,
      execute: ({ path }) => {
        reads.push(path)
        return files.get(path)
      },
    })
    const editFile = tool({
      name: 'edit_file',
      description: 'Replaces a file’s text',
      parameters: z.object({ path: z.string(), text: z.string() }),
      invalidates: ['read_file'],
      ...resource,
      execute: ({ path, text }) => {
        files.set(path, text)
        return 'edited'
      },
    })
    return { reads, tools: [readFile, editFile] }
  }
  const read = (path: string) => ({ toolCalls: [{ name: 'read_file', args: { path } }] })
  const edit = (path: string, text: string) => ({ toolCalls: [{ name: 'edit_file', args: { path, text } }] })

  test('a read after an edit runs again and sees the new text', async () => {
    const { reads, tools } = editor({ resources: false })
    const provider = new ScriptedProvider([
      read('a.txt'),
      edit('a.txt', 'new a'),
      read('a.txt'),
      read('a.txt'),
      'Done.',
    ])

    const result = await new Agent({ model: provider, tools }).run('Edit a.txt')

    expect(result.toolCalls.map((call) => call.result)).toEqual(['old a', 'edited', 'new a', 'new a'])
    expect(reads).toEqual(['a.txt', 'a.txt'])
  })

  test('the edit invalidates across runs of the agent, through its shared cache', async () => {
    const { tools } = editor({ resources: false })
    const provider = new ScriptedProvider([
      read('a.txt'),
      'A.',
      edit('a.txt', 'new a'),
      'B.',
      read('a.txt'),
      'C.',
    ])
    const agent = new Agent({ model: provider, tools, cache: new MemoryCache() })

    await agent.run('Read')
    await agent.run('Edit')
    const after = await agent.run('Read again')

    expect(after.toolCalls[0]?.result).toBe('new a')
  })

  test('with resource keys, an edit of one file keeps the cached reads of the others', async () => {
    const { reads, tools } = editor({ resources: true })
    const provider = new ScriptedProvider([
      read('a.txt'),
      read('b.txt'),
      edit('a.txt', 'new a'),
      read('a.txt'),
      read('b.txt'),
      'Done.',
    ])

    const result = await new Agent({ model: provider, tools }).run('Edit a.txt')

    expect(result.toolCalls.map((call) => call.result)).toEqual([
      'old a',
      'old b',
      'edited',
      'new a',
      'old b',
    ])
    expect(reads).toEqual(['a.txt', 'b.txt', 'a.txt'])
  })

  test('an invalidation naming a tool that does not exist or caches nothing is a ConfigError', () => {
    const { tools } = editor({ resources: false })
    const stray = tool({
      name: 'stray',
      description: 'Names a tool by mistake',
      parameters: z.object({}),
      invalidates: ['read_fiel'],
      execute: () => 'ok',
    })
    expect(() => new Agent({ model: new ScriptedProvider([]), tools: [...tools, stray] })).toThrow(
      'Tool `stray` invalidates `read_fiel`, which is not a tool of agent `agent`. Did you mean `read_file`?',
    )
  })
})
