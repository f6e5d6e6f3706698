/** Environment variables whose values never appear in a report. */
export const SECRET_ENV_VARS = ['OPENAI_API_KEY', 'ANTHROPIC_API_KEY'] as const

const KEY_PREFIX = 'sk-'
const KEY_PATTERN = /\bsk-(?:ant-)?[A-Za-z0-9_-]{8,}/g
/** shorter values are too likely to match ordinary text */
const MIN_SECRET_LENGTH = 8

/** Replaces a secret in any text, including serialized JSON: the replacement needs no escaping. */
export interface Redactor {
  (text: string): string
  /** false when the UTF-8 text in `bytes` holds nothing to replace, so it can be copied without decoding */
  mayChange(bytes: Buffer): boolean
}

/**
 * Builds a redactor for API-key-looking tokens (`sk-…`, `sk-ant-…`) and the values of OPENAI_API_KEY and
 * ANTHROPIC_API_KEY in `env`. Applied to JSON text, it matches the values as JSON encodes them.
 */
export function createRedactor(env: NodeJS.ProcessEnv = process.env): Redactor {
  const values = SECRET_ENV_VARS.flatMap((name) => {
    const value = env[name]
    if (value === undefined || value.length < MIN_SECRET_LENGTH) return []
    const asJson = JSON.stringify(value).slice(1, -1)
    return [...new Set([value, asJson])].map((text) => ({ text, label: `[redacted ${name}]` }))
  })
  // every replacement starts with one of these: until one appears, the text stays as it is
  const needles = [KEY_PREFIX, ...values.map(({ text }) => text)].map((text) => Buffer.from(text))
  const redact = (text: string): string => {
    let out = text
    for (const { text: secret, label } of values) {
      if (out.includes(secret)) out = out.split(secret).join(label)
    }
    if (!out.includes(KEY_PREFIX)) return out
    return out.replace(KEY_PATTERN, (match) =>
      match.startsWith('sk-ant-') ? 'sk-ant-[redacted]' : 'sk-[redacted]',
    )
  }
  return Object.assign(redact, {
    mayChange: (bytes: Buffer) => needles.some((needle) => bytes.includes(needle)),
  })
}
