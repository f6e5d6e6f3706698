import { describe, expect, expectTypeOf, test } from 'vitest'
import { z } from 'zod'
import { Agent, ConfigError, tool, type ToolConfig } from '../../src/index.ts'
import { ScriptedProvider } from '../../src/testing/index.ts'

const parameters = z.object({
  city: z.string().describe('City name'),
  units: z.enum(['c', 'f']).optional(),
  days: z.number().int().min(1).default(1),
})

describe('tool()', () => {
  test('gives the model a JSON Schema of the parameters', () => {
    const weather = tool({
      name: 'get_weather',
      description: 'Current weather for a city',
      parameters,
      execute: () => 'sunny',
    })

    expect(weather.schema).toMatchObject({
      name: 'get_weather',
      description: 'Current weather for a city',
      parameters: {
        type: 'object',
        properties: {
          city: { type: 'string', description: 'City name' },
          units: { type: 'string', enum: ['c', 'f'] },
          days: { type: 'integer', minimum: 1, maximum: Number.MAX_SAFE_INTEGER, default: 1 },
        },
        required: ['city'],
      },
    })
  })

  test('sends the schema to the model with every request', async () => {
    const weather = tool({ name: 'get_weather', description: 'Weather', parameters, execute: () => 'sunny' })
    const provider = new ScriptedProvider(['ok'])

    await new Agent({ model: provider, tools: [weather] }).run('Hi')

    expect(provider.calls[0]?.tools).toEqual([weather.schema])
  })

  test('types the arguments of execute from the zod parameters', () => {
    tool({
      name: 'get_weather',
      description: 'Weather',
      parameters,
      execute: (args) => {
        expectTypeOf(args).toEqualTypeOf<{ city: string; units?: 'c' | 'f' | undefined; days: number }>()
        return 'sunny'
      },
    })
  })

  test('keeps the options it was given', () => {
    const submit = tool({
      name: 'submit',
      description: 'Submits',
      parameters: z.object({}),
      terminal: true,
      readOnly: false,
      timeoutMs: 5,
      maxRetries: 0,
      execute: () => 'ok',
    })

    expect(submit).toMatchObject({ terminal: true, readOnly: false, timeoutMs: 5, maxRetries: 0 })
  })
})

describe('bad tool definitions', () => {
  const base = { description: 'A tool', parameters: z.object({}), execute: () => 'ok' }

  test('rejects an empty name', () => {
    expect(() => tool({ ...base, name: '' })).toThrow(
      new ConfigError('A tool has an empty name: give it a `name` such as `get_weather`.'),
    )
  })

  test('rejects an empty or blank description, naming the tool', () => {
    const message =
      'Tool `search` has an empty `description`: say what it does and when to use it; the model chooses tools by it.'
    expect(() => tool({ ...base, name: 'search', description: '' })).toThrow(new ConfigError(message))
    expect(() => tool({ ...base, name: 'search', description: '  ' })).toThrow(new ConfigError(message))
  })

  test('rejects a name providers would refuse, naming the tool', () => {
    expect(() => tool({ ...base, name: 'get weather' })).toThrow(
      new ConfigError(
        'Tool `get weather` has an invalid name: use 1 to 64 letters, digits, `_` or `-` (providers reject others).',
      ),
    )
  })

  test('rejects parameters that are not a zod object, naming the tool', () => {
    const config = { ...base, name: 'search', parameters: z.string() } as unknown as ToolConfig<
      z.ZodObject,
      string,
      unknown
    >

    expect(() => tool(config)).toThrow(
      new ConfigError(
        'Tool `search` needs `parameters` to be a zod object, e.g. z.object({ city: z.string() }).',
      ),
    )
  })

  test('rejects a missing execute function, naming the tool', () => {
    const config = {
      name: 'search',
      description: 'Search',
      parameters: z.object({}),
    } as unknown as ToolConfig<z.ZodObject, string, unknown>

    expect(() => tool(config)).toThrow(new ConfigError('Tool `search` needs an `execute` function.'))
  })

  test('rejects two tools with the same name in one agent, naming the tool', () => {
    const first = tool({ ...base, name: 'search' })
    const second = tool({ ...base, name: 'search', description: 'Another search' })

    expect(() => new Agent({ model: new ScriptedProvider([]), tools: [first, second] })).toThrow(
      new ConfigError('Tool `search` is defined twice: tool names must be unique in an agent.'),
    )
  })
})
