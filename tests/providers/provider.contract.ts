import { afterEach, describe, expect, test } from 'vitest'
import type {
  CompletionEvent,
  CompletionRequest,
  Provider,
  ToolSchema,
} from '../../src/providers/provider.ts'
import { ProviderError } from '../../src/errors.ts'

/** One reply the provider under test must produce, whatever its backend. */
export type ContractReply =
  { text: string; delayMs?: number } | { toolCalls: { name: string; arguments: string }[]; delayMs?: number }

export interface ContractSubject {
  provider: Provider
  dispose?: () => void | Promise<void>
}

/** Sets up a provider that will answer the given replies in order. */
export type CreateContractSubject = (script: ContractReply[]) => ContractSubject | Promise<ContractSubject>

export interface ContractOptions {
  /** the backend honours `delayMs`, so an abort can land mid-flight @default false */
  delays?: boolean
}

const weather: ToolSchema = {
  name: 'get_weather',
  description: 'Current weather for a city',
  parameters: {
    type: 'object',
    properties: { city: { type: 'string' } },
    required: ['city'],
    additionalProperties: false,
  },
}

const ask = (content: string, extra: Partial<CompletionRequest> = {}): CompletionRequest => ({
  system: 'You are terse.',
  messages: [{ role: 'user', content }],
  tools: [weather],
  ...extra,
})

const live = (): { signal: AbortSignal } => ({ signal: new AbortController().signal })

async function collect(events: AsyncIterable<CompletionEvent>): Promise<CompletionEvent[]> {
  const list: CompletionEvent[] = []
  for await (const event of events) list.push(event)
  return list
}

/** The behaviour every Provider must show: run it against each implementation. */
export function describeProvider(
  name: string,
  create: CreateContractSubject,
  options: ContractOptions = {},
): void {
  describe(`${name} (provider contract)`, () => {
    let disposers: (() => void | Promise<void>)[] = []

    afterEach(async () => {
      await Promise.all(disposers.map(async (dispose) => dispose()))
      disposers = []
    })

    async function subject(script: ContractReply[]): Promise<Provider> {
      const created = await create(script)
      if (created.dispose) disposers.push(created.dispose)
      return created.provider
    }

    test('answers with text and a stop reason', async () => {
      const provider = await subject([{ text: 'Sunny in Paris.' }])
      const completion = await provider.complete(ask('Weather in Paris?'), live())
      expect(completion.message).toEqual({ text: 'Sunny in Paris.', toolCalls: [] })
      expect(completion.finishReason).toBe('stop')
      expect(completion.model).toEqual(expect.any(String))
    })

    test('asks for one tool call with its arguments as raw JSON text', async () => {
      const provider = await subject([
        { toolCalls: [{ name: 'get_weather', arguments: '{"city":"Paris"}' }] },
      ])
      const completion = await provider.complete(ask('Weather in Paris?'), live())
      expect(completion.finishReason).toBe('tool_calls')
      expect(completion.message.toolCalls).toHaveLength(1)
      const [call] = completion.message.toolCalls
      expect(call?.name).toBe('get_weather')
      expect(call?.id).toMatch(/.+/)
      expect(JSON.parse(call?.arguments ?? '')).toEqual({ city: 'Paris' })
    })

    test('asks for parallel tool calls in order, each with its own id', async () => {
      const provider = await subject([
        {
          toolCalls: [
            { name: 'get_weather', arguments: '{"city":"Paris"}' },
            { name: 'get_weather', arguments: '{"city":"Oslo"}' },
          ],
        },
      ])
      const { message } = await provider.complete(ask('Weather in Paris and Oslo?'), live())
      expect(message.toolCalls.map((call) => JSON.parse(call.arguments) as unknown)).toEqual([
        { city: 'Paris' },
        { city: 'Oslo' },
      ])
      expect(new Set(message.toolCalls.map((call) => call.id)).size).toBe(2)
    })

    test('sends a failed tool result back and gets the next answer', async () => {
      const provider = await subject([
        { toolCalls: [{ name: 'get_weather', arguments: '{"city":"Atlantis"}' }] },
        { text: 'I could not find Atlantis.' },
      ])
      const first = await provider.complete(ask('Weather in Atlantis?'), live())
      const call = first.message.toolCalls[0]!
      const second = await provider.complete(
        ask('Weather in Atlantis?', {
          messages: [
            { role: 'user', content: 'Weather in Atlantis?' },
            { role: 'assistant', content: first.message.text, toolCalls: first.message.toolCalls },
            { role: 'tool', toolCallId: call.id, name: call.name, content: 'unknown city', isError: true },
          ],
        }),
        live(),
      )
      expect(second.message.text).toBe('I could not find Atlantis.')
    })

    test('returns structured output as JSON text when asked for a schema', async () => {
      const provider = await subject([{ text: '{"summary":"sunny"}' }])
      const output = {
        name: 'answer',
        schema: {
          type: 'object',
          properties: { summary: { type: 'string' } },
          required: ['summary'],
          additionalProperties: false,
        },
      }
      const completion = await provider.complete(ask('Summarize.', { output, tools: [] }), live())
      expect(JSON.parse(completion.message.text)).toEqual({ summary: 'sunny' })
    })

    test('streams text deltas that add up to the final completion', async (context) => {
      const provider = await subject([{ text: 'It is sunny in Paris today.' }])
      if (!provider.stream) return context.skip()
      const events = await collect(provider.stream(ask('Weather in Paris?'), live()))
      const last = events.at(-1)
      expect(last?.type).toBe('done')
      const text = events.map((event) => (event.type === 'text-delta' ? event.text : '')).join('')
      expect(text).toBe('It is sunny in Paris today.')
      expect(last?.type === 'done' && last.completion.message.text).toBe(text)
    })

    test('streams tool call deltas that add up to the arguments', async (context) => {
      const provider = await subject([
        { toolCalls: [{ name: 'get_weather', arguments: '{"city":"Paris"}' }] },
      ])
      if (!provider.stream) return context.skip()
      const events = await collect(provider.stream(ask('Weather in Paris?'), live()))
      const deltas = events.flatMap((event) => (event.type === 'tool-call-delta' ? [event] : []))
      expect(deltas.map((delta) => delta.argumentsDelta).join('')).toBe('{"city":"Paris"}')
      expect(deltas.find((delta) => delta.name)?.name).toBe('get_weather')
      const last = events.at(-1)
      expect(last?.type === 'done' && last.completion.finishReason).toBe('tool_calls')
      expect(last?.type === 'done' && last.completion.message.toolCalls[0]?.name).toBe('get_weather')
    })

    test('reports usage with cache tokens counted inside input tokens', async () => {
      const provider = await subject([{ text: 'Sunny.' }])
      const { usage } = await provider.complete(ask('Weather in Paris?'), live())
      expect(usage.inputTokens).toBeGreaterThan(0)
      expect(usage.outputTokens).toBeGreaterThan(0)
      expect(usage.inputTokens).toBeGreaterThanOrEqual(usage.cacheReadTokens + usage.cacheWriteTokens)
      for (const count of Object.values(usage)) expect(Number.isInteger(count)).toBe(true)
    })

    test('rejects with the signal reason, not a provider error, when aborted before the call', async () => {
      const provider = await subject([{ text: 'never sent' }])
      const controller = new AbortController()
      const reason = new Error('stop now')
      controller.abort(reason)
      await expect(provider.complete(ask('Weather?'), { signal: controller.signal })).rejects.toBe(reason)
      if (provider.stream) {
        await expect(collect(provider.stream(ask('Weather?'), { signal: controller.signal }))).rejects.toBe(
          reason,
        )
      }
    })

    test.runIf(options.delays)('rejects with the signal reason when aborted mid-flight', async () => {
      const provider = await subject([{ text: 'too late', delayMs: 5_000 }])
      const controller = new AbortController()
      const reason = new Error('user cancelled')
      setTimeout(() => {
        controller.abort(reason)
      }, 50)
      const started = performance.now()
      const error: unknown = await provider
        .complete(ask('Weather?'), { signal: controller.signal })
        .catch((e: unknown) => e)
      expect(error).toBe(reason)
      expect(error).not.toBeInstanceOf(ProviderError)
      expect(performance.now() - started).toBeLessThan(2_000)
    })
  })
}
