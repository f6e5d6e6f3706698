import { describe, expect, test } from 'vitest'
import { formatChanges, jsonChanges } from '../../src/replay/diff.ts'

const prompt = (ending: string) =>
  `You are a support agent for Acme. Be brief and polite. Never promise refunds you cannot give. ${ending}`

describe('formatChanges', () => {
  test('shows a short changed value whole', () => {
    const changes = jsonChanges({ input: 'Hello there' }, { input: 'Hello here' })
    expect(formatChanges(changes)).toBe('  ~ input: "Hello there" → "Hello here"')
  })

  test('cuts a long changed value from just before its first difference', () => {
    const before = { messages: [{ role: 'system', content: prompt('Answer in English, please.') }] }
    const after = { messages: [{ role: 'system', content: prompt('Answer in French, please.') }] }
    expect(formatChanges(jsonChanges(before, after))).toBe(
      '  ~ messages[0].content: …ds you cannot give. Answer in English, please." → …ds you cannot give. Answer in French, please."',
    )
  })

  test('keeps the start of a value when the difference is on screen from it', () => {
    const text = (word: string) => `${'x'.repeat(60)} ${word} ${'y'.repeat(20)}`
    expect(formatChanges(jsonChanges({ input: text('cat') }, { input: text('dog') }))).toBe(
      `  ~ input: ${JSON.stringify(text('cat'))} → ${JSON.stringify(text('dog'))}`,
    )
  })

  test('keeps the start of a long value when the difference is near it', () => {
    const changes = jsonChanges({ input: `Hi ${'x'.repeat(200)}` }, { input: `Ho ${'x'.repeat(200)}` })
    expect(formatChanges(changes)).toBe(`  ~ input: "Hi ${'x'.repeat(95)}… → "Ho ${'x'.repeat(95)}…`)
  })
})
