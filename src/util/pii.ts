import { isIP } from 'node:net'

/** The kinds of personal data `findPii` finds. */
export const piiKinds = ['email', 'phone', 'ssn', 'credit_card', 'ip', 'zip'] as const
export type PiiKind = (typeof piiKinds)[number]

/** One piece of personal data found in a text. */
export interface PiiMatch {
  kind: PiiKind
  text: string
  index: number
}

const states =
  'AL|AK|AZ|AR|CA|CO|CT|DE|DC|FL|GA|HI|ID|IL|IN|IA|KS|KY|LA|ME|MD|MA|MI|MN|MS|MO|MT|NE|NV|NH|NJ|NM|NY|NC|ND|OH|OK|OR|PA|RI|SC|SD|TN|TX|UT|VT|VA|WA|WV|WI|WY|PR|GU|VI'
/**
 * A ZIP+4 (`94103-1234`) anywhere; five digits only after a state abbreviation (`CA 94103`) or a label (`ZIP:`,
 * `zip code`, `postal code`), so order numbers, years and amounts are not flagged.
 */
const zipCode = new RegExp(
  `(?<![\\w-])\\d{5}-\\d{4}(?![\\w-])|(?<=\\b(?:${states}),?\\s{1,3}|\\b(?:ZIP|[Zz]ip|[Pp]ostal)(?:[ -]?(?:[Cc]ode|CODE))?\\s*(?:is|#|:)?\\s*)\\d{5}(?:-\\d{4})?(?![\\w-])`,
  'g',
)

const detectors: [PiiKind, RegExp, (text: string) => boolean][] = [
  ['email', /[\w.%+-]+@[A-Za-z\d-]+(?:\.[A-Za-z\d-]+)*\.[A-Za-z]{2,}/g, () => true],
  ['credit_card', /(?<![\d-])\d(?:[ -]?\d){12,18}(?![\d-])/g, (text) => luhn(text.replace(/\D/g, ''))],
  ['ssn', /(?<![\d-])(?!000|666|9\d\d)\d{3}-(?!00)\d{2}-(?!0000)\d{4}(?![\d-])/g, () => true],
  ['zip', zipCode, () => true],
  ['phone', /(?<![\w+])(?:\+\d{1,3}[ .-]?)?(?:\(\d{2,4}\)|\d{2,4})(?:[ .-]?\d{2,4}){2,3}(?![\w-])/g, isPhone],
  [
    'ip',
    /(?<![\w.:])(?:\d{1,3}(?:\.\d{1,3}){3}|[\dA-Fa-f]{0,4}(?::[\dA-Fa-f]{0,4}){2,7})(?![\w:]|\.\d)/g,
    (text) => isIP(text) !== 0,
  ],
]

/** Personal data in `text`, each span reported once by the first detector that claims it. */
export function findPii(text: string, kinds: readonly PiiKind[] = piiKinds): PiiMatch[] {
  const found: PiiMatch[] = []
  let remaining = text
  for (const [kind, regex, accept] of detectors) {
    for (const match of remaining.matchAll(regex)) {
      if (!accept(match[0])) continue
      if (kinds.includes(kind)) found.push({ kind, text: match[0], index: match.index })
      // blank the span so a card number is not reported again as a phone number
      remaining =
        remaining.slice(0, match.index) +
        ' '.repeat(match[0].length) +
        remaining.slice(match.index + match[0].length)
    }
  }
  return found.sort((a, b) => a.index - b.index)
}

function isPhone(text: string): boolean {
  const digits = text.replace(/\D/g, '').length
  return digits >= 10 && digits <= 15 && (/[ .()-]/.test(text) || text.startsWith('+'))
}

function luhn(digits: string): boolean {
  let sum = 0
  for (let i = 0; i < digits.length; i++) {
    let digit = Number(digits[digits.length - 1 - i])
    if (i % 2 === 1) digit = digit * 2 > 9 ? digit * 2 - 9 : digit * 2
    sum += digit
  }
  return digits.length >= 13 && sum % 10 === 0
}
