import { findPii, piiKinds, type PiiKind } from '../../util/pii.ts'
import type { Guardrail, GuardrailReaction } from './guardrail.ts'

export interface PiiGuardrailOptions {
  /** @default every kind: email, phone, ssn, credit_card, ip, zip */
  kinds?: readonly PiiKind[]
  /** `rewrite` masks each match as `[email]`, `[phone]`, … @default 'block' */
  action?: GuardrailReaction
}

/** Finds emails, phone numbers, SSNs, credit cards (Luhn-checked), IP addresses and US ZIP codes. */
export function piiGuardrail(options: PiiGuardrailOptions = {}): Guardrail {
  const kinds = options.kinds ?? piiKinds
  const action = options.action ?? 'block'
  return {
    name: 'pii',
    check(text) {
      const found = findPii(text, kinds)
      if (found.length === 0) return { action: 'pass' }
      const reason = `found ${[...new Set(found.map((match) => match.kind.replace('_', ' ')))].join(', ')}`
      if (action !== 'rewrite') return { action, reason }
      let masked = ''
      let at = 0
      for (const match of found) {
        masked += `${text.slice(at, match.index)}[${match.kind}]`
        at = match.index + match.text.length
      }
      return { action, reason, text: masked + text.slice(at) }
    },
  }
}
