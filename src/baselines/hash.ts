import { createHash } from 'node:crypto'
import { canonicalJson } from '../util/canonical-json.ts'

/**
 * A short, stable hash of any JSON-like value (object keys sorted), for `CaseSummary.inputHash` and judge spec
 * hashes: 16 hex characters of SHA-256.
 */
export function hashInput(value: unknown): string {
  return createHash('sha256').update(canonicalJson(value)).digest('hex').slice(0, 16)
}
