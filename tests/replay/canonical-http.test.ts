import { describe, expect, test } from 'vitest'
import { canonicalHttpRequest } from '../../src/replay/http/canonical-http.ts'
import { isModelRequest } from '../../src/replay/http/model-request.ts'

const canonical = (url: string, body: unknown) =>
  canonicalHttpRequest('post', new URL(url), typeof body === 'string' ? body : JSON.stringify(body))

describe('the canonical form of an HTTP model request', () => {
  test('drops the port, secret query parameters and volatile fields, and sorts what is left', () => {
    const request = canonical(
      'http://127.0.0.1:4010/v1beta/models/gemini:generateContent?key=AIza-secret&b=2&a=1',
      {
        model: 'gpt-test',
        user: 'user-123',
        metadata: { session: 's-9' },
        stream_options: { include_usage: true },
        prompt_cache_key: 'k',
        messages: [{ role: 'user', content: 'Hi' }],
      },
    )

    expect(request).toEqual({
      method: 'POST',
      host: '127.0.0.1',
      path: '/v1beta/models/gemini:generateContent?a=1&b=2',
      body: { messages: [{ content: 'Hi', role: 'user' }], model: 'gpt-test' },
    })
  })

  test('replaces ids a live API makes up by their order of appearance, so a re-run sends the same request', () => {
    const turn = (callId: string, responseId: string) =>
      canonical('https://api.openai.com/v1/responses', {
        previous_response_id: responseId,
        input: [
          { type: 'function_call', call_id: callId, name: 'lookup', arguments: '{}' },
          { type: 'function_call_output', call_id: callId, output: 'ok', created_at: 1760000000 },
        ],
      })

    expect(turn('call_abc', 'resp_1')).toEqual(turn('call_xyz', 'resp_2'))
    expect(turn('call_abc', 'resp_1').body).toEqual({
      input: [
        { arguments: '{}', call_id: 'id_2', name: 'lookup', type: 'function_call' },
        { call_id: 'id_2', output: 'ok', type: 'function_call_output' },
      ],
      previous_response_id: 'id_1',
    })
  })

  test('keeps a body that is not JSON as its text, and an empty one as null', () => {
    expect(canonical('https://api.anthropic.com/v1/messages', 'not json').body).toBe('not json')
    expect(canonical('https://api.anthropic.com/v1/messages', '').body).toBeNull()
  })
})

describe('which requests are model calls', () => {
  test('POSTs to a model API host, or to a model API path on any host; nothing else', () => {
    expect(isModelRequest('POST', new URL('https://api.anthropic.com/v1/messages/count_tokens'))).toBe(true)
    expect(isModelRequest('POST', new URL('http://127.0.0.1:9/v1/chat/completions'))).toBe(true)
    expect(isModelRequest('POST', new URL('https://gw.example.com/openai/deployments/x/responses'))).toBe(
      true,
    )
    expect(isModelRequest('GET', new URL('https://api.openai.com/v1/models'))).toBe(false)
    expect(isModelRequest('POST', new URL('http://127.0.0.1:4318/v1/traces'))).toBe(false)
    expect(isModelRequest('POST', new URL('https://weather.example.com/forecast'))).toBe(false)
  })
})
