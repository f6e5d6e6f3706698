import { afterEach, describe, expect, test } from 'vitest'
import { Agent } from '../../src/engine/agent.ts'
import { AnthropicProvider } from '../../src/providers/anthropic.ts'
import { OpenAiProvider } from '../../src/providers/openai.ts'
import type { Provider } from '../../src/providers/provider.ts'
import { registerProvider } from '../../src/providers/registry.ts'
import { runSuite } from '../../src/runner/run-suite.ts'
import { wrapFunction } from '../../src/targets/function.ts'
import { startMockLlmServer, type MockLlmServer, type MockRequest } from '../../src/testing/index.ts'
import { caseOf, readResults, suiteOf, targetsFor, tempDir } from './helpers.ts'

let server: MockLlmServer | undefined
afterEach(async () => {
  await server?.close()
  server = undefined
})

const sdks: [string, (server: MockLlmServer) => Provider][] = [
  [
    'openai',
    (s) =>
      new OpenAiProvider({
        model: 'gpt-test',
        apiKey: 'sk-test',
        baseURL: s.openaiBaseURL,
        timeoutMs: 5_000,
      }),
  ],
  [
    'anthropic',
    (s) =>
      new AnthropicProvider({
        model: 'claude-test',
        apiKey: 'ant-test',
        baseURL: s.anthropicBaseURL,
        timeoutMs: 5_000,
      }),
  ],
]

const isSimulatedUser = (request: MockRequest): boolean =>
  JSON.stringify(request.body).includes('role-playing a user')

describe.each(sdks)('a simulated user over the real %s SDK', (api, make) => {
  test('plays the user until it says the goal is met, and the agent gets the history each turn', async () => {
    const userLines = ['Where is order o-7?', 'Then refund it please', 'GOAL_MET']
    let userTurn = 0
    server = await startMockLlmServer({
      handler: (request) => {
        if (isSimulatedUser(request)) return { text: userLines[userTurn++] ?? 'GOAL_MET' }
        const body = JSON.stringify(request.body)
        return { text: body.includes('refund it') ? 'Refunded order o-7.' : 'Order o-7 ships tomorrow.' }
      },
    })
    const live = server
    registerProvider(`mock-${api}`, () => make(live))
    const agent = new Agent({ model: make(live), instructions: 'You are a support agent.' })
    const target = wrapFunction(
      'agent:support',
      (input, context) => agent.run(input, { signal: context.signal }),
      'agent',
    )
    const suite = suiteOf([
      caseOf('refund-chat', {
        input: [],
        simulatedUser: {
          persona: 'a customer in a hurry',
          goal: 'get order o-7 refunded',
          maxTurns: 4,
          model: `mock-${api}:simulated`,
        },
        expect: { contains: 'refunded' },
      }),
    ])
    const report = await runSuite(suite, { outDir: tempDir(), targets: targetsFor(suite, target) })
    const [result] = readResults(report.resultsFile)

    expect(result).toMatchObject({
      status: 'passed',
      turns: [
        { user: 'Where is order o-7?', output: 'Order o-7 ships tomorrow.' },
        { user: 'Then refund it please', output: 'Refunded order o-7.' },
      ],
    })
    const journal = live.journal
    const simulated = journal.filter(isSimulatedUser)
    const agentCalls = journal.filter((request) => !isSimulatedUser(request))
    expect(simulated).toHaveLength(3)
    expect(agentCalls).toHaveLength(2)
    const firstPrompt = JSON.stringify(simulated[0]?.body)
    expect(firstPrompt).toContain('Who you are: a customer in a hurry')
    expect(firstPrompt).toContain('Your goal: get order o-7 refunded')
    // the simulated user sees its own messages as the assistant's and the agent's replies as the user's
    expect(JSON.stringify(simulated[2]?.body)).toMatch(
      /"role":"assistant".*Where is order o-7\?.*"role":"user".*Order o-7 ships tomorrow\./,
    )
    // the agent's second call carries the first exchange
    expect(JSON.stringify(agentCalls[1]?.body)).toMatch(
      /Where is order o-7\?.*Order o-7 ships tomorrow\..*Then refund it please/,
    )
  })
})
