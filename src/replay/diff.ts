/** One difference between two JSON values, at a dotted path. */
export interface JsonChange {
  path: string
  /** undefined when the path is only in `after` */
  before?: string
  /** undefined when the path is only in `before` */
  after?: string
}

/** The leaves that differ between two JSON values, in path order. */
export function jsonChanges(before: unknown, after: unknown): JsonChange[] {
  const a = leaves(before)
  const b = leaves(after)
  const changes: JsonChange[] = []
  for (const [path, value] of a) {
    const other = b.get(path)
    if (other === undefined) changes.push({ path, before: value })
    else if (other !== value) changes.push({ path, before: value, after: other })
  }
  for (const [path, value] of b) if (!a.has(path)) changes.push({ path, after: value })
  return changes.sort((x, y) => (x.path < y.path ? -1 : x.path > y.path ? 1 : 0))
}

/** A short, readable diff: one line per change, long values cut, at most `max` lines. */
export function formatChanges(changes: readonly JsonChange[], max = 8): string {
  const lines = changes.slice(0, max).map((change) => {
    if (change.before === undefined) return `  + ${change.path}: ${cut(change.after ?? '')}`
    if (change.after === undefined) return `  - ${change.path}: ${cut(change.before)}`
    return `  ~ ${change.path}: ${cut(change.before)} → ${cut(change.after)}`
  })
  if (changes.length > max) lines.push(`  … and ${changes.length - max} more`)
  return lines.join('\n')
}

function cut(text: string, max = 100): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`
}

function leaves(value: unknown): Map<string, string> {
  const out = new Map<string, string>()
  const walk = (item: unknown, path: string): void => {
    if (Array.isArray(item)) {
      if (item.length === 0) out.set(path, '[]')
      item.forEach((entry, index) => {
        walk(entry, `${path}[${index}]`)
      })
    } else if (item !== null && typeof item === 'object') {
      const entries = Object.entries(item)
      if (entries.length === 0) out.set(path, '{}')
      for (const [key, entry] of entries) walk(entry, path ? `${path}.${key}` : key)
    } else if (item !== undefined) {
      out.set(path || '(root)', JSON.stringify(item))
    }
  }
  walk(value, '')
  return out
}
