import { expect, test } from 'vitest'
import { createRedactor } from '../../src/report/redact.ts'

test('redacts OpenAI and Anthropic style keys wherever they appear', () => {
  const redact = createRedactor({})
  expect(redact('key sk-proj-abcdefgh12345678 and sk-ant-api03-XYZxyz_123-456 end')).toBe(
    'key sk-[redacted] and sk-ant-[redacted] end',
  )
})

test('leaves short sk- words alone', () => {
  expect(createRedactor({})('task-list sk-1 desk-lamp')).toBe('task-list sk-1 desk-lamp')
})

test('redacts the values of OPENAI_API_KEY and ANTHROPIC_API_KEY, also as JSON encodes them', () => {
  const redact = createRedactor({ OPENAI_API_KEY: 'my"secret\\value', ANTHROPIC_API_KEY: 'another-secret-1' })
  expect(redact('raw my"secret\\value, json "my\\"secret\\\\value", another-secret-1')).toBe(
    'raw [redacted OPENAI_API_KEY], json "[redacted OPENAI_API_KEY]", [redacted ANTHROPIC_API_KEY]',
  )
})

test('ignores environment values too short to be keys', () => {
  expect(createRedactor({ OPENAI_API_KEY: 'x' })('x marks the spot')).toBe('x marks the spot')
})

test('mayChange is false only for bytes it would leave as they are', () => {
  const redact = createRedactor({ OPENAI_API_KEY: 'my"secret\\value', ANTHROPIC_API_KEY: 'x' })
  const bytes = (text: string): Buffer => Buffer.from(text)
  expect(redact.mayChange(bytes('nothing to see here, not even x'))).toBe(false)
  expect(redact.mayChange(bytes('a desk-lamp'))).toBe(true)
  expect(redact.mayChange(bytes('raw my"secret\\value'))).toBe(true)
  expect(redact.mayChange(bytes('json "my\\"secret\\\\value"'))).toBe(true)
})
