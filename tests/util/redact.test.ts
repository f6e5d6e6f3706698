import { createHash, randomBytes, randomUUID } from 'node:crypto'
import { expect, test } from 'vitest'
import { registerProvider } from '../../src/providers/registry.ts'
import { createRedactor, loadSecretShapes, redactPatternProblem } from '../../src/util/redact.ts'
import { hasShapeTrigger, mayHoldShapeText } from '../../src/util/redact/secret-shapes.ts'

// fake keys of the shapes secretlint's rules look for, built here so no scanner flags this file
const GITHUB_TOKEN = `ghp_${'a1B2c3D4e5'.repeat(3)}f6G7H8`
const NPM_TOKEN = `npm_${'Z9y8X7w6V5'.repeat(3)}u4T3S2`

test("redacts the key shapes of secretlint's recommended rules when they are loaded", async () => {
  const shapes = await loadSecretShapes()
  const redact = createRedactor({ env: {}, shapes })
  expect(redact(`token ${GITHUB_TOKEN} and ${NPM_TOKEN} end`)).toBe('token [redacted] and [redacted] end')
  expect(redact('AKIAIOSFODNN7EXAMPLE is the documented example, left alone')).toBe(
    'AKIAIOSFODNN7EXAMPLE is the documented example, left alone',
  )
  expect(redact('AKIAQWERTYUIOPASDFGH')).toBe('[redacted]')
  expect(createRedactor({ env: {} })(`no rules loaded: ${GITHUB_TOKEN}`)).toBe(
    `no rules loaded: ${GITHUB_TOKEN}`,
  )
})

test('redacts JWTs, PEM private keys (also cut short) and the passwords of URLs without any rules loaded', () => {
  const redact = createRedactor({ env: {} })
  const jwt = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U'
  expect(redact(`Bearer-less ${jwt} here`)).toBe('Bearer-less [redacted] here')
  const pem = ['-----BEGIN RSA PRIVATE KEY-----', 'MIIBOgIBAAJBAKj34GkxFhD9', '-----END RSA PRIVATE KEY-----']
  expect(redact(`key:\n${pem.join('\n')}\ndone`)).toBe('key:\n[redacted]\ndone')
  expect(redact(`cut: ${pem.slice(0, 2).join('\n')}`)).toBe('cut: [redacted]')
  expect(redact('postgres://admin:hunter2pass@db.example.com:5432/app and redis://:s3cr3tpw@cache')).toBe(
    'postgres://admin:[redacted]@db.example.com:5432/app and redis://:s3cr3tpw@cache',
  )
})

test('redacts AWS_SECRET_ACCESS_KEY, *_KEY values and the password in any URL variable (DATABASE_URL)', () => {
  const redact = createRedactor({
    env: {
      AWS_SECRET_ACCESS_KEY: 'wJalrXUtnFEMIK7MDENGbPxRfiCYzzzzzzzzzzzz',
      STRIPE_KEY: 'sk_live_abcdefghijklmnopqrstuvwx',
      DATABASE_URL: 'postgres://app:very-secret-pw@db:5432/app',
    },
  })
  expect(redact('aws wJalrXUtnFEMIK7MDENGbPxRfiCYzzzzzzzzzzzz stripe sk_live_abcdefghijklmnopqrstuvwx')).toBe(
    'aws [redacted AWS_SECRET_ACCESS_KEY] stripe [redacted STRIPE_KEY]',
  )
  expect(redact('connect with very-secret-pw')).toBe('connect with [redacted DATABASE_URL]')
})

test('redacts a key value cut short where a value was shortened, and the cut copies of a secret found in the same value', () => {
  const redact = createRedactor({
    env: { OPENAI_API_KEY: 'sk-proj-0123456789abcdefghijklmn' },
    patterns: ['ACME-\\d{6}'],
  })
  // what a check reason quoting a shortened output looks like
  expect(redact('output "sk-proj-0123456789abcdefghi…"')).toBe('output "[redacted OPENAI_API_KEY]…"')
  expect(redact('ends with sk-proj-0123456')).toBe('ends with [redacted OPENAI_API_KEY]')
  expect(redact.value({ output: 'id ACME-123456', reason: 'output "id ACME-123…"' })).toEqual({
    output: 'id [redacted]',
    reason: 'output "id [redacted]…"',
  })
})

test('applies patterns to the values of a JSON value, never to its syntax, and keeps what did not change', () => {
  const redact = createRedactor({ env: {}, patterns: ['\\d{12}', 'true', ','] })
  const row = {
    caseId: 'a,b',
    passed: true,
    durationMs: 123456789012,
    output: 'card 411111111111, ok',
    tags: ['x'],
  }
  const out = redact.value(row)
  expect(out).toEqual({
    caseId: 'a[redacted]b',
    passed: true,
    durationMs: 123456789012,
    output: 'card [redacted][redacted] ok',
    tags: ['x'],
  })
  expect(out.tags).toBe(row.tags)
  expect(JSON.parse(JSON.stringify(out))).toEqual(out)
  const clean = { a: 'nothing', b: [1, 2] }
  expect(redact.value(clean)).toBe(clean)
})

test('redacts the whole value under a credential-named key', () => {
  const redact = createRedactor({ env: {} })
  expect(
    redact.value({
      headers: { 'x-api-key': 'abcd1234', Accept: 'json' },
      password: 'hunter22',
      token: 'abc',
    }),
  ).toEqual({
    headers: { 'x-api-key': '[redacted]', Accept: 'json' },
    password: '[redacted]',
    token: 'abc',
  })
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

test('refuses a pattern that is not a regular expression, can match nothing, or backtracks exponentially', () => {
  expect(redactPatternProblem('ACME-(')).toMatch(/^redact pattern `ACME-\(` is not a regular expression \(/)
  for (const zeroWidth of ['a*', '(?=a)', '\\b', 'x|'])
    expect(redactPatternProblem(zeroWidth)).toBe(
      `redact pattern \`${zeroWidth}\` can match the empty string, so it would cut the text between characters; make it match at least one character`,
    )
  expect(redactPatternProblem('(a+)+b')).toMatch(/^redact pattern `\(a\+\)\+b` can take time exponential/)
  expect(redactPatternProblem('ACME-\\d+')).toBeUndefined()
  expect(redactPatternProblem('\\d{12}')).toBeUndefined()
  expect(() => createRedactor({ patterns: ['(?=a)'] })).toThrow(
    /^createRedactor: redact pattern `\(\?=a\)` can match/,
  )
})

test('mayChange is false only for bytes it would leave as they are', () => {
  const redact = createRedactor({ env: { OPENAI_API_KEY: 'my"secret\\välue', ANTHROPIC_API_KEY: 'x' } })
  const bytes = (text: string): Buffer => Buffer.from(text)
  expect(redact.mayChange(bytes('nothing to see here, not even x or a desk-lamp'))).toBe(false)
  expect(redact.mayChange(bytes('{"authorization":"abc"}'))).toBe(true)
  expect(redact.mayChange(bytes('raw my"secret\\välue'))).toBe(true)
  expect(redact.mayChange(bytes('json "my\\"secret\\\\välue"'))).toBe(true)
  const custom = createRedactor({ env: {}, patterns: ['geheimnis-ä'] })
  expect(custom.mayChange(bytes('ein geheimnis-ä'))).toBe(true)
  expect(custom.mayChange(bytes('nichts'))).toBe(false)
})

test("mayChange sees a credential's key however JSON escapes it", () => {
  const redact = createRedactor({ env: {} })
  // each key is one `value()` redacts: named like a credential, with a backslash, quote or control character before it
  for (const key of ['a\\_token', 'my"_secret', 'x\u0001-api-key', 'client\\-password']) {
    const row = { [key]: 'supersecretvalue1', ok: 'x' }
    expect(redact.value(row)).not.toEqual(row)
    expect(redact.mayChange(Buffer.from(JSON.stringify(row)))).toBe(true)
  }
  expect(redact.mayChange(Buffer.from(JSON.stringify({ 'a\\_tokens': 'supersecretvalue1' })))).toBe(false)
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

test('lower-case hex ids (trace and span ids, hashes, UUIDs) are not scanned: no shape can match one', async () => {
  const ids = {
    traceId: randomBytes(16).toString('hex'),
    callId: randomBytes(8).toString('hex'),
    uuid: randomUUID(),
    sha256: createHash('sha256').update('x').digest('hex'),
  }
  for (const id of Object.values(ids)) expect(mayHoldShapeText(id), id).toBe(false)
  expect(mayHoldShapeText(GITHUB_TOKEN)).toBe(true)
  // the evidence for skipping them: the preset's rules find nothing in any string of hex digits and dashes
  const scan = await loadSecretShapes()
  for (let length = 16; length <= 256; length++) {
    const hex = randomBytes(length).toString('hex').slice(0, length)
    expect(scan(hex)).toEqual([])
    expect(scan(`${hex.slice(0, 8)}-${hex.slice(8)}`)).toEqual([])
  }
  // one letter past `f` makes a string scanned again
  expect(createRedactor({ env: {}, shapes: 'lazy' }).value({ id: `${ids.callId} ${GITHUB_TOKEN}` })).toEqual({
    id: `${ids.callId} [redacted]`,
  })
})

test('with lazy shapes, valueLoaded loads the rules when a string may hold a shape, and redacts it', async () => {
  const redact = createRedactor({ env: {}, shapes: 'lazy' })
  const plain = { output: 'short and plain' }
  expect(await redact.valueLoaded(plain)).toBe(plain)
  expect(await redact.valueLoaded({ output: `token ${GITHUB_TOKEN}` })).toEqual({
    output: 'token [redacted]',
  })
})

test('short strings are still searched when something short can match: a given 4-character secret, a user pattern', () => {
  expect(createRedactor({ env: {}, secrets: ['k9z!'] }).value({ a: 'k9z!', b: 'ok' })).toEqual({
    a: '[redacted]',
    b: 'ok',
  })
  expect(createRedactor({ env: {}, patterns: ['o-\\d'] }).value(['o-3', 'fine'])).toEqual([
    '[redacted]',
    'fine',
  ])
  // and a 7-character string cannot hold a built-in form: left as it is, a key value of 8 characters is not
  const redact = createRedactor({ env: { ACME_API_KEY: 'acme1234' } })
  expect(redact.value({ short: 'acme123', key: 'acme1234' })).toEqual({
    short: 'acme123',
    key: '[redacted ACME_API_KEY]',
  })
})

test('the shape trigger, counted by hand, says what its regular expression says', () => {
  // the reference: a run of 16 letters and digits, a PEM header or a URL
  const reference = /[A-Za-z0-9]{16}|-----BEGIN|:\/\//
  const alphabet = [
    'a',
    'Z',
    '7',
    '-',
    ':',
    '/',
    ' ',
    'é',
    '_',
    '-----BEGIN',
    '://',
    'x'.repeat(15),
    'Q'.repeat(16),
  ]
  let state = 7
  const next = () => (state = (state * 1_103_515_245 + 12_345) % 2 ** 31)
  for (let round = 0; round < 5000; round++) {
    let text = ''
    const parts = next() % 12
    for (let part = 0; part < parts; part++) text += alphabet[next() % alphabet.length] ?? ''
    expect(hasShapeTrigger(text), JSON.stringify(text)).toBe(reference.test(text))
  }
  expect(hasShapeTrigger('a'.repeat(15))).toBe(false)
  expect(hasShapeTrigger(`${'a'.repeat(8)}-${'b'.repeat(8)}`)).toBe(false)
  expect(hasShapeTrigger(`x${'a'.repeat(16)}`)).toBe(true)
})
