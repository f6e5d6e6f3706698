import { createHash } from 'node:crypto'
import { readSync } from 'node:fs'
import { TypedList } from '../../util/typed-list.ts'

/** What one streaming pass over a JSON case file finds, holding a megabyte of it at a time. */
export interface JsonCaseScan {
  /** the top-level object as `JSON.parse` gives it, with an empty `cases` list */
  header: Record<string, unknown>
  /** where each item of `cases` is in the file's bytes, as start and end pairs */
  ranges: Float64Array
  /** the 1-based line each item starts on */
  lines: Uint32Array
  /** SHA-256 (hex) of the file's bytes */
  hash: string
}

const CHUNK_BYTES = 1 << 20

/**
 * Scans the JSON file open at `fd` for the items of its top-level `cases` list. Undefined when the file is not a
 * valid-looking object with one such list (the caller then parses it whole, which also words any syntax error).
 * The items themselves are not checked: each is parsed when it is read. `chunkBytes` is how much is read at once.
 */
export function scanJsonCases(fd: number, chunkBytes = CHUNK_BYTES): JsonCaseScan | undefined {
  const scanner = new CaseScanner()
  const digest = createHash('sha256')
  const chunk = Buffer.allocUnsafe(chunkBytes)
  let offset = 0
  for (let got = readSync(fd, chunk, 0, chunkBytes, 0); got > 0;) {
    const bytes = chunk.subarray(0, got)
    digest.update(bytes)
    if (!scanner.feed(bytes, offset)) return undefined
    offset += got
    got = readSync(fd, chunk, 0, chunkBytes, offset)
  }
  const done = scanner.finish()
  if (!done) return undefined
  let header: unknown
  try {
    header = JSON.parse(done.header)
  } catch {
    return undefined
  }
  if (typeof header !== 'object' || header === null || Array.isArray(header)) return undefined
  return {
    header: header as Record<string, unknown>,
    ranges: done.ranges,
    lines: done.lines,
    hash: digest.digest('hex'),
  }
}

/** where the scanner is: outside the cases list; in it where an item may start (after `[`) or must (after `,`); inside an item; after one */
const Mode = { Outside: 0, First: 1, Next: 2, Item: 3, After: 4 } as const

const [QUOTE, COMMA, COLON, BACKSLASH, OPEN_BRACE, CLOSE_BRACE, OPEN_BRACKET, CLOSE_BRACKET, NEWLINE] = [
  34, 44, 58, 92, 123, 125, 91, 93, 10,
]

/** A byte-level state machine over the file's chunks: JSON's structural characters are all ASCII. */
class CaseScanner {
  #mode: (typeof Mode)[keyof typeof Mode] = Mode.Outside
  #inString = false
  #escaped = false
  /** nesting outside the cases list (1 inside the top-level object), or inside the current item */
  #depth = 0
  #itemDepth = 0
  #itemStart = 0
  #itemLine = 0
  /** an item that is a string or a bare word (number, true, ...) rather than an object or a list */
  #flatItem = false
  #line = 1
  /** what the top level expects next at depth 1: a key, or the value of the key just read */
  #expectKey = false
  #key: number[] | undefined
  #valueOf: string | undefined
  #casesSeen = false
  /** the bytes outside the cases list, which parse as the header with `[]` for the list */
  readonly #header: Buffer[] = []
  readonly #ranges = new TypedList(Float64Array, 1024)
  readonly #lines = new TypedList(Uint32Array, 512)

  feed(bytes: Buffer, base: number): boolean {
    let outsideFrom = this.#mode === Mode.Outside ? 0 : -1
    for (let i = 0; i < bytes.length; i++) {
      const byte = bytes[i] as number
      if (byte === NEWLINE) this.#line++
      switch (this.#mode) {
        case Mode.Outside: {
          const entered = this.#outside(byte)
          if (entered === undefined) return false
          if (entered) {
            this.#header.push(Buffer.from(bytes.subarray(outsideFrom, i)), Buffer.from('[]'))
            outsideFrom = -1
            this.#mode = Mode.First
          }
          break
        }
        case Mode.Item:
          if (this.#inString) {
            if (this.#escaped) this.#escaped = false
            else if (byte === BACKSLASH) this.#escaped = true
            else if (byte === QUOTE) {
              this.#inString = false
              if (this.#flatItem) this.#endItem(base + i + 1)
            }
          } else if (this.#flatItem) {
            if (isSpace(byte) || byte === COMMA || byte === CLOSE_BRACKET) {
              this.#endItem(base + i)
              if (byte === COMMA) this.#mode = Mode.Next
              else if (byte === CLOSE_BRACKET) {
                this.#mode = Mode.Outside
                outsideFrom = i + 1
              }
            }
          } else if (byte === QUOTE) this.#inString = true
          else if (byte === OPEN_BRACE || byte === OPEN_BRACKET) this.#itemDepth++
          else if (byte === CLOSE_BRACE || byte === CLOSE_BRACKET) {
            if (--this.#itemDepth === 0) this.#endItem(base + i + 1)
          }
          break
        case Mode.After:
          if (byte === COMMA) this.#mode = Mode.Next
          else if (byte === CLOSE_BRACKET) {
            this.#mode = Mode.Outside
            outsideFrom = i + 1
          } else if (!isSpace(byte)) return false
          break
        default:
          // First or Next: where an item starts
          if (isSpace(byte)) break
          if (byte === CLOSE_BRACKET) {
            if (this.#mode === Mode.Next) return false
            this.#mode = Mode.Outside
            outsideFrom = i + 1
            break
          }
          if (byte === COMMA || byte === COLON || byte === CLOSE_BRACE) return false
          this.#itemStart = base + i
          this.#itemLine = this.#line
          this.#mode = Mode.Item
          this.#flatItem = byte !== OPEN_BRACE && byte !== OPEN_BRACKET
          if (byte === QUOTE) this.#inString = true
          else if (!this.#flatItem) this.#itemDepth = 1
      }
    }
    if (outsideFrom >= 0) this.#header.push(Buffer.from(bytes.subarray(outsideFrom)))
    return true
  }

  finish(): { header: string; ranges: Float64Array; lines: Uint32Array } | undefined {
    if (this.#mode !== Mode.Outside || this.#depth !== 0 || this.#inString || !this.#casesSeen)
      return undefined
    return {
      header: Buffer.concat(this.#header).toString('utf8'),
      ranges: this.#ranges.view().slice(),
      lines: this.#lines.view().slice(),
    }
  }

  /**
   * Follows the top level; true when `byte` opens the `cases` list, undefined when the file is not what
   * `scanJsonCases` reads (a top level other than an object, a second `cases` key).
   */
  #outside(byte: number): boolean | undefined {
    if (this.#inString) {
      if (this.#escaped) this.#escaped = false
      else if (byte === BACKSLASH) this.#escaped = true
      else if (byte === QUOTE) {
        this.#inString = false
        if (this.#key) {
          this.#valueOf = Buffer.from(this.#key).toString('utf8')
          this.#key = undefined
        }
      } else this.#key?.push(byte)
      return false
    }
    if (isSpace(byte)) return false
    if (this.#depth === 0 && byte !== OPEN_BRACE) return undefined
    if (this.#depth === 1) {
      if (this.#expectKey) {
        this.#expectKey = false
        if (byte !== QUOTE) return byte === CLOSE_BRACE ? this.#close() : undefined
        this.#inString = true
        this.#key = []
        return false
      }
      if (byte === COLON) return false
      if (byte === COMMA) {
        this.#expectKey = true
        return false
      }
      if (this.#valueOf === 'cases') {
        if (this.#casesSeen) return undefined
        this.#valueOf = undefined
        if (byte === OPEN_BRACKET) {
          this.#casesSeen = true
          return true
        }
      }
      this.#valueOf = undefined
    }
    if (byte === QUOTE) this.#inString = true
    else if (byte === OPEN_BRACE || byte === OPEN_BRACKET) {
      if (++this.#depth === 1) this.#expectKey = true
    } else if (byte === CLOSE_BRACE || byte === CLOSE_BRACKET) return this.#close()
    return false
  }

  #close(): false | undefined {
    if (this.#depth === 0) return undefined
    this.#depth--
    return false
  }

  #endItem(end: number): void {
    this.#ranges.push(this.#itemStart)
    this.#ranges.push(end)
    this.#lines.push(this.#itemLine)
    this.#flatItem = false
    this.#mode = Mode.After
  }
}

function isSpace(byte: number): boolean {
  return byte === 32 || byte === 10 || byte === 13 || byte === 9
}
