import { isMap, isScalar, isSeq, LineCounter, parseDocument } from 'yaml'
import type { Document, Node } from 'yaml'

/** A parsed YAML or JSON file that can point at the line and column of any path in it. */
export interface SourceMap {
  data: unknown
  /** syntax errors, already located */
  errors: { message: string; line: number; column: number }[]
  /** line and column of the value at `path`, or of its key when `key` is set; the nearest existing parent when absent */
  locate(path: readonly PropertyKey[], key?: boolean): { line: number; column: number }
  /** the line of `locate(path)`, possibly without scanning for the column */
  line(path: readonly PropertyKey[]): number
  /**
   * the `cases:` entry at `index`, parsed on demand: set when `data.cases` is only a placeholder of the right length
   * (large JSON files, so the whole parsed list never exists at once)
   */
  caseEntry?: (index: number) => unknown
}

export function parseSource(text: string): SourceMap {
  const lineCounter = new LineCounter()
  const doc: Document = parseDocument(text, { lineCounter, merge: true, prettyErrors: false })
  const position = (offset: number) => {
    const { line, col } = lineCounter.linePos(offset)
    return { line, column: col }
  }
  const locate: SourceMap['locate'] = (path, key = false) => {
    let node: Node | null | undefined = doc.contents
    let offset = node?.range?.[0] ?? 0
    for (const [index, segment] of path.entries()) {
      const next = child(node, segment)
      if (!next) break
      const [value, keyNode] = next
      const target = key && index === path.length - 1 ? keyNode : (value ?? keyNode)
      offset = target?.range?.[0] ?? offset
      node = value
    }
    return position(offset)
  }
  return {
    data: doc.errors.length > 0 ? undefined : doc.toJS({ maxAliasCount: 1000 }),
    errors: doc.errors.map((error) => ({ message: firstLine(error.message), ...position(error.pos[0]) })),
    locate,
    line: (path) => locate(path).line,
  }
}

function child(
  node: Node | null | undefined,
  segment: PropertyKey,
): [Node | null, Node | undefined] | undefined {
  if (isMap(node)) {
    const pair = node.items.find((item) => isScalar(item.key) && String(item.key.value) === String(segment))
    return pair ? [pair.value as Node | null, pair.key as Node] : undefined
  }
  if (isSeq(node) && typeof segment === 'number') {
    const item = node.items[segment] as Node | undefined
    return item ? [item, undefined] : undefined
  }
  return undefined
}

function firstLine(message: string): string {
  return message.split('\n')[0] ?? message
}
