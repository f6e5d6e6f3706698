/** Environment variables whose values never appear in a report. */
export const SECRET_ENV_VARS = ['OPENAI_API_KEY', 'ANTHROPIC_API_KEY'] as const

const KEY_PATTERN = /\bsk-(?:ant-)?[A-Za-z0-9_-]{8,}/g
/** shorter values are too likely to match ordinary text */
const MIN_SECRET_LENGTH = 8

/** Replaces a secret in any text, including serialized JSON: the replacement needs no escaping. */
export type Redactor = (text: string) => string

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
  return (text) => {
    let out = text
    for (const { text: secret, label } of values) {
      if (out.includes(secret)) out = out.split(secret).join(label)
    }
    return out.replace(KEY_PATTERN, (match) =>
      match.startsWith('sk-ant-') ? 'sk-ant-[redacted]' : 'sk-[redacted]',
    )
  }
}
