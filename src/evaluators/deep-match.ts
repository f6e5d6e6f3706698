import { isDeepStrictEqual } from 'node:util'
import { isPlainObject } from '../util/value-at.ts'

/** Where `actual` stops containing `expected`. */
export interface Mismatch {
  /** dotted path of the first difference; empty at the root */
  path: string
  expected: unknown
  actual: unknown
}

/**
 * The first place where `actual` does not contain `expected`: objects match when every expected key matches,
 * arrays element by element with the same length, everything else by strict equality.
 */
export function findMismatch(expected: unknown, actual: unknown, path = ''): Mismatch | undefined {
  if (Array.isArray(expected)) {
    if (!Array.isArray(actual) || actual.length !== expected.length) return { path, expected, actual }
    for (const [index, item] of expected.entries()) {
      const mismatch = findMismatch(item, actual[index], `${path}[${index}]`)
      if (mismatch) return mismatch
    }
    return undefined
  }
  if (isPlainObject(expected)) {
    if (!isPlainObject(actual)) return { path, expected, actual }
    for (const [key, value] of Object.entries(expected)) {
      const mismatch = findMismatch(value, actual[key], path ? `${path}.${key}` : key)
      if (mismatch) return mismatch
    }
    return undefined
  }
  return isDeepStrictEqual(expected, actual) ? undefined : { path, expected, actual }
}
