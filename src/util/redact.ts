import { ConfigError } from '../errors.ts'
import { redactPatternProblem } from './redact/pattern-check.ts'
import {
  hasShapeTrigger,
  loadedSecretShapes,
  loadSecretShapes,
  mayHoldShapeText,
  OWN_SHAPES,
  type ShapeScanner,
} from './redact/secret-shapes.ts'

export { redactPatternProblem } from './redact/pattern-check.ts'
export { loadSecretShapes, type ShapeScanner } from './redact/secret-shapes.ts'

/** Where a redactor finds the secrets it hides. */
export interface RedactionOptions {
  /** read for secret values: every provider's key variables, `*_API_KEY`, `*_TOKEN`, `*_SECRET`, … @default process.env */
  env?: Readonly<Record<string, string | undefined>>
  /** the user's own regular expressions (`redact:` in a case file, `--redact`); each match becomes `[redacted]` */
  patterns?: readonly string[]
  /** values known to be secret wherever they came from (a provider's own key); 4 characters or more */
  secrets?: readonly (string | undefined)[]
  /**
   * secretlint's recommended rules (`loadSecretShapes()`), or `'lazy'`: loaded on the first string that may hold a
   * shape (see `Redactor.valueLoaded`); without them, key values, JWTs, PEM blocks and URL credentials are still found
   */
  shapes?: ShapeScanner | 'lazy'
}

/**
 * Replaces secrets in the values a run writes: strings, never the JSON or markup around them, so no pattern can
 * break a file. A secret cut short where a value was shortened (`sk-abc…`) goes too: the prefix of a known key value,
 * and of any secret found elsewhere in the same value.
 */
export interface Redactor {
  /** one string value, every secret in it replaced */
  (text: string): string
  /**
   * every string in a JSON-like value (plain objects and arrays, walked), and the whole string under a key named
   * like a credential (`authorization`, `password`, `api_key`, …); the value itself when nothing changed
   */
  value<T>(value: T): T
  /** false when the UTF-8 JSON text in `bytes` holds nothing that could be a secret, so it can be copied as it is */
  mayChange(bytes: Buffer): boolean
  /**
   * `value(value)`, with lazy shapes first loading secretlint's rules when a string in it may hold a shape and they
   * are not loaded yet; one walk of the value when nothing needs loading
   */
  valueLoaded<T>(value: T): Promise<T>
}

/** shorter values are too likely to match ordinary text */
const MIN_SECRET_LENGTH = 8
/** an environment variable whose value is a secret, whatever its provider */
const SECRET_NAME = /(?:^|[_-])(?:API_?KEY|KEY|TOKEN|SECRET|PASSWORD|PASSWD|CREDENTIALS?)(?:$|[_-])/i
/** a key of an object whose string value is a credential */
const SECRET_KEY =
  /^(?:authorization|proxy-authorization|x-api-key|api[-_]?key|apikey|password|passwd|secret|client[-_]secret|(?:access|refresh|id)[-_]token|token|private[-_]key|cookie|set-cookie)$|[-_](?:api[-_]?key|token|secret|password)$/i
const HEADER_NAMES = ['authorization', 'proxy-authorization', 'x-api-key']
const BEARER = String.raw`\b[Bb]earer\s+[\w.~+/=-]{8,}`
/** a header's name (the `keep` group) and its value, as text (`Authorization: Bearer …`) or inside JSON text */
const HEADER = String.raw`(?<keep>\b(?:${HEADER_NAMES.map(caseless).join('|')})\\?["']?\s*[:=]\s*\\?["']?)(?:(?:${['bearer', 'basic', 'token'].map(caseless).join('|')})\s+)?[^\s"'\\,;]{4,}`
/** how a value shortened for display ends */
const CUT = '…'

const declared = new Set<string>()
let fromEnv: { redactor: Redactor; shapes: ShapeScanner | undefined } | undefined

/**
 * Adds variables whose values are keys, whatever their names: every provider declares the ones it reads. Their
 * values (8 characters or more) are redacted along with every `*_API_KEY`, `*_TOKEN`, `*_SECRET` and `*_PASSWORD`.
 */
export function declareKeyVariables(names: readonly string[]): void {
  for (const name of names) declared.add(name)
  fromEnv = undefined
}

/**
 * The redactor of `process.env`'s secrets alone, with no user patterns, and secretlint's shapes once something has
 * loaded them: for what is written outside a run (the console before a run starts, `evals report`, the vitest
 * matchers). A run makes its own (see `RunServices`).
 */
export function envRedactor(): Redactor {
  const shapes = loadedSecretShapes()
  if (fromEnv?.shapes !== shapes) fromEnv = undefined
  fromEnv ??= { redactor: createRedactor(shapes && { shapes }), shapes }
  return fromEnv.redactor
}

/**
 * Builds a redactor for the values of key variables in `env` (raw and as JSON encodes them, once or twice, and cut
 * short), the passwords of URLs in them, the values of `Authorization`, `Proxy-Authorization` and `x-api-key`
 * headers, bearer tokens, JWTs, PEM private keys, URL credentials, secretlint's shapes when given, and the user's
 * `patterns`: one regular expression, compiled once. Throws a ConfigError for a pattern `redactPatternProblem`
 * refuses.
 */
export function createRedactor(options: RedactionOptions = {}): Redactor {
  const patterns = options.patterns ?? []
  for (const pattern of patterns) {
    const problem = redactPatternProblem(pattern)
    if (problem !== undefined) throw new ConfigError(`createRedactor: ${problem}.`)
  }
  const labels = secretLabels(options.env ?? process.env)
  for (const secret of options.secrets ?? [])
    if (secret !== undefined && secret.length >= 4 && !labels.has(secret)) labels.set(secret, '[redacted]')
  const values = [...labels.keys()].sort((a, b) => b.length - a.length)
  const cuts = values.filter((value) => value.length > MIN_SECRET_LENGTH && !value.includes('\\'))
  const source = [
    ...(values.length > 0 ? [`(?<value>${values.map(escapeRegExp).join('|')})`] : []),
    ...(cuts.length > 0 ? [`(?<cut>${cuts.map(cutForm).join('|')})`] : []),
    ...patterns.map((pattern) => `(?:${pattern})`),
    ...OWN_SHAPES,
    HEADER,
    BEARER,
  ].join('|')
  const search = new RegExp(source, 'g')
  const test = new RegExp(source)
  // every built-in form is 8 characters or more, and so is a key value (a given secret: 4): a shorter string, most
  // of a result's, is not searched unless the user's patterns could match it
  const shortest =
    patterns.length > 0 ? 0 : Math.min(MIN_SECRET_LENGTH, ...values.map((value) => value.length))
  const cutLabel = (match: string): string => {
    for (const value of cuts) if (value.startsWith(match)) return labels.get(value) ?? '[redacted]'
    return '[redacted]'
  }
  const replace = (match: string, ...rest: unknown[]): string => {
    const groups = rest.at(-1) as Record<string, string | undefined>
    if (groups.value !== undefined) return labels.get(match) ?? '[redacted]'
    if (groups.cut !== undefined) return cutLabel(match)
    if (groups.keep !== undefined) return `${groups.keep}[redacted]`
    if (groups.scheme !== undefined) return `${groups.scheme}[redacted]`
    if (/^[Bb]earer\s/.test(match)) return 'Bearer [redacted]'
    return '[redacted]'
  }
  const lazy = options.shapes === 'lazy'
  const shapesNow = (): ShapeScanner | undefined =>
    lazy ? loadedSecretShapes() : (options.shapes as ShapeScanner | undefined)
  /** one string: the secrets found in it go to `found`, so their cut copies elsewhere in the value go too */
  const redactString = (text: string, found?: string[]): string => {
    let out = text
    if (text.length >= shortest && test.test(text)) {
      out = text.replace(search, (match: string, ...rest: unknown[]) => {
        found?.push(match)
        return replace(match, ...rest)
      })
    }
    if ((lazy || options.shapes) && mayHoldShapeText(out)) {
      const shapes = shapesNow()
      if (shapes) out = replaceRanges(out, shapes(out), found)
      // lazy rules not loaded: a writer that can wait (`valueLoaded`) loads them and walks again
      else shapesMissed++
    }
    return out
  }
  let shapesMissed = 0
  const redactText = (text: string): string => {
    const found: string[] = []
    const out = redactString(text, found)
    return found.length === 0 ? out : redactCuts(out, found)
  }
  const value = <T>(input: T): T => {
    const found: string[] = []
    const out = walk(input, '', redactString, found, 0)
    return (found.length === 0 ? out : walk(out, '', (text) => redactCuts(text, found), [], 0)) as T
  }
  // the search runs over the bytes read as latin1, each UTF-8 byte one character, unless a user pattern may hold
  // non-ASCII; a string long enough to hold a shape is searched as the shapes are
  const bytesTest =
    patterns.length > 0
      ? { pattern: test, encoding: 'utf8' as const }
      : {
          pattern: new RegExp(
            [
              ...(values.length > 0
                ? [values.map((v) => escapeRegExp(Buffer.from(v).toString('latin1'))).join('|')]
                : []),
              ...OWN_SHAPES,
              HEADER,
              BEARER,
            ].join('|'),
          ),
          encoding: 'latin1' as const,
        }
  const valueLoaded = async <T>(input: T): Promise<T> => {
    const missedBefore = shapesMissed
    const out = value(input)
    if (shapesMissed === missedBefore) return out
    await loadSecretShapes()
    return value(input)
  }
  return Object.assign(redactText, {
    value,
    valueLoaded,
    mayChange: (bytes: Buffer) => {
      const text = bytes.toString(bytesTest.encoding)
      return (
        bytesTest.pattern.test(text) ||
        ((lazy || options.shapes !== undefined) && hasShapeTrigger(text)) ||
        hasSecretKey(text)
      )
    },
  })
}

/** Walks plain objects and arrays, copying only what changed. */
function walk(
  input: unknown,
  key: string,
  redactString: (text: string, found: string[]) => string,
  found: string[],
  depth: number,
): unknown {
  if (typeof input === 'string') {
    if (key !== '' && input.length >= 4 && SECRET_KEY.test(key) && !input.startsWith('[redacted')) {
      found.push(input)
      return '[redacted]'
    }
    return redactString(input, found)
  }
  if (typeof input !== 'object' || input === null || depth > 200) return input
  if (Array.isArray(input)) {
    let copy: unknown[] | undefined
    for (let i = 0; i < input.length; i++) {
      const item: unknown = input[i]
      const out = walk(item, '', redactString, found, depth + 1)
      if (out !== item) (copy ??= input.slice())[i] = out
    }
    return copy ?? input
  }
  const prototype: unknown = Object.getPrototypeOf(input)
  if (prototype !== Object.prototype && prototype !== null) return input
  let copy: Record<string, unknown> | undefined
  for (const name in input) {
    const item = (input as Record<string, unknown>)[name]
    const out = walk(item, name, redactString, found, depth + 1)
    if (out !== item) (copy ??= { ...(input as Record<string, unknown>) })[name] = out
  }
  return copy ?? input
}

/** Replaces the prefixes (8 characters or more) of the secrets `found` where a value was cut after them. */
function redactCuts(text: string, found: readonly string[]): string {
  if (!text.includes(CUT) && found.every((secret) => !text.includes(secret.slice(0, MIN_SECRET_LENGTH))))
    return text
  const long = found.filter((secret) => secret.length > MIN_SECRET_LENGTH && !secret.startsWith('[redacted'))
  if (long.length === 0) return text
  return text.replace(new RegExp(long.map(cutForm).join('|'), 'g'), '[redacted]')
}

/** The ranges a shape scanner found, replaced from the last one back. */
function replaceRanges(
  text: string,
  ranges: readonly (readonly [number, number])[],
  found?: string[],
): string {
  if (ranges.length === 0) return text
  let out = text
  for (const [start, end] of [...ranges].sort((a, b) => b[0] - a[0])) {
    found?.push(text.slice(start, end))
    out = `${out.slice(0, start)}[redacted]${out.slice(end)}`
  }
  return out
}

/** `abcdefghij` → a prefix of 8 characters or more that ends the text or a cut (`…`) */
function cutForm(secret: string): string {
  let tail = ''
  for (let i = secret.length - 1; i >= MIN_SECRET_LENGTH; i--)
    tail = `(?:${escapeRegExp(secret[i] ?? '')}${tail})?`
  return `${escapeRegExp(secret.slice(0, MIN_SECRET_LENGTH))}${tail}(?=${CUT}|$)`
}

/** JSON text with a credential-named key, whose value `Redactor.value` replaces whole */
function hasSecretKey(text: string): boolean {
  // the key's characters before the name may be JSON escapes (`\\`, `\"`, `\u0001`): `value()` reads them unescaped
  return /"(?:(?:[^"\\]|\\.)*[-_])?(?:authorization|api[-_]?key|apikey|password|passwd|secret|token|cookie|private[-_]key)"\s*:/i.test(
    text,
  )
}

/** Every form of every secret value, with the label that replaces it: `[redacted NAME]`. */
function secretLabels(env: Readonly<Record<string, string | undefined>>): Map<string, string> {
  const labels = new Map<string, string>()
  const add = (form: string, label: string): void => {
    if (!labels.has(form)) labels.set(form, label)
  }
  for (const [name, value] of Object.entries(env)) {
    if (value === undefined) continue
    const label = `[redacted ${name}]`
    // the password of a URL in any variable (`DATABASE_URL=postgres://user:password@host/db`)
    const password = urlPassword(value)
    if (password !== undefined && password.length >= 4) add(password, label)
    if (!(declared.has(name) || SECRET_NAME.test(name))) continue
    for (const raw of new Set([value, value.trim()])) {
      if (raw.length < MIN_SECRET_LENGTH) continue
      const once = JSON.stringify(raw).slice(1, -1)
      const twice = JSON.stringify(once).slice(1, -1)
      for (const form of [raw, once, twice]) add(form, label)
    }
  }
  return labels
}

function urlPassword(value: string): string | undefined {
  if (!value.includes('://') || !value.includes('@') || !URL.canParse(value)) return undefined
  const password = new URL(value).password
  return password === '' ? undefined : decodeURIComponent(password)
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&')
}

/** `authorization` → `[Aa][Uu]…`: Node 20 has no inline case-insensitive groups */
function caseless(word: string): string {
  return word.replace(/[a-z]/g, (char) => `[${char.toUpperCase()}${char}]`)
}

/**
 * Redacts every string or UTF-8 chunk written to `stream` (the front ends' stdout and stderr) with the redactor
 * `current()` returns at the time of the write: the front end points it at its run's redactor once it has one.
 */
export function redactWrites(stream: NodeJS.WriteStream, current: () => Redactor): void {
  const write = stream.write.bind(stream) as (chunk: unknown, ...rest: unknown[]) => boolean
  const clean = (chunk: unknown): unknown => {
    const redactor = current()
    if (typeof chunk === 'string') return redactor(chunk)
    if (!(chunk instanceof Uint8Array)) return chunk
    const bytes = Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength)
    return redactor.mayChange(bytes) ? redactor(bytes.toString('utf8')) : chunk
  }
  stream.write = (chunk: unknown, ...rest: unknown[]) => write(clean(chunk), ...rest)
}
