import type { MockHandler } from '../../src/testing/index.ts'

/**
 * The mock model of the order agents: asked about order `<id>`, it calls `lookup_order` with that id; once it has
 * a tool result, it answers. Concurrent cases each get their own replies, whatever order they arrive in.
 */
export const orderModel: MockHandler = (request) => {
  const body = JSON.stringify(request.body)
  const id = /order (\w+)/.exec(body)?.[1] ?? 'none'
  if (body.includes('function_call_output') || body.includes('"role":"tool"'))
    return {
      text: `Order ${id} is on its way.`,
      usage: { inputTokens: 200, outputTokens: 10 },
      latencyMs: 20,
    }
  return {
    toolCalls: [{ name: 'lookup_order', args: { id } }],
    usage: { inputTokens: 100, outputTokens: 20, cacheReadTokens: 40 },
    latencyMs: 20,
  }
}

/** GPT-4.1 mini's published prices (openai.com/api/pricing): USD per million tokens, input / cached input / output. */
export function gpt41MiniCost(usage: { input: number; cached: number; output: number }): number {
  return ((usage.input - usage.cached) * 0.4 + usage.cached * 0.1 + usage.output * 1.6) / 1e6
}
