import { AnthropicProvider } from '../../src/providers/anthropic.ts'
import { createProviderFromModelString } from '../../src/providers/models.ts'
import { OpenAiProvider } from '../../src/providers/openai.ts'
import { OpenAiResponsesProvider } from '../../src/providers/openai-responses.ts'
import type { Provider } from '../../src/providers/provider.ts'
import { startMockLlmServer, type MockLlmServer, type MockReply } from '../../src/testing/index.ts'
import type { ContractReply, ContractSubject } from './provider.contract.ts'

/** The neutral contract script as mock server replies. */
export function toMockReplies(script: ContractReply[]): MockReply[] {
  return script.map((reply) => {
    const latency = reply.delayMs === undefined ? {} : { latencyMs: reply.delayMs }
    return 'text' in reply ? { text: reply.text, ...latency } : { toolCalls: reply.toolCalls, ...latency }
  })
}

async function overMock(
  script: ContractReply[],
  make: (server: MockLlmServer) => Provider,
): Promise<ContractSubject> {
  const server = await startMockLlmServer({ script: toMockReplies(script) })
  return { provider: make(server), dispose: () => server.close() }
}

export const openAiOverMock = (script: ContractReply[]): Promise<ContractSubject> =>
  overMock(
    script,
    (server) =>
      new OpenAiProvider({
        model: 'gpt-test',
        apiKey: 'sk-test',
        baseURL: server.openaiBaseURL,
        timeoutMs: 5_000,
      }),
  )

export const openAiResponsesOverMock = (script: ContractReply[]): Promise<ContractSubject> =>
  overMock(
    script,
    (server) =>
      new OpenAiResponsesProvider({
        model: 'gpt-test',
        apiKey: 'sk-test',
        baseURL: server.openaiBaseURL,
        timeoutMs: 5_000,
      }),
  )

export const anthropicOverMock = (script: ContractReply[]): Promise<ContractSubject> =>
  overMock(
    script,
    (server) =>
      new AnthropicProvider({
        model: 'claude-test',
        apiKey: 'ant-test',
        baseURL: server.anthropicBaseURL,
        timeoutMs: 5_000,
      }),
  )

/** An Ollama-style server: the base URL without `/v1` and no API key in the environment. */
export const ollamaOverMock = (script: ContractReply[]): Promise<ContractSubject> =>
  overMock(script, (server) =>
    createProviderFromModelString('ollama:llama3.2', {
      env: {},
      baseURLs: { ollama: server.url },
      timeoutMs: 5_000,
    }),
  )
