import { canonicalJson } from '../../util/canonical-json.ts'
import { cutEnd } from '../../util/cut-end.ts'
import { formatCount } from '../../util/format-count.ts'

/**
 * Bounds what one result stores. A target may answer with megabytes (a runaway loop, a file dumped into the reply);
 * the checks see all of it, but results.jsonl, report.json and every report hold each string of the transcript and
 * the turns cut to `maxChars`, with a marker saying so. Results without a long string are returned as they are.
 */

/**
 * `value` as stored (`boundStrings`) with its canonical JSON, the line results.jsonl holds. The JSON is made first:
 * no string is longer than the JSON holding it, so a value whose JSON fits in `maxChars` is stored as it is, without
 * a walk over it (every result of a run, unless a target answers with a megabyte).
 */
export function storedForm<T>(value: T, maxChars: number): { value: T; json: string } {
  const json = canonicalJson(value)
  if (json.length <= maxChars) return { value, json }
  const bounded = boundStrings(value, maxChars)
  return { value: bounded, json: bounded === value ? json : canonicalJson(bounded) }
}

/** `value` with every string longer than `maxChars` cut, copying only the objects on the way to one. */
export function boundStrings<T>(value: T, maxChars: number): T {
  return bound(value, maxChars) as T
}

function bound(value: unknown, maxChars: number): unknown {
  if (typeof value === 'string') return value.length > maxChars ? cut(value, maxChars) : value
  if (typeof value !== 'object' || value === null) return value
  if (Array.isArray(value)) {
    const items = value as unknown[]
    let copy: unknown[] | undefined
    for (let i = 0; i < items.length; i++) {
      const item = items[i]
      const bounded = bound(item, maxChars)
      if (bounded !== item) (copy ??= [...items])[i] = bounded
    }
    return copy ?? value
  }
  let copy: Record<string, unknown> | undefined
  // for…in, not Object.entries: no array per property, for every object of every result
  for (const key in value) {
    if (!Object.hasOwn(value, key)) continue
    const item = (value as Record<string, unknown>)[key]
    const bounded = bound(item, maxChars)
    if (bounded !== item) (copy ??= { ...value })[key] = bounded
  }
  return copy ?? value
}

function cut(text: string, maxChars: number): string {
  // never half of a surrogate pair: JSON would carry a lone surrogate
  const end = cutEnd(text, maxChars)
  const kept = text.slice(0, end)
  return `${kept}…[evals: stored ${formatCount(end)} of ${formatCount(text.length)} characters; the checks saw all of them; raise --max-stored-chars to keep more]`
}
