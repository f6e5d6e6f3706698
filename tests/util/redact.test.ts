import { expect, test } from 'vitest'
import { registerProvider } from '../../src/providers/registry.ts'
import { createRedactor, redactPatternProblem } from '../../src/util/redact.ts'

test('redacts OpenAI and Anthropic style keys wherever they appear', () => {
  const redact = createRedactor({ env: {} })
  expect(redact('key sk-proj-abcdefgh12345678 and sk-ant-api03-XYZxyz_123-456 end')).toBe(
    'key sk-[redacted] and sk-ant-[redacted] end',
  )
})

test('redacts GitHub tokens, AWS access keys and keys the API masked in its own message', () => {
  const redact = createRedactor({ env: {} })
  expect(
    redact(
      'ghp_abcdefghijklmnopqrstuvwxyz0123456789 github_pat_11ABCDEFG0123456789_abcdefghijklmnop AKIAIOSFODNN7EXAMPLE ASIAIOSFODNN7EXAMPLE',
    ),
  ).toBe('ghp_[redacted] github_pat_[redacted] AKIA[redacted] ASIA[redacted]')
  expect(redact('Incorrect API key provided: sk-abc12***************wxyz.')).toBe(
    'Incorrect API key provided: sk-[redacted].',
  )
})

test('leaves short sk- words and ordinary mentions of headers alone', () => {
  const redact = createRedactor({ env: {} })
  expect(redact('task-list sk-1 desk-lamp')).toBe('task-list sk-1 desk-lamp')
  expect(redact('the authorization: is required; send x-api-key')).toBe(
    'the authorization: is required; send x-api-key',
  )
})

test('redacts Authorization, Proxy-Authorization and x-api-key values in text and JSON, and bearer tokens', () => {
  const redact = createRedactor({ env: {} })
  expect(redact('Authorization: Bearer abc.def-123 sent')).toBe('Authorization: [redacted] sent')
  expect(redact('{"Proxy-Authorization":"Basic dXNlcjpwYXNz","x-api-key":"abcd1234"}')).toBe(
    '{"Proxy-Authorization":"[redacted]","x-api-key":"[redacted]"}',
  )
  expect(redact('"{\\"X-API-KEY\\":\\"abcd1234\\"}"')).toBe('"{\\"X-API-KEY\\":\\"[redacted]\\"}"')
  expect(redact('curl -H "bearer abcdefgh12"')).toBe('curl -H "Bearer [redacted]"')
})

test('redacts the values of every key variable, also as JSON encodes them once or twice', () => {
  const redact = createRedactor({
    env: {
      OPENAI_API_KEY: 'my"secret\\value',
      ANTHROPIC_API_KEY: 'another-secret-1',
      DB_PASSWORD: 'hunter2hunter2',
    },
  })
  expect(redact('raw my"secret\\value, json "my\\"secret\\\\value", another-secret-1')).toBe(
    'raw [redacted OPENAI_API_KEY], json "[redacted OPENAI_API_KEY]", [redacted ANTHROPIC_API_KEY]',
  )
  expect(redact(JSON.stringify(JSON.stringify({ key: 'my"secret\\value' })))).toBe(
    JSON.stringify(JSON.stringify({ key: '[redacted OPENAI_API_KEY]' })),
  )
  expect(redact('pw hunter2hunter2')).toBe('pw [redacted DB_PASSWORD]')
})

test('redacts every *_TOKEN, *_SECRET and *_PASSWORD value, but not other variables or short values', () => {
  const redact = createRedactor({
    env: {
      GITHUB_TOKEN: 'gh-token-value',
      CLIENT_SECRET: 'client-secret-value',
      HOME: '/home/someone',
      X_TOKEN: 'x',
    },
  })
  expect(redact('gh-token-value client-secret-value /home/someone x marks')).toBe(
    '[redacted GITHUB_TOKEN] [redacted CLIENT_SECRET] /home/someone x marks',
  )
})

test('redacts the secrets it is given, such as a provider key passed in code', () => {
  expect(
    createRedactor({ env: {}, secrets: ['my-own-secret', undefined, 'abc'] })('bad key my-own-secret, abc'),
  ).toBe('bad key [redacted], abc')
})

test("redacts the user's own patterns", () => {
  const redact = createRedactor({ env: {}, patterns: ['ACME-\\d{4}', 'internal\\.example\\.com'] })
  expect(redact('ticket ACME-1234 at internal.example.com')).toBe('ticket [redacted] at [redacted]')
})

test('explains a pattern that cannot be used', () => {
  expect(redactPatternProblem('ACME-(')).toMatch(/^`ACME-\(` is not a regular expression \(/)
  expect(redactPatternProblem('a*')).toBe(
    '`a*` matches the empty string; it would redact between every character',
  )
  expect(redactPatternProblem('ACME-\\d+')).toBeUndefined()
})

test('mayChange is false only for bytes it would leave as they are', () => {
  const redact = createRedactor({ env: { OPENAI_API_KEY: 'my"secret\\välue', ANTHROPIC_API_KEY: 'x' } })
  const bytes = (text: string): Buffer => Buffer.from(text)
  expect(redact.mayChange(bytes('nothing to see here, not even x or a desk-lamp'))).toBe(false)
  expect(redact.mayChange(bytes('a sk-proj-abcdefgh123'))).toBe(true)
  expect(redact.mayChange(bytes('raw my"secret\\välue'))).toBe(true)
  expect(redact.mayChange(bytes('json "my\\"secret\\\\välue"'))).toBe(true)
  const custom = createRedactor({ env: {}, patterns: ['geheimnis-ä'] })
  expect(custom.mayChange(bytes('ein geheimnis-ä'))).toBe(true)
  expect(custom.mayChange(bytes('nichts'))).toBe(false)
})

test('redacts the key variables a provider declares, whatever their names', () => {
  registerProvider(
    'acme-redact-test',
    () => {
      throw new Error('never made')
    },
    { keyVariables: ['ACME_KEY'] },
  )
  expect(createRedactor({ env: { ACME_KEY: 'acme-key-value-1' } })('got acme-key-value-1')).toBe(
    'got [redacted ACME_KEY]',
  )
})
