import { describe, expect, test } from 'vitest'
import { z } from 'zod'
import { tool } from '../../src/index.ts'
import { checkToolArguments } from '../../src/tools/validate.ts'

const booking = tool({
  name: 'book_flight',
  description: 'Books a flight',
  parameters: z.object({
    from: z.string(),
    to: z.string(),
    passengers: z.number().int().min(1),
    refundable: z.boolean().optional(),
    contact: z.object({ email: z.email(), phone: z.string() }),
  }),
  execute: () => 'booked',
})

const valid = {
  from: 'OSL',
  to: 'CDG',
  passengers: 2,
  contact: { email: 'ada@example.com', phone: '123' },
}

const check = (args: unknown) => checkToolArguments(booking, JSON.stringify(args))

describe('checkToolArguments', () => {
  test('accepts valid arguments and returns them parsed', () => {
    expect(check(valid)).toEqual({ ok: true, args: valid })
  })

  test('treats empty arguments as an empty object', () => {
    const noArgs = tool({ name: 'now', description: 'Time', parameters: z.object({}), execute: () => 'now' })

    expect(checkToolArguments(noArgs, '  ')).toEqual({ ok: true, args: {} })
  })

  test('lists every issue with its path', () => {
    const result = check({ from: 'OSL', passengers: 0, contact: { email: 'nope', phone: 5 } })

    expect(result).toMatchObject({ ok: false })
    expect(result.ok ? '' : result.error).toBe(
      [
        'Invalid arguments for tool `book_flight`:',
        '- to: expected string, received undefined',
        '- passengers: Too small: expected number to be >=1',
        '- contact.email: Invalid email address',
        '- contact.phone: expected string, received number',
        'Fix the arguments and call the tool again.',
      ].join('\n'),
    )
  })

  test('suggests the closest known key for an unknown key', () => {
    const result = check({ ...valid, passangers: 2, passengers: undefined })

    expect(result.ok ? '' : result.error).toBe(
      [
        'Invalid arguments for tool `book_flight`:',
        '- passengers: expected number, received undefined',
        '- unknown key `passangers` (did you mean `passengers`?)',
        'Fix the arguments and call the tool again.',
      ].join('\n'),
    )
  })

  test('lists the known keys when no key is close to an unknown one', () => {
    const result = check({ ...valid, xyzzy: true })

    expect(result.ok ? '' : result.error).toBe(
      [
        'Invalid arguments for tool `book_flight`:',
        '- unknown key `xyzzy` (known keys: from, to, passengers, refundable, contact)',
        'Fix the arguments and call the tool again.',
      ].join('\n'),
    )
  })

  test('suggests the closest key for an unknown key inside a nested object', () => {
    const result = check({ ...valid, contact: { email: 'ada@example.com', phone: '123', phones: '456' } })

    expect(result.ok ? '' : result.error).toBe(
      [
        'Invalid arguments for tool `book_flight`:',
        '- contact: unknown key `phones` (did you mean `phone`?)',
        'Fix the arguments and call the tool again.',
      ].join('\n'),
    )
  })

  test('coerces numbers and booleans sent as strings', () => {
    const result = check({ ...valid, passengers: '3', refundable: 'true' })

    expect(result).toEqual({ ok: true, args: { ...valid, passengers: 3, refundable: true } })
  })

  test('coerces yes/no, on/off and 1/0 to booleans, in any case', () => {
    const words = ['yes', 'No', 'ON', 'off', '1', '0', 'TRUE']
    const coerced = words.map((word) => {
      const result = check({ ...valid, refundable: word })
      return result.ok ? (result.args as { refundable: boolean }).refundable : result.error
    })

    expect(coerced).toEqual([true, false, true, false, true, false, true])
  })

  test('coerces a string that needs it while still reporting the other issues', () => {
    const result = check({ ...valid, passengers: '3', to: 7 })

    expect(result).toMatchObject({ ok: false, args: { passengers: 3, to: 7 } })
    expect(result.ok ? '' : result.error).toBe(
      [
        'Invalid arguments for tool `book_flight`:',
        '- to: expected string, received number',
        'Fix the arguments and call the tool again.',
      ].join('\n'),
    )
  })

  test('does not coerce strings that are not exactly a number or a boolean', () => {
    const result = check({ ...valid, passengers: 'two', refundable: 'maybe' })

    expect(result.ok ? '' : result.error).toBe(
      [
        'Invalid arguments for tool `book_flight`:',
        '- passengers: expected number, received string',
        '- refundable: expected boolean, received string',
        'Fix the arguments and call the tool again.',
      ].join('\n'),
    )
  })

  test('does not turn a number into a string', () => {
    const result = check({ ...valid, from: 123 })

    expect(result.ok).toBe(false)
  })

  test('reports arguments that are not an object', () => {
    const result = checkToolArguments(booking, '[1, 2]')

    expect(result.ok ? '' : result.error).toBe(
      [
        'Invalid arguments for tool `book_flight`:',
        '- (arguments): expected object, received array',
        'Fix the arguments and call the tool again.',
      ].join('\n'),
    )
  })

  test('reports malformed JSON and keeps the raw text as the arguments', () => {
    const result = checkToolArguments(booking, '{from: OSL}')

    expect(result).toMatchObject({ ok: false, args: '{from: OSL}' })
    expect(result.ok ? '' : result.error).toMatch(
      /^Invalid arguments for tool `book_flight`: not valid JSON \(.+\)\. Send the arguments as one JSON object\.$/,
    )
  })
})

describe('unknown keys in nested values', () => {
  const order = tool({
    name: 'place_order',
    description: 'Places an order',
    parameters: z.object({
      items: z.array(z.object({ sku: z.string(), quantity: z.number() })),
      note: z.object({ text: z.string() }).optional(),
      extra: z.looseObject({ source: z.string() }).optional(),
    }),
    execute: () => 'placed',
  })

  test('reports an unknown key inside an array of objects with its index', () => {
    const result = checkToolArguments(order, JSON.stringify({ items: [{ sku: 'a', quantity: 1, qty: 2 }] }))

    expect(result.ok ? '' : result.error).toBe(
      [
        'Invalid arguments for tool `place_order`:',
        '- items.0: unknown key `qty` (known keys: sku, quantity)',
        'Fix the arguments and call the tool again.',
      ].join('\n'),
    )
  })

  test('reports an unknown key inside an optional object', () => {
    const result = checkToolArguments(order, JSON.stringify({ items: [], note: { txt: 'hi', text: 'hi' } }))

    expect(result.ok ? '' : result.error).toBe(
      [
        'Invalid arguments for tool `place_order`:',
        '- note: unknown key `txt` (did you mean `text`?)',
        'Fix the arguments and call the tool again.',
      ].join('\n'),
    )
  })

  test('allows extra keys in an object the schema declares as loose', () => {
    const args = { items: [], extra: { source: 'web', campaign: 'spring' } }

    expect(checkToolArguments(order, JSON.stringify(args))).toEqual({ ok: true, args })
  })
})

describe('coercion in nested values', () => {
  const settings = tool({
    name: 'save_settings',
    description: 'Saves settings',
    parameters: z.object({
      limits: z.array(z.number()),
      retries: z.int().optional(),
      verbose: z.boolean().default(false),
      window: z.object({ width: z.number() }).nullable(),
    }),
    execute: () => 'saved',
  })

  test('coerces inside arrays, optional, defaulted and nullable values', () => {
    const raw = { limits: ['1', '2.5'], retries: '3', verbose: 'true', window: { width: '-1e2' } }

    expect(checkToolArguments(settings, JSON.stringify(raw))).toEqual({
      ok: true,
      args: { limits: [1, 2.5], retries: 3, verbose: true, window: { width: -100 } },
    })
  })

  test('does not coerce a fraction into an integer', () => {
    const result = checkToolArguments(settings, JSON.stringify({ limits: [], retries: '3.5', window: null }))

    expect(result.ok ? '' : result.error).toBe(
      [
        'Invalid arguments for tool `save_settings`:',
        '- retries: expected int, received number',
        'Fix the arguments and call the tool again.',
      ].join('\n'),
    )
  })
})
