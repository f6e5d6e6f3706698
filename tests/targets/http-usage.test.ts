import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { httpTarget } from '../../src/targets/http.ts'
import { startMockLlmServer, type MockLlmServer } from '../../src/testing/index.ts'
import { context, gpt41MiniCost, runOneCase } from '../adapters/helpers.ts'

// an OpenAI-compatible agent endpoint: here, the mock LLM server's own chat completions route
let llm: MockLlmServer
// an agent service with a reply shape of its own
let service: Server
let serviceUrl = ''
const openAiBody = { model: 'gpt-4.1-mini', messages: [{ role: 'user', content: '{{input}}' }] }

beforeAll(async () => {
  llm = await startMockLlmServer()
  service = createServer((request, response) => {
    request.resume()
    request.on('end', () => {
      response.setHeader('content-type', 'application/json')
      response.end(
        JSON.stringify({
          answer: 'Refunded.',
          steps: [{ tool: 'refund', input: { id: 'A1' } }],
          meta: {
            llm: 'claude-sonnet-4-5',
            tokens: { input_tokens: 300, output_tokens: 40, cache_read_input_tokens: 1000 },
            calls: [{ name: 'refund', args: { id: 'A1' }, result: 'ok' }],
          },
        }),
      )
    })
  })
  await new Promise<void>((done) => service.listen(0, '127.0.0.1', done))
  serviceUrl = `http://127.0.0.1:${(service.address() as AddressInfo).port}/agent`
})

afterAll(async () => {
  await llm.close()
  service.closeAllConnections()
  service.close()
})

describe('an http target reads what the reply reports', () => {
  test('an OpenAI-shaped reply: `usage` and `model` by default, so tokens and cost are known; tool calls stay unknown', async () => {
    llm.enqueue({
      text: 'Order A1 has shipped.',
      usage: { inputTokens: 500, outputTokens: 20, cacheReadTokens: 200 },
    })
    const target = httpTarget({
      url: `${llm.openaiBaseURL}/chat/completions`,
      body: openAiBody,
      output: 'choices.0.message.content',
    })
    const transcript = await target.run('Where is A1?', context())

    expect(transcript.output).toBe('Order A1 has shipped.')
    expect(transcript.usage).toEqual({
      inputTokens: 500,
      outputTokens: 20,
      cacheReadTokens: 200,
      cacheWriteTokens: 0,
    })
    expect(transcript.costUsd).toBeCloseTo(gpt41MiniCost({ input: 500, cached: 200, output: 20 }), 12)
    expect(transcript.toolCalls).toBeNull()
    expect(transcript.iterations).toBeNull()
  })

  test('`tool_calls:` reads OpenAI tool calls, so tool checks grade them', async () => {
    llm.enqueue({ toolCalls: [{ name: 'lookup_order', args: { id: 'A1' } }] })
    const { result } = await runOneCase(
      {
        type: 'http',
        url: `${llm.openaiBaseURL}/chat/completions`,
        method: 'POST',
        headers: {},
        body: openAiBody,
        output: 'choices.0.message.content',
        toolCalls: 'choices.0.message.tool_calls',
      },
      { input: 'Where is A1?', expect: { tool_args: { lookup_order: { id: 'A1' } } } },
    )

    expect(result.status).toBe('passed')
  })

  test('a check of the iterations an endpoint does not report errors, saying how to report them', async () => {
    llm.enqueue({ text: 'Shipped.' })
    const { result, exitCounts } = await runOneCase(
      {
        type: 'http',
        url: `${llm.openaiBaseURL}/chat/completions`,
        method: 'POST',
        headers: {},
        body: openAiBody,
        output: 'choices.0.message.content',
      },
      { input: 'Where is A1?', expect: { iterations_lte: 1 } },
    )

    expect(exitCounts).toEqual({ failed: 0, errored: 1 })
    expect(result.status === 'errored' && result.error).toEqual({
      name: 'NotReportedError',
      code: 'EVALS_NOT_REPORTED',
      message:
        '`iterations_lte` needs the number of model calls, which this target does not report (transcript source `target`): give the framework agent itself as `agent:`, or return `iterations` with the output (or a framework result through a mapper such as `fromAiSdk`), or capture its OpenTelemetry spans with `trace: true` (`--trace`).',
    })
  })

  test('paths of its own: `usage` (Anthropic shape, cache reads on top of input), `model` and `tool_calls`', async () => {
    const target = httpTarget({
      url: serviceUrl,
      output: 'answer',
      usage: 'meta.tokens',
      model: 'meta.llm',
      toolCalls: 'meta.calls',
    })
    const transcript = await target.run('Refund A1', context())

    expect(transcript.usage).toEqual({
      inputTokens: 1300,
      outputTokens: 40,
      cacheReadTokens: 1000,
      cacheWriteTokens: 0,
    })
    // Claude Sonnet 4.5: $3 per million input tokens, $0.30 cached, $15 output (anthropic.com/pricing)
    expect(transcript.costUsd).toBeCloseTo((300 * 3 + 1000 * 0.3 + 40 * 15) / 1e6, 12)
    expect(transcript.toolCalls).toEqual([{ id: 'call_0', name: 'refund', args: { id: 'A1' }, result: 'ok' }])
  })

  test('a path that is not usage or not a list of tool calls is a config error naming the option', async () => {
    await expect(httpTarget({ url: serviceUrl, usage: 'answer' }).run('x', context())).rejects.toThrow(
      `${serviceUrl}: \`answer\` in the response is not token usage (expected \`prompt_tokens\`/\`completion_tokens\` or \`input_tokens\`/\`output_tokens\`). Fix \`usage\` in the target.`,
    )
    await expect(httpTarget({ url: serviceUrl, toolCalls: 'steps' }).run('x', context())).rejects.toThrow(
      `${serviceUrl}: \`steps\` in the response is not a list of tool calls (each with a \`name\`, or OpenAI's \`function.name\`). Fix \`tool_calls\` in the target.`,
    )
    await expect(httpTarget({ url: serviceUrl, model: 'meta.model' }).run('x', context())).rejects.toThrow(
      `${serviceUrl}: the response has no \`meta.model\` (stopped at \`model\`; found: llm, tokens, calls). Fix \`model\` in the target.`,
    )
  })
})
