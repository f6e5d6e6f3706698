import { describe, expect, test } from 'vitest'
import { findPii } from '../../src/util/pii.ts'
import { assertCheck, expectCheck, transcriptOf } from './helpers.ts'

describe('findPii', () => {
  test.each([
    ['email', 'write to jane.doe+billing@example.co.uk today', 'jane.doe+billing@example.co.uk'],
    ['phone', 'call (555) 123-4567 now', '(555) 123-4567'],
    ['phone', 'call +44 20 7946 0958', '+44 20 7946 0958'],
    ['ssn', 'SSN 123-45-6789.', '123-45-6789'],
    ['credit_card', 'card 4111 1111 1111 1111 on file', '4111 1111 1111 1111'],
    ['ip', 'from 192.168.1.10.', '192.168.1.10'],
    ['ip', 'from 2001:db8::8a2e:370:7334 today', '2001:db8::8a2e:370:7334'],
    ['zip', 'ship to 1 Main St, Springfield, IL 62701.', '62701'],
    ['zip', 'Boston, MA, 02139-4307', '02139-4307'],
    ['zip', 'my ZIP CODE: 94103', '94103'],
    ['zip', 'the zip is 10001', '10001'],
    ['zip', 'postal code 73301 please', '73301'],
    ['zip', 'mail it to 94103-1234 today', '94103-1234'],
  ])('finds a %s in %j', (kind, text, found) => {
    expect(findPii(text).map((match) => [match.kind, match.text])).toEqual([[kind, found]])
  })

  test.each([
    ['a card number that fails the Luhn check', 'order 4111 1111 1111 1112'],
    ['a date', 'due 2026-11-02'],
    ['an order number', 'order 1234567890123'],
    ['an invalid SSN area', 'ref 000-12-3456'],
    ['a clock time', 'at 10:30:00'],
    ['a version with too large parts', 'v 999.1.2.3'],
    ['five digits without a state or label', 'order 12345 shipped, total $25000'],
    ['five digits after a word that is no state', 'SKU 12345, found in 23456 rows'],
    ['a five-digit number with a short suffix', 'ref 12345-678, item 123456-7890a'],
  ])('ignores %s', (_label, text) => {
    expect(findPii(text)).toEqual([])
  })
})

describe('findPii in linear time', () => {
  const n = 240_000
  // each of these took from seconds to minutes with the unbounded patterns (letters without an `@`: 350 s)
  test.each([
    ['letters without an @', 'a'.repeat(n)],
    ['letters, then an @', `${'a'.repeat(n)}@`],
    ['digits', '1'.repeat(n)],
    ['spaces', ' '.repeat(n)],
    ['a@ repeated', 'a@'.repeat(n / 2)],
    ['one host of many labels', `a@b${'.b'.repeat(n / 2)}`],
    ['ZIP labels and spaces', `ZIP ${' '.repeat(50)}`.repeat(n / 54)],
    ['dashed digits', '1-'.repeat(n / 2)],
  ])('240 KB of %s is searched in well under a second', (_, text) => {
    const started = performance.now()
    findPii(text)
    // a bound loose enough for a loaded 2-core machine, and far below the quadratic patterns' seconds to minutes
    expect(performance.now() - started).toBeLessThan(1500)
  })

  test('finds every one of 15,000 addresses in 240 KB, each once', () => {
    const found = findPii('bob@example.com '.repeat(15_000))
    expect(found).toHaveLength(15_000)
    expect(new Set(found.map((match) => match.index)).size).toBe(15_000)
  })

  test('an address whose local part is longer than 64 characters is still found (its last 64)', () => {
    const [match] = findPii(`${'x'.repeat(100)}@example.com`)
    expect(match?.kind).toBe('email')
    expect(match?.text).toBe(`${'x'.repeat(64)}@example.com`)
  })

  test('addresses side by side are two; a host without a top-level domain is none', () => {
    expect(findPii('a@b.io,c@d.io and x@y').map((match) => match.text)).toEqual(['a@b.io', 'c@d.io'])
  })
})

describe('no_pii', () => {
  test('passes on clean output', async () => {
    expect(await expectCheck('no_pii', true, transcriptOf({ output: 'Your refund is on its way.' }))).toEqual(
      {
        pass: true,
        reason: 'output contains no email, phone, ssn, credit_card, ip, zip',
      },
    )
  })

  test('names each kind found with the value masked', async () => {
    const output = 'Mail jane@example.com, card 4111-1111-1111-1111, SSN 123-45-6789, phone 555-123-4567.'
    expect(await expectCheck('no_pii', true, transcriptOf({ output }))).toEqual({
      pass: false,
      reason: 'output contains PII: `email j***@example.com`, `credit card …1111`, `ssn …6789` and 1 more',
      details: { kinds: ['email', 'credit_card', 'ssn', 'phone'] },
    })
  })

  test('checks only the listed kinds', async () => {
    const transcript = transcriptOf({ output: 'server 10.0.0.1, mail ops@example.com' })
    expect((await expectCheck('no_pii', ['ssn', 'credit_card'], transcript)).pass).toBe(true)
    expect((await assertCheck({ kind: 'no_pii', kinds: ['ip'] }, transcript)).reason).toBe(
      'output contains PII: `ip 10.0.0.1`',
    )
  })
})
