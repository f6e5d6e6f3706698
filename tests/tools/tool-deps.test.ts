import { describe, expect, expectTypeOf, test } from 'vitest'
import { z } from 'zod'
import { Agent, tool } from '../../src/index.ts'
import { ScriptedProvider } from '../../src/testing/index.ts'

interface Db {
  users: Map<string, string>
}

const findUser = tool.withDeps<{ db: Db }>()({
  name: 'find_user',
  description: 'Finds a user by id',
  parameters: z.object({ id: z.string() }),
  execute: ({ id }, ctx) => {
    expectTypeOf(ctx.deps).toEqualTypeOf<{ db: Db }>()
    return ctx.deps.db.users.get(id) ?? 'no such user'
  },
})

describe('tool.withDeps', () => {
  test('types ctx.deps while inferring parameters and result', async () => {
    expectTypeOf(findUser.execute).parameter(0).toEqualTypeOf<{ id: string }>()
    const provider = new ScriptedProvider([
      { toolCalls: [{ name: 'find_user', args: { id: 'u1' } }] },
      'Ada.',
    ])
    const agent = new Agent({
      model: provider,
      tools: [findUser],
      deps: { db: { users: new Map([['u1', 'Ada']]) } },
    })

    const result = await agent.run('Who is u1?')

    expect(result.toolCalls[0]?.result).toBe('Ada')
  })

  test('a tool typed for other deps than the agent’s is a type error', () => {
    const needsClock = tool.withDeps<{ now: () => number }>()({
      name: 'now',
      description: 'The time',
      parameters: z.object({}),
      execute: (_args, ctx) => ctx.deps.now(),
    })
    const build = () => [
      // @ts-expect-error -- the agent's deps have no `now`
      new Agent({ model: 'local', tools: [needsClock], deps: { db: { users: new Map() } } }),
      // @ts-expect-error -- one tool needs `db`, the other `now`: no deps fit both
      new Agent<undefined, { db: Db }>({ model: 'local', tools: [findUser, needsClock] }),
      // a tool that needs no deps fits every agent
      new Agent({
        model: 'local',
        tools: [tool({ name: 'ping', description: 'Ping', parameters: z.object({}), execute: () => 'pong' })],
        deps: { db: { users: new Map() } },
      }),
    ]
    expect(build).not.toThrow()
  })
})
