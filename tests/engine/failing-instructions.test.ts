import { expect, test } from 'vitest'
import { Agent, type AgentEvent, type Observer } from '../../src/index.ts'
import { ScriptedProvider } from '../../src/testing/index.ts'

function throwingAgent(provider: ScriptedProvider, observer: Observer): Agent {
  return new Agent({
    model: provider,
    instructions: () => {
      throw new Error('no prompt for this user')
    },
    observers: [observer],
  })
}

test('an instructions function that throws ends the run as an error, and observers see the run end', async () => {
  const provider = new ScriptedProvider([])
  const hooks: string[] = []
  const agent = throwingAgent(provider, {
    onRunStart: () => void hooks.push('onRunStart'),
    onRunEnd: ({ result }) => void hooks.push(`onRunEnd ${result.stopReason}`),
  })

  const result = await agent.run('Hi')

  expect(result).toMatchObject({ stopReason: 'error', error: 'no prompt for this user', output: '' })
  expect(result.trace).toEqual([expect.objectContaining({ type: 'error', error: 'no prompt for this user' })])
  expect(hooks).toEqual(['onRunStart', 'onRunEnd error'])
  expect(provider.calls).toEqual([])
})

test('a stream whose instructions function throws ends with the errored result', async () => {
  const provider = new ScriptedProvider([])
  const hooks: string[] = []
  const agent = throwingAgent(provider, { onRunEnd: () => void hooks.push('onRunEnd') })

  const events: AgentEvent[] = []
  for await (const event of agent.stream('Hi')) events.push(event)

  expect(events.map((event) => event.type)).toEqual(['result'])
  expect(events[0]).toMatchObject({ result: { stopReason: 'error', error: 'no prompt for this user' } })
  expect(hooks).toEqual(['onRunEnd'])
})
