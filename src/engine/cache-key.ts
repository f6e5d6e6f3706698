import { createHash } from 'node:crypto'
import type { CompletionRequest } from '../providers/provider.ts'
import { canonicalJson } from '../util/canonical-json.ts'

/** A stable hash of everything that decides a model's reply, plus the trial index. */
export function cacheKey(providerId: string, request: CompletionRequest, trial: number): string {
  return createHash('sha256').update(canonicalJson({ providerId, request, trial })).digest('hex')
}
