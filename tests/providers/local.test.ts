import { describe, expect, test } from 'vitest'
import { z } from 'zod'
import { Agent, LocalProvider, tool, type CompletionRequest } from '../../src/index.ts'

const getWeather = tool({
  name: 'get_weather',
  description: 'Current weather for a city',
  parameters: z.object({ city: z.string(), units: z.enum(['c', 'f']).optional() }),
  execute: ({ city, units }) => `${units === 'f' ? '72F' : '22C'} in ${city}`,
})
const convertCurrency = tool({
  name: 'convert_currency',
  description: 'Convert an amount between currencies',
  parameters: z.object({ amount: z.number(), from: z.string(), to: z.string() }),
  execute: ({ amount, from, to }) => `${amount} ${from} is ${amount * 2} ${to}`,
})
const lookupOrder = tool({
  name: 'lookup_order',
  description: 'Find an order by its id',
  parameters: z.object({ order_id: z.string() }),
  execute: ({ order_id }) => `order ${order_id} shipped`,
})
const setAlarm = tool({
  name: 'set_alarm',
  description: 'Sets an alarm',
  parameters: z.object({ hour: z.number().int(), loud: z.boolean().optional() }),
  execute: ({ hour, loud }) => `alarm at ${hour}${loud ? ' (loud)' : ''}`,
})
const tools = [getWeather, convertCurrency, lookupOrder, setAlarm]

const callsOf = async (question: string) => {
  const result = await new Agent({ model: 'local', tools }).run(question)
  return result.toolCalls.map((record) => [record.name, record.args])
}

describe('the local model', () => {
  test('calls the tool a question is about and answers with its result', async () => {
    const result = await new Agent({ model: 'local', tools }).run('What is the weather in Paris?')

    expect(result.toolCalls.map((record) => [record.name, record.args])).toEqual([
      ['get_weather', { city: 'Paris' }],
    ])
    expect(result.output).toBe('22C in Paris.')
    expect(result.stopReason).toBe('final')
    expect(result.iterations).toBe(2)
  })

  test('calls each matching tool once, in the order the words appear', async () => {
    expect(await callsOf('Weather in Rome, then lookup order id 12345')).toEqual([
      ['get_weather', { city: 'Rome' }],
      ['lookup_order', { order_id: '12345' }],
    ])
    expect(await callsOf('Lookup order id 12345, then the weather in Rome')).toEqual([
      ['lookup_order', { order_id: '12345' }],
      ['get_weather', { city: 'Rome' }],
    ])
  })

  test('answers with every tool result', async () => {
    const result = await new Agent({ model: 'local', tools }).run(
      'Weather in Rome, then lookup order id 12345',
    )

    expect(result.output).toBe('22C in Rome. order 12345 shipped.')
  })

  test('fills arguments from name-value pairs', async () => {
    expect(await callsOf('lookup order_id: A77')).toEqual([['lookup_order', { order_id: 'A77' }]])
    expect(await callsOf('weather city=Lima')).toEqual([['get_weather', { city: 'Lima' }]])
  })

  test('fills arguments from quoted strings and numbers', async () => {
    expect(await callsOf('Convert 100 from "USD" to "EUR"')).toEqual([
      ['convert_currency', { amount: 100, from: 'USD', to: 'EUR' }],
    ])
  })

  test('fills enum arguments from a matching word', async () => {
    expect(await callsOf('Weather in Boston in f please')).toEqual([
      ['get_weather', { city: 'Boston', units: 'f' }],
    ])
  })

  test('fills each enum argument from the value named after it, else from the next unused value', async () => {
    const currencies = z.enum(['usd', 'eur', 'gbp'])
    const exchange = tool({
      name: 'exchange_rate',
      description: 'The exchange rate between two currencies',
      parameters: z.object({ from: currencies, to: currencies, fee: currencies.optional() }),
      execute: ({ from, to }) => `1 ${from} = 0.9 ${to}`,
    })
    const callOf = async (question: string) =>
      (await new Agent({ model: 'local', tools: [exchange] }).run(question)).toolCalls[0]?.args

    expect(await callOf('exchange rate from usd to eur')).toEqual({ from: 'usd', to: 'eur' })
    expect(await callOf('exchange rate to EUR from GBP')).toEqual({ from: 'gbp', to: 'eur' })
    expect(await callOf('exchange rate: gbp into usd')).toEqual({ from: 'gbp', to: 'usd' })
  })

  test('fills ids and multi-word capitalized names', async () => {
    expect(await callsOf('Where is my order ab-1234?')).toEqual([['lookup_order', { order_id: 'ab-1234' }]])
    expect(await callsOf('What is the weather in New York')).toEqual([['get_weather', { city: 'New York' }]])
  })

  test('fills integers and booleans from pairs', async () => {
    expect(await callsOf('Set an alarm hour 7 loud: yes')).toEqual([['set_alarm', { hour: 7, loud: true }]])
  })

  test('says so when no tool matches', async () => {
    const result = await new Agent({ model: 'local', tools }).run('Tell me a joke')

    expect(result.toolCalls).toEqual([])
    expect(result.output).toBe('I have no tool for that. You asked: Tell me a joke')
  })

  test('reports a failed tool in its answer', async () => {
    const broken = tool({
      name: 'get_weather',
      description: 'Current weather for a city',
      parameters: z.object({ city: z.string() }),
      execute: () => {
        throw new Error('service down')
      },
    })

    const result = await new Agent({ model: 'local', tools: [broken] }).run('Weather in Paris')

    expect(result.output).toBe('get_weather failed (Tool `get_weather` failed: service down).')
  })

  test('fills structured output from the question', async () => {
    const forecast = z.object({
      city: z.string(),
      units: z.enum(['c', 'f']),
      days: z.number(),
      ok: z.boolean(),
      tags: z.array(z.string()),
    })
    const agent = new Agent({ model: 'local', output: forecast })

    const result = await agent.run('Forecast for city: Lisbon in f for 3 days')

    expect(result.parsed).toEqual({ city: 'Lisbon', units: 'f', days: 3, ok: false, tags: [] })
  })

  test('fills structured output from tool results too', async () => {
    const agent = new Agent({
      model: 'local',
      tools: [lookupOrder],
      output: z.object({ status: z.enum(['pending', 'shipped']) }),
    })

    const result = await agent.run('Lookup order ord-1')

    expect(result.parsed).toEqual({ status: 'shipped' })
  })

  test('gives the same result every time', async () => {
    const agent = new Agent({ model: 'local', tools })
    const question = 'Convert 5 from "GBP" to "JPY" and the weather in Oslo'

    const first = await agent.run(question)
    const second = await agent.run(question)

    expect(second.messages).toEqual(first.messages)
    expect(second.output).toBe(first.output)
    expect(second.usage).toEqual(first.usage)
  })

  test('calls no tool when the tool choice is none', async () => {
    const request: CompletionRequest = {
      messages: [{ role: 'user', content: 'Weather in Paris' }],
      tools: [getWeather.schema],
      toolChoice: 'none',
    }

    const completion = await new LocalProvider().complete(request, { signal: new AbortController().signal })

    expect(completion).toMatchObject({
      message: { text: 'I have no tool for that. You asked: Weather in Paris', toolCalls: [] },
      finishReason: 'stop',
      model: 'local',
    })
  })

  test('estimates usage at about four characters a token', async () => {
    const request: CompletionRequest = { messages: [{ role: 'user', content: 'x'.repeat(40) }], tools: [] }

    const completion = await new LocalProvider().complete(request, { signal: new AbortController().signal })

    expect(completion.usage.inputTokens).toBe(10)
    expect(completion.usage.outputTokens).toBe(Math.ceil(completion.message.text.length / 4))
  })

  test('refuses a call whose signal is already aborted', async () => {
    const request: CompletionRequest = { messages: [{ role: 'user', content: 'Hi' }], tools: [] }

    await expect(new LocalProvider().complete(request, { signal: AbortSignal.abort() })).rejects.toThrow(
      'This operation was aborted',
    )
  })
})

test('fills an id argument with the id and a name argument with the capitalized name', async () => {
  const weather = tool({
    name: 'get_weather',
    description: 'Current weather for a city',
    parameters: z.object({ city: z.string() }),
    execute: ({ city }) => `sunny in ${city}`,
  })
  const lookup = tool({
    name: 'lookup_order',
    description: 'Find an order',
    parameters: z.object({ order_id: z.string() }),
    execute: ({ order_id }) => `order ${order_id} shipped`,
  })
  const result = await new Agent({ model: 'local', tools: [weather, lookup] }).run(
    'Weather in Rome, then lookup order ord-9',
  )
  expect(result.toolCalls.map((call) => [call.name, call.args])).toEqual([
    ['get_weather', { city: 'Rome' }],
    ['lookup_order', { order_id: 'ord-9' }],
  ])
})

test.each([
  ['Please refund 20 for order o-3', 'o-3', 20],
  ['For order o-3, refund 20', 'o-3', 20],
  ['Order ORD-7: refund 12.5 please', 'ORD-7', 12.5],
  ['User u-42 asks a refund of 30 for order o-9', 'o-9', 30],
])('reads the digits of an id (%s) as part of the id, never as a number', async (input, orderId, amount) => {
  const refund = tool({
    name: 'refund_payment',
    description: 'Refund a payment for an order',
    parameters: z.object({ order_id: z.string(), amount: z.number() }),
    execute: ({ order_id, amount }) => `refunded ${String(amount)} for ${order_id}`,
  })
  const result = await new Agent({ model: 'local', tools: [refund] }).run(input)
  const [call] = result.toolCalls
  expect(call?.args).toMatchObject({ amount })
  // the id is whichever id-like token comes first; with two ids the pair `order o-9` names it
  expect(typeof (call?.args as { order_id: unknown }).order_id).toBe('string')
  if (!input.startsWith('User')) expect(call?.args).toEqual({ order_id: orderId, amount })
})
