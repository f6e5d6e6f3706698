import { describe, expect, test } from 'vitest'
import { z } from 'zod'
import { Agent, ConfigError, tool, type AgentOptions } from '../../src/index.ts'
import { ScriptedProvider } from '../../src/testing/index.ts'

interface Deps {
  admin: boolean
}

const search = tool({
  name: 'search',
  description: 'Searches the docs',
  parameters: z.object({ query: z.string() }),
  execute: ({ query }) => `results for ${query}`,
})

const deleteUser = tool.withDeps<Deps>()({
  name: 'delete_user',
  description: 'Deletes a user',
  parameters: z.object({ id: z.string() }),
  prepare: (ctx, schema) => (ctx.deps.admin ? schema : undefined),
  execute: ({ id }) => `deleted ${id}`,
})

const offeredNames = (provider: ScriptedProvider) =>
  provider.calls.map((call) => call.tools.map((schema) => schema.name))

describe('a tool’s prepare', () => {
  test('offers the tool only when it returns a schema, decided from the run deps', async () => {
    const provider = new ScriptedProvider(['Hi.', 'Hi.'])
    const agent = new Agent({ model: provider, tools: [search, deleteUser], deps: { admin: false } })

    await agent.run('Hello')
    await agent.run('Hello', { deps: { admin: true } })

    expect(offeredNames(provider)).toEqual([['search'], ['search', 'delete_user']])
  })

  test('refuses a call of a tool it hid at that step', async () => {
    const provider = new ScriptedProvider([
      { toolCalls: [{ name: 'delete_user', args: { id: 'u1' }, id: 'c1' }] },
      'Cannot.',
    ])
    const agent = new Agent({ model: provider, tools: [search, deleteUser], deps: { admin: false } })

    const result = await agent.run('Delete u1')

    expect(result.toolCalls.map((call) => call.error)).toEqual([
      'Unknown tool `delete_user`. Available tools: `search`.',
    ])
  })

  test('edits the description per step from the run context', async () => {
    const countdown = tool({
      name: 'countdown',
      description: 'Counts down',
      parameters: z.object({}),
      prepare: (ctx, schema) => ({ ...schema, description: `Calls left: ${3 - ctx.iteration}` }),
      execute: () => 'tick',
    })
    const provider = new ScriptedProvider([{ toolCalls: [{ name: 'countdown' }] }, 'Done.'])
    const agent = new Agent({ model: provider, tools: [countdown] })

    await agent.run('Go')

    expect(provider.calls.map((call) => call.tools[0]?.description)).toEqual([
      'Calls left: 3',
      'Calls left: 2',
    ])
  })

  test('ends the run with `error` when it renames the tool', async () => {
    const renamed = tool({
      name: 'search',
      description: 'Searches',
      parameters: z.object({}),
      prepare: (_ctx, schema) => ({ ...schema, name: 'find' }),
      execute: () => 'x',
    })
    const agent = new Agent({ model: new ScriptedProvider([]), tools: [renamed] })

    const result = await agent.run('Go')

    expect(result.stopReason).toBe('error')
    expect(result.error).toBe(
      'Tool `search`: `prepare` renamed it to `find`; it may change the description and parameters, not the name.',
    )
  })
})

describe('the agent’s prepareTools', () => {
  test('filters the list each step, after the tools’ own prepare', async () => {
    const provider = new ScriptedProvider([
      { toolCalls: [{ name: 'search', args: { query: 'refunds' } }] },
      'Refunds take 5 days.',
    ])
    const seen: string[][] = []
    const agent = new Agent({
      model: provider,
      tools: [search, deleteUser],
      deps: { admin: true },
      // one search per run: once the conversation holds a search result, stop offering it
      prepareTools: (ctx, tools) => {
        seen.push(tools.map((schema) => schema.name))
        const searched = ctx.messages.some((message) => message.role === 'tool' && message.name === 'search')
        return tools.filter((schema) => !(searched && schema.name === 'search'))
      },
    })

    const result = await agent.run('How long do refunds take?')

    expect(result.output).toBe('Refunds take 5 days.')
    expect(seen).toEqual([
      ['search', 'delete_user'],
      ['search', 'delete_user'],
    ])
    expect(offeredNames(provider)).toEqual([['search', 'delete_user'], ['delete_user']])
  })

  test('ends the run with `error` when it adds a tool the agent lacks', async () => {
    const agent = new Agent({
      model: new ScriptedProvider([]),
      tools: [search],
      prepareTools: (_ctx, tools) => [
        ...tools,
        { name: 'shell', description: 'Runs a command', parameters: {} },
      ],
    })

    const result = await agent.run('Go')

    expect(result.error).toBe(
      '`prepareTools` returned a tool named `shell`, which the agent does not have; it may drop or edit tools, not add them.',
    )
  })
})

describe('unknown Agent options', () => {
  test('are a ConfigError naming the option, with a did-you-mean', () => {
    const options = { model: 'local', name: 'support', prepareTool: () => [] } as AgentOptions

    expect(() => new Agent(options)).toThrow(ConfigError)
    expect(() => new Agent(options)).toThrow(
      /^Agent `support`: unknown option `prepareTool`\. Did you mean `prepareTools`\? Known options: name, model, instructions, tools, prepareTools, /,
    )
  })
})
