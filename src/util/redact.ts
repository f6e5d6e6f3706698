import { ConfigError } from '../errors.ts'

/** Where a redactor finds the secrets it hides. */
export interface RedactionOptions {
  /** read for secret values @default process.env */
  env?: Readonly<Record<string, string | undefined>>
  /** the user's own regular expressions (`redact:` in a case file, `--redact`); each match becomes `[redacted]` */
  patterns?: readonly string[]
  /** values known to be secret wherever they came from (a provider's own key); 4 characters or more */
  secrets?: readonly (string | undefined)[]
}

/** Replaces every secret in a text, including serialized JSON: no replacement needs escaping. */
export interface Redactor {
  (text: string): string
  /** false when the UTF-8 text in `bytes` holds nothing to replace, so it can be copied without decoding */
  mayChange(bytes: Buffer): boolean
}

/** shorter values are too likely to match ordinary text */
const MIN_SECRET_LENGTH = 8
const SECRET_NAME = /(?:^|[_-])(?:API_KEY|TOKEN|SECRET|PASSWORD)$/i
const HEADER_NAMES = ['authorization', 'proxy-authorization', 'x-api-key']

/** key shapes, each replaced by its prefix and `[redacted]`; the longer prefix of a pair comes first */
const KEY_SHAPES = [
  String.raw`\bsk-ant-[\w*-]{8,}`,
  String.raw`\bsk-[\w*-]{8,}`,
  String.raw`\bgithub_pat_\w{20,}`,
  String.raw`\bgh[pousr]_[A-Za-z0-9]{20,}`,
  String.raw`\b(?:AKIA|ASIA)[A-Z0-9]{16}\b`,
]
const KEY_PREFIX = /^(?:sk-ant-|sk-|github_pat_|gh[pousr]_|AKIA|ASIA)/
const BEARER = String.raw`\b[Bb]earer\s+[\w.~+/=-]{8,}`
/**
 * a header's name (the `header` group, kept) and its value, in text (`Authorization: Bearer …`) or JSON
 * (`"x-api-key":"…"`); a lookbehind would be simpler, but makes every search several times slower
 */
const HEADER = String.raw`(?<header>\b(?:${HEADER_NAMES.map(caseless).join('|')})\\?["']?\s*[:=]\s*\\?["']?)(?:(?:${['bearer', 'basic', 'token'].map(caseless).join('|')})\s+)?[^\s"'\\,;]{4,}`

const declared = new Set<string>()
/** the run's options, kept so a provider declared mid-run rebuilds the redactor with them */
let activeOptions: RedactionOptions = {}
let active: Redactor | undefined
const redacting = new WeakSet<NodeJS.WriteStream>()

/**
 * Adds variables whose values are keys, whatever their names: every provider declares the ones it reads. Their
 * values (8 characters or more) are redacted along with every `*_API_KEY`, `*_TOKEN`, `*_SECRET` and `*_PASSWORD`.
 */
export function declareKeyVariables(names: readonly string[]): void {
  for (const name of names) declared.add(name)
  active = undefined
}

/**
 * Builds a redactor for the values of key variables in `env` (raw and as JSON encodes them, once or twice), the
 * values of `Authorization`, `Proxy-Authorization` and `x-api-key` headers, bearer tokens, key shapes (`sk-…`,
 * `sk-ant-…`, `ghp_…`, `github_pat_…`, AWS access keys) and the user's `patterns`: one regular expression, compiled
 * once. Throws a ConfigError for a pattern that is not a regular expression or matches the empty string.
 */
export function createRedactor(options: RedactionOptions = {}): Redactor {
  const labels = secretLabels(options.env ?? process.env)
  for (const secret of options.secrets ?? [])
    if (secret !== undefined && secret.length >= 4 && !labels.has(secret)) labels.set(secret, '[redacted]')
  const patterns = options.patterns ?? []
  for (const pattern of patterns) {
    const problem = redactPatternProblem(pattern)
    if (problem !== undefined) throw new ConfigError(`Redact pattern ${problem}.`)
  }
  const values = [...labels.keys()].sort((a, b) => b.length - a.length)
  const alternatives = (literals: readonly string[]): string =>
    [
      ...(literals.length > 0 ? [`(?<value>${literals.map(escapeRegExp).join('|')})`] : []),
      ...KEY_SHAPES,
      HEADER,
      BEARER,
      ...patterns.map((pattern) => `(?:${pattern})`),
    ].join('|')
  const pattern = new RegExp(alternatives(values), 'g')
  const replace = (match: string, ...rest: unknown[]): string => {
    const groups = rest.at(-1) as Record<string, string | undefined>
    if (groups.value !== undefined) return labels.get(match) ?? '[redacted]'
    if (groups.header !== undefined) return `${groups.header}[redacted]`
    const prefix = KEY_PREFIX.exec(match)
    if (prefix) return `${prefix[0]}[redacted]`
    if (/^[Bb]earer\s/.test(match)) return 'Bearer [redacted]'
    return '[redacted]'
  }
  // without user patterns the search runs over the bytes read as latin1, each UTF-8 byte one character; user
  // patterns may hold non-ASCII, so with them the bytes are decoded
  const test =
    patterns.length > 0
      ? { pattern: new RegExp(pattern.source), encoding: 'utf8' as const }
      : {
          pattern: new RegExp(alternatives(values.map((value) => Buffer.from(value).toString('latin1')))),
          encoding: 'latin1' as const,
        }
  const redact = (text: string): string => text.replace(pattern, replace)
  return Object.assign(redact, {
    mayChange: (bytes: Buffer) => test.pattern.test(bytes.toString(test.encoding)),
  })
}

/** Why `pattern` cannot be a `redact:` pattern, or undefined when it can. */
export function redactPatternProblem(pattern: string): string | undefined {
  let compiled: RegExp
  try {
    compiled = new RegExp(`^(?:${pattern})$`)
  } catch (error) {
    return `\`${pattern}\` is not a regular expression (${(error as Error).message})`
  }
  if (compiled.test(''))
    return `\`${pattern}\` matches the empty string; it would redact between every character`
  return undefined
}

/** Makes the run's redactor, which every file writer and the console use until the next call. */
export function useRedaction(options: RedactionOptions = {}): Redactor {
  active = createRedactor(options)
  activeOptions = options
  return active
}

/** The run's redactor (built from `process.env` when no run has set one). */
export function activeRedactor(): Redactor {
  active ??= createRedactor(activeOptions)
  return active
}

/** Redacts `text` with the run's redactor. */
export function redact(text: string): string {
  return activeRedactor()(text)
}

/** Redacts every string or UTF-8 chunk written to `stream` (the front ends' stdout and stderr) from now on. */
export function redactWrites(stream: NodeJS.WriteStream): void {
  if (redacting.has(stream)) return
  redacting.add(stream)
  const write = stream.write.bind(stream) as (chunk: unknown, ...rest: unknown[]) => boolean
  const clean = (chunk: unknown): unknown => {
    if (typeof chunk === 'string') return redact(chunk)
    if (!(chunk instanceof Uint8Array)) return chunk
    const bytes = Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength)
    return activeRedactor().mayChange(bytes) ? redact(bytes.toString('utf8')) : chunk
  }
  stream.write = (chunk: unknown, ...rest: unknown[]) => write(clean(chunk), ...rest)
}

/** Every form of every secret value, with the label that replaces it: `[redacted NAME]`. */
function secretLabels(env: Readonly<Record<string, string | undefined>>): Map<string, string> {
  const labels = new Map<string, string>()
  for (const [name, value] of Object.entries(env)) {
    if (value === undefined || !(declared.has(name) || SECRET_NAME.test(name))) continue
    for (const raw of new Set([value, value.trim()])) {
      if (raw.length < MIN_SECRET_LENGTH) continue
      const once = JSON.stringify(raw).slice(1, -1)
      const twice = JSON.stringify(once).slice(1, -1)
      for (const form of [raw, once, twice]) if (!labels.has(form)) labels.set(form, `[redacted ${name}]`)
    }
  }
  return labels
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&')
}

/** `authorization` → `[Aa][Uu]…`: Node 20 has no inline case-insensitive groups */
function caseless(word: string): string {
  return word.replace(/[a-z]/g, (char) => `[${char.toUpperCase()}${char}]`)
}
