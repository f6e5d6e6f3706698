// One process of the engine-overhead benchmark: `node --import tsx bench/engine-overhead-worker.ts <evals|ai-sdk> <runs>`.
// Each run is one tool-calling turn plus a final answer against a zero-latency model. Prints one JSON line.
import { generateText, stepCountIs, tool as aiTool } from 'ai'
import { MockLanguageModelV3 } from 'ai/test'
import { z } from 'zod'
import { Agent, tool, type Completion, type CompletionRequest, type Provider } from '../src/index.ts'

const [framework = 'evals', runsArg = '5000'] = process.argv.slice(2)
const runs = Number(runsArg)
const parameters = z.object({ city: z.string() })
const usage = { inputTokens: 10, outputTokens: 5, cacheReadTokens: 0, cacheWriteTokens: 0 }

const zeroLatencyProvider: Provider = {
  id: 'bench:zero',
  complete(request: CompletionRequest): Promise<Completion> {
    const answered = request.messages.at(-1)?.role === 'tool'
    return Promise.resolve({
      message: answered
        ? { text: 'It is 22C in Paris.', toolCalls: [] }
        : { text: '', toolCalls: [{ id: 'call_1', name: 'get_weather', arguments: '{"city":"Paris"}' }] },
      usage,
      finishReason: answered ? 'stop' : 'tool_calls',
      model: 'zero',
    })
  },
}

const agent = new Agent({
  model: zeroLatencyProvider,
  tools: [
    tool({
      name: 'get_weather',
      description: 'Current weather for a city',
      parameters,
      execute: ({ city }) => `22C in ${city}`,
    }),
  ],
})

const mockModel = new MockLanguageModelV3({
  doGenerate: (options) => {
    const answered = options.prompt.at(-1)?.role === 'tool'
    return Promise.resolve({
      content: answered
        ? [{ type: 'text' as const, text: 'It is 22C in Paris.' }]
        : [
            {
              type: 'tool-call' as const,
              toolCallId: 'call_1',
              toolName: 'get_weather',
              input: '{"city":"Paris"}',
            },
          ],
      finishReason: { unified: answered ? ('stop' as const) : ('tool-calls' as const), raw: undefined },
      usage: {
        inputTokens: { total: 10, noCache: 10, cacheRead: 0, cacheWrite: 0 },
        outputTokens: { total: 5, text: 5, reasoning: 0 },
      },
      warnings: [],
    })
  },
})
const aiTools = {
  get_weather: aiTool({
    description: 'Current weather for a city',
    inputSchema: parameters,
    execute: ({ city }) => `22C in ${city}`,
  }),
}

async function once(): Promise<string> {
  if (framework === 'evals') return (await agent.run('What is the weather in Paris?')).output
  const result = await generateText({
    model: mockModel,
    tools: aiTools,
    prompt: 'What is the weather in Paris?',
    stopWhen: stepCountIs(2),
  })
  return result.text
}

const expected = 'It is 22C in Paris.'
for (let i = 0; i < Math.min(500, runs); i++) {
  if ((await once()) !== expected) throw new Error(`${framework} produced an unexpected answer`)
}
const started = process.hrtime.bigint()
for (let i = 0; i < runs; i++) await once()
const elapsedNs = Number(process.hrtime.bigint() - started)
process.stdout.write(
  `${JSON.stringify({ framework, runs, usPerRun: elapsedNs / runs / 1000, rssMb: process.memoryUsage().rss / 2 ** 20 })}\n`,
)
