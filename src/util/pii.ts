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
  `(?<![\\w-])\\d{5}-\\d{4}(?![\\w-])|\\d{5}(?<=(?:\\b(?:${states}),?\\s{1,3}|\\b(?:ZIP|[Zz]ip|[Pp]ostal)(?:[ -]?(?:[Cc]ode|CODE))?\\s{0,3}(?:is|#|:)?\\s{0,3})\\d{5})(?:-\\d{4})?(?![\\w-])`,
  'g',
)

interface Found {
  0: string
  index: number
}
type Detector = [kind: PiiKind, find: (text: string) => Iterable<Found>, accept: (text: string) => boolean]

/**
 * Every pattern tries a bounded number of steps per position (bounded quantifiers; the ZIP label is looked behind
 * only where five digits stand), so finding is linear in the output: `[\w.]+@` took minutes on 240 KB of letters.
 */
const detectors: Detector[] = [
  ['email', emails, () => true],
  ['credit_card', all(/(?<![\d-])\d(?:[ -]?\d){12,18}(?![\d-])/g), (text) => luhn(text.replace(/\D/g, ''))],
  ['ssn', all(/(?<![\d-])(?!000|666|9\d\d)\d{3}-(?!00)\d{2}-(?!0000)\d{4}(?![\d-])/g), () => true],
  ['zip', all(zipCode), () => true],
  [
    'phone',
    all(/(?<![\w+])(?:\+\d{1,3}[ .-]?)?(?:\(\d{2,4}\)|\d{2,4})(?:[ .-]?\d{2,4}){2,3}(?![\w-])/g),
    isPhone,
  ],
  [
    'ip',
    all(/(?<![\w.:])(?:\d{1,3}(?:\.\d{1,3}){3}|[\dA-Fa-f]{0,4}(?::[\dA-Fa-f]{0,4}){2,7})(?![\w:]|\.\d)/g),
    (text) => isIP(text) !== 0,
  ],
]

function all(regex: RegExp): (text: string) => Iterable<Found> {
  return (text) => text.matchAll(regex)
}

const localPart = /[\w.%+-]/
const domain = /[A-Za-z\d-]{1,63}(?:\.[A-Za-z\d-]{1,63}){0,8}\.[A-Za-z]{2,24}(?![A-Za-z])/y

/** Addresses found from each `@`: back over at most 64 local-part characters (RFC 5321), forward over a domain. */
function* emails(text: string): Iterable<Found> {
  let from = 0
  for (let at = text.indexOf('@'); at !== -1; at = text.indexOf('@', Math.max(at + 1, from))) {
    let start = at
    while (start > from && at - start < 64 && localPart.test(text.charAt(start - 1))) start--
    if (start === at) continue
    domain.lastIndex = at + 1
    const host = domain.exec(text)
    if (host === null) continue
    from = domain.lastIndex
    yield { 0: text.slice(start, from), index: start }
  }
}

/** Personal data in `text`, each span reported once by the first detector that claims it. */
export function findPii(text: string, kinds: readonly PiiKind[] = piiKinds): PiiMatch[] {
  const found: PiiMatch[] = []
  let remaining = text
  for (const [kind, find, accept] of detectors) {
    const claimed: [start: number, end: number][] = []
    for (const match of find(remaining)) {
      if (!accept(match[0])) continue
      if (kinds.includes(kind)) found.push({ kind, text: match[0], index: match.index })
      claimed.push([match.index, match.index + match[0].length])
    }
    // blank the spans so a card number is not reported again as a phone number: one pass per detector, not per match
    if (claimed.length > 0) remaining = blanked(remaining, claimed)
  }
  return found.sort((a, b) => a.index - b.index)
}

function blanked(text: string, spans: readonly [number, number][]): string {
  const parts: string[] = []
  let at = 0
  for (const [start, end] of spans) {
    parts.push(text.slice(at, start), ' '.repeat(end - start))
    at = end
  }
  parts.push(text.slice(at))
  return parts.join('')
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
