import { createHash } from 'node:crypto'
import type { CompletionRequest } from '../providers/provider.ts'

/** A stable hash of everything that decides a model's reply, plus the trial index. */
export function cacheKey(providerId: string, request: CompletionRequest, trial: number): string {
  return createHash('sha256').update(canonicalJson({ providerId, request, trial })).digest('hex')
}

/** JSON with object keys sorted, so equal values always serialize the same way. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, item: unknown) => {
    if (item === null || typeof item !== 'object' || Array.isArray(item)) return item
    const record = item as Record<string, unknown>
    return Object.fromEntries(
      Object.keys(record)
        .sort()
        .map((key) => [key, record[key]]),
    )
  })
}
