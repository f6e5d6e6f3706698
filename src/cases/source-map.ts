import { createRequire } from 'node:module'
import type * as Yaml from 'yaml'
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
   * (large case files, so the whole parsed list never exists at once)
   */
  caseEntry?: (index: number) => unknown
}

let yamlLibrary: typeof Yaml | undefined

/** `yaml`, loaded on first use: most files take the js-yaml path of yaml-source.ts and never need its ~100 modules */
function yaml(): typeof Yaml {
  yamlLibrary ??= createRequire(import.meta.url)('yaml') as typeof Yaml
  return yamlLibrary
}

/** Most alias expansions `yaml` makes before it stops (its `maxAliasCount`): a guard against billion-laughs files. */
const MAX_ALIAS_COUNT = 1000

/** Parses YAML with `yaml`, which keeps every node's position (see yaml-source.ts for the fast path). */
export function parseSource(text: string): SourceMap {
  const { LineCounter, parseDocument } = yaml()
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
  const errors = doc.errors.map((error) => ({ message: firstLine(error.message), ...position(error.pos[0]) }))
  let data: unknown
  try {
    if (errors.length === 0) data = doc.toJS({ maxAliasCount: MAX_ALIAS_COUNT })
  } catch (error) {
    // yaml's alias cap throws a ReferenceError, a bad merge (`<<: 1`) an Error
    if (!(error instanceof Error)) throw error
    const aliases = error instanceof ReferenceError
    errors.push({
      message: aliases
        ? `the aliases expand to more than ${MAX_ALIAS_COUNT} nodes (a guard against billion-laughs files); write the repeated values out, or alias fewer of them`
        : firstLine(error.message),
      ...position(firstNode(doc, aliases ? 'alias' : 'merge')),
    })
  }
  return {
    data,
    errors,
    locate,
    line: (path) => locate(path).line,
  }
}

function child(
  node: Node | null | undefined,
  segment: PropertyKey,
): [Node | null, Node | undefined] | undefined {
  const { isMap, isScalar, isSeq } = yaml()
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

/** The offset of the first alias (`*name`) or merge key (`<<`) in the document. */
function firstNode(doc: Document, kind: 'alias' | 'merge'): number {
  const { isScalar, visit } = yaml()
  let offset = 0
  visit(doc, {
    Alias(_, node) {
      if (kind !== 'alias') return undefined
      offset = node.range?.[0] ?? 0
      return visit.BREAK
    },
    Pair(_, pair) {
      // with `merge: true`, yaml reads a plain `<<` key as the symbol of that name
      const key = isScalar(pair.key) ? pair.key : undefined
      const value = key?.value
      if (kind !== 'merge' || typeof value !== 'symbol' || value.description !== '<<') return undefined
      offset = key?.range?.[0] ?? 0
      return visit.BREAK
    },
  })
  return offset
}
