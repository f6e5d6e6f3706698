/** An object that is not null and not an array. */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/** The value at a dotted path (`a.b.0.c`) through objects and arrays; undefined where the path leads nowhere. */
export function valueAt(value: unknown, dottedPath: string): unknown {
  let current = value
  for (const key of dottedPath.split('.')) {
    if (!isPlainObject(current) && !Array.isArray(current)) return undefined
    current = (current as Record<string, unknown>)[key]
  }
  return current
}
