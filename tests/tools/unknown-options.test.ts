import { describe, expect, test } from 'vitest'
import { z } from 'zod'
import { Agent, ConfigError, tool } from '../../src/index.ts'
import { ScriptedProvider } from '../../src/testing/index.ts'

const base = { name: 'lookup', description: 'Looks up', parameters: z.object({}), execute: () => 'ok' }

describe('unknown options are rejected with a did-you-mean', () => {
  test('a typo in a tool definition is a ConfigError naming the tool, the key and the likely one', () => {
    // @ts-expect-error -- `readonly` is not an option; `readOnly` is
    expect(() => tool({ ...base, readonly: true })).toThrow(
      new ConfigError('Tool `lookup`: unknown option `readonly`. Did you mean `readOnly`?'),
    )
  })

  test('a tool option nothing resembles lists the known ones', () => {
    // @ts-expect-error -- not an option
    expect(() => tool({ ...base, colour: 'red' })).toThrow(
      /^Tool `lookup`: unknown option `colour`\. Known options: name, description, parameters, execute, /,
    )
  })

  test('run() and stream() reject an unknown option before calling the model', async () => {
    const provider = new ScriptedProvider(['never'])
    const agent = new Agent({ model: provider })
    // @ts-expect-error -- `onProgress` is not a run option
    await expect(agent.run('hi', { onProgress: () => undefined })).rejects.toThrow(
      /^Agent `agent`: unknown run option `onProgress`\. Known options: /,
    )
    // @ts-expect-error -- `sginal` is not a run option
    const stream = agent.stream('hi', { sginal: new AbortController().signal })
    await expect(stream.next()).rejects.toThrow(
      'Agent `agent`: unknown run option `sginal`. Did you mean `signal`?',
    )
    expect(provider.calls).toHaveLength(0)
  })

  test('batch() rejects an unknown option, concurrency being one it knows', async () => {
    const agent = new Agent({ model: new ScriptedProvider(['a', 'b']) })
    // @ts-expect-error -- `concurency` is misspelt
    await expect(agent.batch(['x', 'y'], { concurency: 2 })).rejects.toThrow(
      'Agent `agent`: unknown batch option `concurency`. Did you mean `concurrency`?',
    )
    await expect(agent.batch(['x', 'y'], { concurrency: 2 })).resolves.toHaveLength(2)
  })
})

describe('tool.execute() called directly', () => {
  const weather = tool({
    name: 'get_weather',
    description: 'Weather',
    parameters: z.object({ city: z.string(), days: z.number().int().default(1) }),
    execute: ({ city, days }, ctx) => `${city} for ${days} day(s), user ${String(ctx.deps)}`,
  })

  test('validates the arguments and fills defaults, as a call from the model would', async () => {
    await expect(weather.execute({ city: 'Oslo' })).resolves.toBe('Oslo for 1 day(s), user undefined')
    await expect(weather.execute({ city: 'Oslo' }, { deps: 'ada' })).resolves.toBe(
      'Oslo for 1 day(s), user ada',
    )
  })

  test('rejects wrong arguments with each issue and a did-you-mean', async () => {
    // @ts-expect-error -- city must be a string
    await expect(weather.execute({ city: 3 })).rejects.toThrow(
      new ConfigError('Invalid arguments for tool `get_weather`:\n- city: expected string, received number'),
    )
    // @ts-expect-error -- `cty` is misspelt
    await expect(weather.execute({ cty: 'Oslo' })).rejects.toThrow(
      /unknown key `cty` \(did you mean `city`\?\)/,
    )
  })

  test('drains an async-generator tool, passing its chunks to emit, and returns the result', async () => {
    const progress = tool({
      name: 'progress',
      description: 'Reports progress',
      parameters: z.object({}),
      async *execute() {
        yield 'half'
        return 'done'
      },
    })
    const chunks: unknown[] = []
    await expect(progress.execute({}, { emit: (chunk) => chunks.push(chunk) })).resolves.toBe('done')
    expect(chunks).toEqual(['half'])
  })
})
