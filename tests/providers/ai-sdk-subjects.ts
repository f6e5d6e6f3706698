import { createAnthropic } from '@ai-sdk/anthropic'
import { createOpenAI } from '@ai-sdk/openai'
import { convertArrayToReadableStream, MockLanguageModelV3 } from 'ai/test'
import { AiSdkProvider } from '../../src/providers/ai-sdk.ts'
import { startMockLlmServer } from '../../src/testing/index.ts'
import type { ContractReply, ContractSubject } from './provider.contract.ts'
import { toMockReplies } from './mock-subjects.ts'

/** Usage the mock model reports: 120 prompt tokens, 64 of them read from the cache, 8 written to it. */
export const mockUsage = {
  inputTokens: { total: 120, noCache: 48, cacheRead: 64, cacheWrite: 8 },
  outputTokens: { total: 18, text: 18, reasoning: 0 },
}

type LanguageModelV3GenerateResult = Awaited<ReturnType<MockLanguageModelV3['doGenerate']>>
type LanguageModelV3StreamPart =
  Awaited<ReturnType<MockLanguageModelV3['doStream']>>['stream'] extends ReadableStream<infer Part>
    ? Part
    : never

const toolCallsOf = (reply: ContractReply) => ('toolCalls' in reply ? reply.toolCalls : [])

function generateResult(reply: ContractReply, call: number): LanguageModelV3GenerateResult {
  const calls = toolCallsOf(reply)
  return {
    content:
      'text' in reply
        ? [{ type: 'text', text: reply.text }]
        : calls.map((toolCall, i) => ({
            type: 'tool-call' as const,
            toolCallId: `call_${call}_${i}`,
            toolName: toolCall.name,
            input: toolCall.arguments,
          })),
    finishReason:
      calls.length > 0 ? { unified: 'tool-calls', raw: 'tool_calls' } : { unified: 'stop', raw: 'stop' },
    usage: mockUsage,
    warnings: [],
    response: { modelId: 'mock-model-2026' },
  }
}

/** The parts a streaming API sends for a reply: text and tool input cut into pieces of four characters. */
function streamParts(reply: ContractReply, call: number): LanguageModelV3StreamPart[] {
  const pieces = (text: string) => text.match(/.{1,4}/gs) ?? []
  const parts: LanguageModelV3StreamPart[] = [{ type: 'stream-start', warnings: [] }]
  if ('text' in reply) {
    parts.push({ type: 'text-start', id: 't' })
    for (const delta of pieces(reply.text)) parts.push({ type: 'text-delta', id: 't', delta })
    parts.push({ type: 'text-end', id: 't' })
  }
  toolCallsOf(reply).forEach((toolCall, i) => {
    const id = `call_${call}_${i}`
    parts.push({ type: 'tool-input-start', id, toolName: toolCall.name })
    for (const delta of pieces(toolCall.arguments)) parts.push({ type: 'tool-input-delta', id, delta })
    parts.push({ type: 'tool-input-end', id })
    parts.push({ type: 'tool-call', toolCallId: id, toolName: toolCall.name, input: toolCall.arguments })
  })
  const { finishReason, usage } = generateResult(reply, call)
  parts.push({ type: 'finish', finishReason, usage })
  return parts
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/**
 * The AI SDK's own mock language model playing the script: each call takes the next reply, and a call past the
 * end fails loudly. Its `delayMs` waits without heeding the abort signal, so the bridge must stop waiting itself.
 */
export function mockModelPlaying(script: ContractReply[]): MockLanguageModelV3 {
  let calls = 0
  const next = async () => {
    const reply = script[calls]
    if (!reply)
      throw new Error(`the mock model was called ${calls + 1} times; the script has ${script.length}`)
    calls++
    if (reply.delayMs) await sleep(reply.delayMs)
    return { reply, call: calls }
  }
  return new MockLanguageModelV3({
    provider: 'mock.chat',
    modelId: 'mock-model',
    doGenerate: async () => {
      const { reply, call } = await next()
      return generateResult(reply, call)
    },
    doStream: async () => {
      const { reply, call } = await next()
      return { stream: convertArrayToReadableStream(streamParts(reply, call)) }
    },
  })
}

export const aiSdkMockSubject = (script: ContractReply[]): ContractSubject => ({
  provider: new AiSdkProvider({ model: mockModelPlaying(script), id: 'mock:mock-model' }),
})

/** `@ai-sdk/openai`'s models, through the bridge, over HTTP to our mock server. */
export const aiSdkOpenAiOverMock =
  (api: 'chat' | 'responses') =>
  async (script: ContractReply[]): Promise<ContractSubject> => {
    const server = await startMockLlmServer({ script: toMockReplies(script) })
    const openai = createOpenAI({ baseURL: server.openaiBaseURL, apiKey: 'sk-test' })
    return {
      provider: new AiSdkProvider({ model: openai[api]('gpt-test'), id: `openai:gpt-test` }),
      dispose: () => server.close(),
    }
  }

/** `@ai-sdk/anthropic`'s model, through the bridge, over HTTP to our mock server's Messages API. */
export const aiSdkAnthropicOverMock = async (script: ContractReply[]): Promise<ContractSubject> => {
  const server = await startMockLlmServer({ script: toMockReplies(script) })
  const anthropic = createAnthropic({ baseURL: `${server.anthropicBaseURL}/v1`, apiKey: 'ant-test' })
  return {
    provider: new AiSdkProvider({ model: anthropic('claude-test'), id: 'anthropic:claude-test' }),
    dispose: () => server.close(),
  }
}
