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
