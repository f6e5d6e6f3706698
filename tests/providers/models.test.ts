import { afterEach, describe, expect, test } from 'vitest'
import { ConfigError } from '../../src/errors.ts'
import {
  checkModelCredentials,
  createProviderFromModelString,
  modelPrefixes,
} from '../../src/providers/models.ts'
import { startMockLlmServer, type MockLlmServer } from '../../src/testing/index.ts'

let server: MockLlmServer | undefined
afterEach(async () => {
  await server?.close()
  server = undefined
})

const signal = (): { signal: AbortSignal } => ({ signal: new AbortController().signal })
const hello = { messages: [{ role: 'user' as const, content: 'hi' }], tools: [] }

describe('createProviderFromModelString', () => {
  test('uses the model string itself as the provider id', () => {
    const env = { OPENAI_API_KEY: 'sk-a', ANTHROPIC_API_KEY: 'ant-a' }
    for (const model of [
      'openai:gpt-4.1-mini',
      'anthropic:claude-sonnet-4-5',
      'ollama:llama3.2',
      'vllm:qwen/qwen3-8b',
    ]) {
      expect(createProviderFromModelString(model, { env }).id).toBe(model)
    }
  })

  test('names the environment variable when an API key is missing', () => {
    expect(() => createProviderFromModelString('openai:gpt-4.1-mini', { env: {} })).toThrow(
      new ConfigError('No API key for `openai:gpt-4.1-mini`: set the OPENAI_API_KEY environment variable.'),
    )
    expect(() => {
      checkModelCredentials('anthropic:claude-sonnet-4-5', { env: { ANTHROPIC_API_KEY: ' ' } })
    }).toThrow(/set the ANTHROPIC_API_KEY environment variable/)
  })

  test('needs no key for ollama and vllm', () => {
    expect(() => {
      checkModelCredentials('ollama:llama3.2', { env: {} })
    }).not.toThrow()
    expect(() => {
      checkModelCredentials('vllm:meta-llama/Llama-3.1-8B-Instruct', { env: {} })
    }).not.toThrow()
  })

  test('asks for a base URL for openai-compatible servers', () => {
    expect(() => {
      checkModelCredentials('openai-compatible:my-model', { env: {} })
    }).toThrow(/OPENAI_COMPATIBLE_BASE_URL/)
    expect(() => {
      checkModelCredentials('openai-compatible:my-model', {
        env: { OPENAI_COMPATIBLE_BASE_URL: 'not a url' },
      })
    }).toThrow(
      'Invalid base URL "not a url" for `openai-compatible:my-model`: check OPENAI_COMPATIBLE_BASE_URL.',
    )
  })

  test('rejects unknown prefixes and empty model names', () => {
    expect(() => createProviderFromModelString('openia:gpt-4.1', { env: {} })).toThrow(
      /Unknown model `openia:gpt-4.1`/,
    )
    expect(() => createProviderFromModelString('openai:', { env: {} })).toThrow(
      'Model string `openai:` names no model: write `openai:<model>`.',
    )
    expect(modelPrefixes).toContain('openai-compatible')
  })

  test('sends ollama requests to OLLAMA_BASE_URL, adding /v1 when the URL has no path', async () => {
    server = await startMockLlmServer({ script: [{ text: 'hi' }] })
    const provider = createProviderFromModelString('ollama:llama3.2', {
      env: { OLLAMA_BASE_URL: server.url },
    })
    await expect(provider.complete(hello, signal())).resolves.toMatchObject({ message: { text: 'hi' } })
    expect(server.journal[0]).toMatchObject({
      path: '/v1/chat/completions',
      headers: { authorization: 'Bearer ollama' },
    })
    expect(server.journal[0]?.body).toMatchObject({ model: 'llama3.2' })
  })

  test('sends openai-responses models to /v1/responses with the OpenAI key', async () => {
    server = await startMockLlmServer({ script: [{ text: 'hi' }], apiKey: 'sk-env' })
    const provider = createProviderFromModelString('openai-responses:gpt-test', {
      env: { OPENAI_API_KEY: 'sk-env', OPENAI_BASE_URL: server.openaiBaseURL },
    })
    expect(provider.id).toBe('openai-responses:gpt-test')
    await expect(provider.complete(hello, signal())).resolves.toMatchObject({ message: { text: 'hi' } })
    expect(server.journal[0]).toMatchObject({ path: '/v1/responses', body: { model: 'gpt-test' } })
    expect(() => createProviderFromModelString('openai-responses:gpt-test', { env: {} })).toThrow(
      /OPENAI_API_KEY/,
    )
  })

  test('lets options override the environment for base URLs and keys', async () => {
    server = await startMockLlmServer({ script: [{ text: 'a' }, { text: 'b' }], apiKey: 'from-options' })
    const options = {
      env: { ANTHROPIC_API_KEY: 'from-env', OPENAI_COMPATIBLE_BASE_URL: 'http://127.0.0.1:1/v1' },
      apiKeys: { anthropic: 'from-options', 'openai-compatible': 'from-options' },
      baseURLs: { anthropic: server.anthropicBaseURL, 'openai-compatible': server.openaiBaseURL },
    }
    await expect(
      createProviderFromModelString('anthropic:claude-test', options).complete(hello, signal()),
    ).resolves.toMatchObject({
      message: { text: 'a' },
    })
    await expect(
      createProviderFromModelString('openai-compatible:local-model', options).complete(hello, signal()),
    ).resolves.toMatchObject({ message: { text: 'b' } })
  })
})
