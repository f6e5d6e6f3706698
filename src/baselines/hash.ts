import { hash } from 'node:crypto'
import { canonicalJson } from '../util/canonical-json.ts'

/**
 * A short, stable hash of any JSON-like value (object keys sorted), for `CaseSummary.inputHash` and judge spec
 * hashes: 16 hex characters of SHA-256.
 */
export function hashInput(value: unknown): string {
  // the one-shot `hash` is twice as fast as createHash for the small strings hashed once per case
  return hash('sha256', canonicalJson(value), 'hex').slice(0, 16)
}
