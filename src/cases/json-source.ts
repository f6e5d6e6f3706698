import type { SourceMap } from './source-map.ts'

interface Position {
  offset: number
  keyOffset?: number
  /** an object's values by key, an array's by index */
  children?: Map<string, Position> | Position[]
}

/** A SourceMap for JSON: `JSON.parse` for the data and one quick scan for positions, far faster than YAML. */
export function parseJsonSource(text: string): SourceMap {
  const lineStarts = [0]
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) lineStarts.push(i + 1)
  const position = (offset: number) => {
    let low = 0
    let high = lineStarts.length - 1
    while (low < high) {
      const middle = (low + high + 1) >> 1
      if ((lineStarts[middle] ?? 0) <= offset) low = middle
      else high = middle - 1
    }
    return { line: low + 1, column: offset - (lineStarts[low] ?? 0) + 1 }
  }
  let data: unknown
  try {
    data = JSON.parse(text)
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error)
    const offset = Number(/at position (\d+)/.exec(message)?.[1] ?? 0)
    return {
      data: undefined,
      errors: [{ message, ...position(offset) }],
      locate: () => position(0),
      line: () => position(0).line,
    }
  }
  // the shallow scan finds each case's line; the full one runs only when an issue needs a deeper position
  // both scans run on the first need: a one-line file (as JSON generators write) needs none for its case lines
  let shallow: Position | undefined
  let full: Position | undefined
  const locate: SourceMap['locate'] = (path, key = false) => {
    const root =
      path.length <= 2 && !key
        ? (shallow ??= new PositionScanner(text, 2).value(0))
        : (full ??= new PositionScanner(text, Infinity).value(0))
    let node = root
    let offset = root.offset
    for (const [index, segment] of path.entries()) {
      const { children } = node
      const next = Array.isArray(children)
        ? typeof segment === 'number' || /^\d+$/.test(String(segment))
          ? children[Number(segment)]
          : undefined
        : children?.get(String(segment))
      if (!next) break
      offset = key && index === path.length - 1 ? (next.keyOffset ?? next.offset) : next.offset
      node = next
    }
    return position(offset)
  }
  return {
    data,
    errors: [],
    locate,
    line: (path) => (lineStarts.length === 1 ? 1 : locate(path).line),
  }
}

/** Walks valid JSON text recording where each value (and each object key) starts. */
class PositionScanner {
  private index = 0
  private readonly text: string
  /** values nested deeper than this are skipped without recording their children */
  private readonly depth: number

  constructor(text: string, depth: number) {
    this.text = text
    this.depth = depth
  }

  value(depth: number): Position {
    this.skipSpace()
    const offset = this.index
    const char = this.text.charCodeAt(this.index)
    if (depth >= this.depth && (char === OPEN_BRACE || char === OPEN_BRACKET)) this.skipNested()
    else if (char === OPEN_BRACE) return { offset, children: this.object(depth + 1) }
    else if (char === OPEN_BRACKET) return { offset, children: this.array(depth + 1) }
    else if (char === QUOTE) this.string()
    else while (this.index < this.text.length && !isValueEnd(this.text.charCodeAt(this.index))) this.index++
    return { offset }
  }

  private object(depth: number): Map<string, Position> {
    const children = new Map<string, Position>()
    this.index++
    this.skipSpace()
    while (this.text.charCodeAt(this.index) !== CLOSE_BRACE) {
      const keyOffset = this.index
      const raw = this.text.slice(keyOffset + 1, this.string() - 1)
      const key = raw.includes('\\') ? (JSON.parse(`"${raw}"`) as string) : raw
      this.skipSpace()
      this.index++ // the colon
      const child = this.value(depth)
      child.keyOffset = keyOffset
      children.set(key, child)
      this.skipComma()
      this.skipSpace()
    }
    this.index++
    return children
  }

  private array(depth: number): Position[] {
    const children: Position[] = []
    this.index++
    this.skipSpace()
    while (this.text.charCodeAt(this.index) !== CLOSE_BRACKET) {
      children.push(this.value(depth))
      this.skipComma()
      this.skipSpace()
    }
    this.index++
    return children
  }

  /** skips an object or array, strings included, without recording anything */
  private skipNested(): void {
    let open = 0
    do {
      const char = this.text.charCodeAt(this.index)
      if (char === QUOTE) {
        this.string()
        continue
      }
      if (char === OPEN_BRACE || char === OPEN_BRACKET) open++
      else if (char === CLOSE_BRACE || char === CLOSE_BRACKET) open--
      this.index++
    } while (open > 0)
  }

  /** skips a string literal and returns the offset just past its closing quote */
  private string(): number {
    this.index++
    for (
      let char = this.text.charCodeAt(this.index);
      char !== QUOTE;
      char = this.text.charCodeAt(this.index)
    ) {
      this.index += char === BACKSLASH ? 2 : 1
    }
    return ++this.index
  }

  private skipComma(): void {
    this.skipSpace()
    if (this.text.charCodeAt(this.index) === COMMA) this.index++
  }

  private skipSpace(): void {
    while (isSpace(this.text.charCodeAt(this.index))) this.index++
  }
}

const [QUOTE, COMMA, BACKSLASH, OPEN_BRACE, CLOSE_BRACE, OPEN_BRACKET, CLOSE_BRACKET] = [
  34, 44, 92, 123, 125, 91, 93,
]

function isSpace(char: number): boolean {
  return char === 32 || char === 10 || char === 13 || char === 9
}

function isValueEnd(char: number): boolean {
  return char === COMMA || char === CLOSE_BRACE || char === CLOSE_BRACKET || isSpace(char)
}
