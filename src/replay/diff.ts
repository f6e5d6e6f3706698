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
    return `  ~ ${change.path}: ${changed(change.before, change.after)}`
  })
  if (changes.length > max) lines.push(`  … and ${changes.length - max} more`)
  return lines.join('\n')
}

/** the longest value shown, in characters */
const SHOWN = 100

function cut(text: string, max = SHOWN): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`
}

/** how much of what both values share is shown before their first difference */
const LEAD = 30

/** `before → after`, long values both cut from just before their first difference, so the change is on screen. */
function changed(before: string, after: string): string {
  let first = 0
  while (first < before.length && before[first] === after[first]) first++
  const start = first + LEAD <= SHOWN ? 0 : first - LEAD
  const from = (text: string): string => (start === 0 ? cut(text) : `…${cut(text.slice(start), SHOWN - 1)}`)
  return `${from(before)} → ${from(after)}`
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
