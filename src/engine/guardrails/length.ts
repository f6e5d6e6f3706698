import { ConfigError } from '../../errors.ts'
import type { Guardrail, GuardrailReaction } from './guardrail.ts'

export interface LengthGuardrailOptions {
  maxChars?: number
  minChars?: number
  /** `rewrite` cuts a long text to `maxChars` (a short one is blocked) @default 'block' */
  action?: GuardrailReaction
}

/** Keeps a text between `minChars` and `maxChars` characters. */
export function lengthGuardrail(options: LengthGuardrailOptions): Guardrail {
  const { maxChars, minChars } = options
  if (maxChars === undefined && minChars === undefined)
    throw new ConfigError('`lengthGuardrail` needs `maxChars`, `minChars` or both.')
  const action = options.action ?? 'block'
  return {
    name: 'length',
    check(text) {
      if (maxChars !== undefined && text.length > maxChars) {
        const reason = `${text.length} characters, more than ${maxChars}`
        return action === 'rewrite' ? { action, reason, text: text.slice(0, maxChars) } : { action, reason }
      }
      if (minChars !== undefined && text.length < minChars) {
        const reason = `${text.length} characters, fewer than ${minChars}`
        return { action: action === 'rewrite' ? 'block' : action, reason }
      }
      return { action: 'pass' }
    },
  }
}
