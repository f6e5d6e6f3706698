/**
 * Secret shapes: the rules of secretlint's recommended preset (`@secretlint/secretlint-rule-preset-recommend`), run
 * on a string that looks as if it may hold one, plus three shapes of our own the preset lacks or covers only in
 * part: JSON Web Tokens, PEM private-key blocks (whole, or cut short) and credentials in any URL
 * (`scheme://user:password@host`).
 */

/** finds where in `text` the preset's rules see secrets, as [start, end) ranges */
export type ShapeScanner = (text: string) => (readonly [number, number])[]

/** Shapes of our own, as regular-expression sources; each match is replaced, except a URL's scheme and user (the `scheme` group). */
export const OWN_SHAPES = [
  // header.payload.signature, each base64url; the first two are JSON objects, so they start with `eyJ`
  String.raw`\beyJ[\w-]{8,}\.eyJ[\w-]{8,}\.[\w-]{8,}`,
  // a private-key block, or its start when the text was cut before its end
  String.raw`-----BEGIN[A-Z0-9 ]{0,40} PRIVATE KEY(?: BLOCK)?-----[^]*?(?:-----END[A-Z0-9 ]{0,40} PRIVATE KEY(?: BLOCK)?-----|$)`,
  // the password of a URL; the scheme and user (`scheme`) stay readable
  String.raw`(?<scheme>\b[a-zA-Z][a-zA-Z0-9+.-]{1,20}:\/\/[^\s:/?#@"'\\]{1,256}:)[^\s/?#@"'\\]{1,256}(?=@)`,
]

/**
 * What a string must hold for any preset rule to match in it: a run of 16 letters and digits (every key and token
 * shape has one), a PEM header, or a URL. A string without one is not scanned, which keeps a run of plain outputs
 * at one search per string. It is `/[A-Za-z0-9]{16}|-----BEGIN|:\/\//.test(text)` counted by hand: the expression
 * tries 16 characters at each position, five times slower on the short strings a result is made of.
 */
export function hasShapeTrigger(text: string): boolean {
  let run = 0
  for (let at = 0; at < text.length; at++) {
    const code = text.charCodeAt(at)
    const alphanumeric =
      (code >= 48 && code <= 57) || (code >= 65 && code <= 90) || (code >= 97 && code <= 122)
    if (!alphanumeric) run = 0
    else if (++run === 16) return true
  }
  return text.includes('-----BEGIN') || text.includes('://')
}

/**
 * Only lower-case hex digits and dashes: W3C trace and span ids, content hashes, UUIDs. No shape matches one: each
 * preset rule needs a prefix or a context with a letter past `f`, an upper-case letter, `_`, `.`, `:` or `=`, and so
 * do ours. A run with trace capture stores such ids in every case; they are not scanned.
 */
const ONLY_HEX = /^[0-9a-f-]*$/

/** Whether `text` may hold a shape: one search for most strings, two for the rest. */
export function mayHoldShapeText(text: string): boolean {
  return text.length >= 16 && hasShapeTrigger(text) && !ONLY_HEX.test(text)
}

interface RuleCreator {
  meta: { id: string }
  create(
    context: RuleContext,
    options: Record<string, unknown>,
  ): { file?: (source: { content: string; filePath: string; ext: string; contentType: 'text' }) => void }
}

interface RuleContext {
  report(descriptor: { range: readonly [number, number] }): void
  ignore(descriptor: unknown): void
  createTranslator(messages: unknown): (id: string, props?: unknown) => { message: string }
}

/** rules that judge files rather than find values */
const NOT_SHAPES = new Set(['@secretlint/secretlint-rule-filter-comments'])
/** AWS access key ids are half a credential: redacted as the runner always did */
const RULE_OPTIONS: Record<string, Record<string, unknown>> = {
  '@secretlint/secretlint-rule-aws': { enableIDScanRule: true },
}

let loading: Promise<ShapeScanner> | undefined
let loaded: ShapeScanner | undefined

/** Loads the preset's rules once (about 200 KB of code) and returns the scanner they make. */
export function loadSecretShapes(): Promise<ShapeScanner> {
  loading ??= import('@secretlint/secretlint-rule-preset-recommend').then(({ rules }) => {
    loaded = scannerOf(rules)
    return loaded
  })
  return loading
}

/** The scanner, once `loadSecretShapes` has loaded it. */
export function loadedSecretShapes(): ShapeScanner | undefined {
  return loaded
}

function scannerOf(rules: readonly RuleCreator[]): ShapeScanner {
  let found: (readonly [number, number])[] = []
  const context: RuleContext = {
    report: ({ range }) => {
      found.push(range)
    },
    ignore: () => undefined,
    createTranslator: () => (id) => ({ message: id }),
  }
  const scanners = rules
    .filter((rule) => !NOT_SHAPES.has(rule.meta.id))
    .map((rule) => rule.create(context, RULE_OPTIONS[rule.meta.id] ?? {}))
  return (text) => {
    found = []
    const source = { content: text, filePath: 'value.txt', ext: '.txt', contentType: 'text' as const }
    for (const scanner of scanners) scanner.file?.(source)
    return found
  }
}
