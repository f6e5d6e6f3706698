import { describe, expect, test } from 'vitest'
import { z } from 'zod'
import { Agent, tool } from '../../src/index.ts'
import { ScriptedProvider } from '../../src/testing/index.ts'

/** A tiny file system whose tools log when each call starts and ends. */
function files(options: { resources?: boolean } = {}) {
  const contents = new Map([
    ['notes.txt', 'old'],
    ['todo.txt', 'old todo'],
  ])
  const events: string[] = []
  const tick = () => new Promise((resolve) => setImmediate(resolve))
  const resource = options.resources ? { resource: ({ path }: { path: string }) => path } : {}
  const readFile = tool({
    name: 'read_file',
    description: 'Reads a file',
    parameters: z.object({ path: z.string() }),
    readOnly: true,
    ...resource,
    execute: async ({ path }) => {
      events.push(`start read ${path}`)
      await tick()
      events.push(`end read ${path}`)
      return contents.get(path) ?? ''
    },
  })
  const writeFile = tool({
    name: 'write_file',
    description: 'Writes a file',
    parameters: z.object({ path: z.string(), text: z.string() }),
    ...resource,
    execute: async ({ path, text }) => {
      events.push(`start write ${path}`)
      await tick()
      contents.set(path, text)
      events.push(`end write ${path}`)
      return 'ok'
    },
  })
  return { events, tools: [readFile, writeFile] }
}

const read = (path: string) => ({ name: 'read_file', args: { path } })
const write = (path: string, text: string) => ({ name: 'write_file', args: { path, text } })

async function runReply(
  toolCalls: { name: string; args: unknown }[],
  fs: ReturnType<typeof files>,
  toolConcurrency?: number,
) {
  const provider = new ScriptedProvider([{ toolCalls }, 'Done.'])
  const agent = new Agent({
    model: provider,
    tools: fs.tools,
    ...(toolConcurrency === undefined ? {} : { toolConcurrency }),
  })
  return agent.run('Go')
}

describe('the calls of one reply run in call order, reads batched between writes', () => {
  test('a read after a write sees what the write wrote', async () => {
    const fs = files()
    const result = await runReply([write('notes.txt', 'new'), read('notes.txt')], fs)
    expect(result.toolCalls.map((call) => call.result)).toEqual(['ok', 'new'])
    expect(fs.events).toEqual([
      'start write notes.txt',
      'end write notes.txt',
      'start read notes.txt',
      'end read notes.txt',
    ])
  })

  test('consecutive reads run together; a write waits for the reads before it and holds back the reads after it', async () => {
    const fs = files()
    await runReply(
      [read('notes.txt'), read('todo.txt'), write('notes.txt', 'new'), read('notes.txt'), read('todo.txt')],
      fs,
    )
    expect(fs.events).toEqual([
      'start read notes.txt',
      'start read todo.txt',
      'end read notes.txt',
      'end read todo.txt',
      'start write notes.txt',
      'end write notes.txt',
      'start read notes.txt',
      'start read todo.txt',
      'end read notes.txt',
      'end read todo.txt',
    ])
  })

  test('writes run one by one in call order', async () => {
    const fs = files()
    const result = await runReply([write('notes.txt', 'a'), write('notes.txt', 'b'), read('notes.txt')], fs)
    expect(result.toolCalls.at(-1)?.result).toBe('b')
    expect(fs.events.slice(0, 4)).toEqual([
      'start write notes.txt',
      'end write notes.txt',
      'start write notes.txt',
      'end write notes.txt',
    ])
  })
})

describe('a resource key', () => {
  test('lets calls on different resources run together, writes included', async () => {
    const fs = files({ resources: true })
    const result = await runReply(
      [write('notes.txt', 'new'), write('todo.txt', 'new todo'), read('notes.txt')],
      fs,
    )
    expect(fs.events.slice(0, 2)).toEqual(['start write notes.txt', 'start write todo.txt'])
    expect(fs.events.indexOf('start read notes.txt')).toBeGreaterThan(
      fs.events.indexOf('end write notes.txt'),
    )
    expect(result.toolCalls.map((call) => call.result)).toEqual(['ok', 'ok', 'new'])
  })

  test('serialises every call on one resource, reads included, in call order', async () => {
    const fs = files({ resources: true })
    await runReply([read('notes.txt'), read('notes.txt'), read('todo.txt')], fs)
    expect(fs.events.slice(0, 3)).toEqual([
      'start read notes.txt',
      'start read todo.txt',
      'end read notes.txt',
    ])
    expect(fs.events.lastIndexOf('start read notes.txt')).toBe(3)
  })

  test('a write without a resource key still waits for everything before it', async () => {
    const fs = files({ resources: true })
    const log: string[] = fs.events
    const reset = tool({
      name: 'reset',
      description: 'Resets everything',
      parameters: z.object({}),
      execute: () => {
        log.push('reset')
        return 'ok'
      },
    })
    const provider = new ScriptedProvider([
      { toolCalls: [read('notes.txt'), { name: 'reset', args: {} }, read('todo.txt')] },
      'Done.',
    ])
    await new Agent({ model: provider, tools: [...fs.tools, reset] }).run('Go')
    expect(log).toEqual([
      'start read notes.txt',
      'end read notes.txt',
      'reset',
      'start read todo.txt',
      'end read todo.txt',
    ])
  })
})
