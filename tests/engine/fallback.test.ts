import { expect, test } from 'vitest'
import { Agent, fallback, ProviderError } from '../../src/index.ts'
import { ScriptedProvider } from '../../src/testing/index.ts'

test('a fallback to the next provider appears in the trace, the observers and providerUsed', async () => {
  const overloaded = new ProviderError('Anthropic returned 529', {
    providerId: 'primary',
    status: 529,
    retryable: true,
  })
  const primary = new ScriptedProvider([{ error: overloaded }], { id: 'primary' })
  const secondary = new ScriptedProvider(['From the secondary.'], { id: 'secondary' })
  const seen: string[] = []
  const agent = new Agent({
    model: fallback([primary, secondary]),
    observers: [{ onFallback: ({ from, to }) => void seen.push(`${from}→${to}`) }],
  })

  const result = await agent.run('hello')

  expect(result.output).toBe('From the secondary.')
  expect(result.providerUsed).toBe('secondary')
  expect(result.trace.filter((step) => step.type === 'fallback')).toMatchObject([
    { from: 'primary', to: 'secondary', error: 'Anthropic returned 529' },
  ])
  expect(seen).toEqual(['primary→secondary'])
})
