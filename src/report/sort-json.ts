import { isUtf8 } from 'node:buffer'

/** A copy with object keys in code-point order at every depth, so reports diff well. */
export function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys)
  if (value === null || typeof value !== 'object') return value
  const out: Record<string, unknown> = {}
  for (const key of Object.keys(value).sort()) out[key] = sortKeys((value as Record<string, unknown>)[key])
  return out
}

/**
 * JSON lines read into one buffer, copied within it with their keys sorted: the text
 * `JSON.stringify(sortKeys(JSON.parse(line)))` without building the value, when a line is written the way
 * JSON.stringify writes it: valid UTF-8, no whitespace, shortest numbers, no `\u` or `\/` escapes, and unique
 * keys, none `__proto__` or starting with a digit (integer-like keys would enumerate first). Sorting such a line only
 * moves its bytes, so the copy is as long as the line.
 */
export class SortableLines {
  readonly #bytes: Buffer
  /** the bytes as latin1, a character per byte, which the scan reads */
  readonly #latin1: string
  /** whether all of it is valid UTF-8 without control characters but newlines, so lines need no check */
  readonly #clean: boolean

  /** Takes the lines in `bytes[0, end)`. */
  constructor(bytes: Buffer, end: number) {
    this.#bytes = bytes
    this.#latin1 = bytes.toString('latin1', 0, end)
    this.#clean = !NOT_NEWLINE_CONTROL.test(this.#latin1) && isUtf8(bytes.subarray(0, end))
  }

  /**
   * Copies the line in `[start, end)` to `at`, past the lines, with its keys sorted; uses the same length again
   * after the copy for scratch. Returns false for a line written otherwise, valid JSON or not: parse that one, for
   * the same bytes or the same error.
   */
  copySorted(start: number, end: number, at: number): boolean {
    const text = this.#latin1.slice(start, end)
    if (!this.#clean && (CONTROL.test(text) || !isUtf8(this.#bytes.subarray(start, end)))) return false
    this.#bytes.copyWithin(at, start, end)
    return sortInPlace(text, this.#bytes, at)
  }
}

// JSON.stringify escapes control characters, so a line holding one is not its text
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f]/
// eslint-disable-next-line no-control-regex
const NOT_NEWLINE_CONTROL = /[\u0000-\u0009\u000b-\u001f]/
const MAX_DEPTH = 256
const QUOTE = 0x22
const COMMA = 0x2c
const MINUS = 0x2d
const ZERO = 0x30
const NINE = 0x39
const COLON = 0x3a
const DOT = 0x2e
const OPEN_BRACKET = 0x5b
const BACKSLASH = 0x5c
const CLOSE_BRACKET = 0x5d
const OPEN_BRACE = 0x7b
const CLOSE_BRACE = 0x7d

// The scan is synchronous and iterative (a recursive one takes long to optimize), so its stacks are shared:
// the open containers, innermost last,
const frameIsObject = new Uint8Array(MAX_DEPTH)
const frameOpen = new Int32Array(MAX_DEPTH)
/** where an object's members start on the member stack */
const frameBase = new Int32Array(MAX_DEPTH)
const frameSorted = new Uint8Array(MAX_DEPTH)
// the members of the open objects,
const keyAt: number[] = []
const valueEnd: number[] = []
// and the members of the object being sorted, in key order (indices into the member stack).
const order: number[] = []
/** the next backslash in the text being scanned at or after the scan, or -1 */
let backslash = -1

/**
 * Scans the JSON text `src`, whose copy is at `at` in `bytes`, and sorts the members of each object in the copy
 * as the object ends (its members' copies have been sorted by then, and kept their length). False when unsure.
 */
function sortInPlace(src: string, bytes: Buffer, at: number): boolean {
  const end = src.length
  let pos = 0
  let frames = 0
  let members = 0
  let member = false
  backslash = src.indexOf('\\')
  for (;;) {
    if (member) {
      // a member of the innermost object starts at pos
      keyAt[members] = pos
      pos = keyEnd(src, pos)
      if (pos === -1) return false
      const f = frames - 1
      if (members > (frameBase[f] as number)) {
        const order = compareKeys(src, keyAt[members - 1] as number, keyAt[members] as number)
        if (order === 0) return false
        if (order > 0) frameSorted[f] = 0
      }
      members++
      member = false
    }
    // a value starts at pos
    const c = src.charCodeAt(pos)
    if (c === OPEN_BRACE || c === OPEN_BRACKET) {
      const isObject = c === OPEN_BRACE
      if (src.charCodeAt(pos + 1) === (isObject ? CLOSE_BRACE : CLOSE_BRACKET)) pos += 2
      else if (frames === MAX_DEPTH) return false
      else {
        frameIsObject[frames] = isObject ? 1 : 0
        frameOpen[frames] = pos
        frameBase[frames] = members
        frameSorted[frames] = 1
        frames++
        pos++
        member = isObject
        continue
      }
    } else {
      pos = primitiveEnd(src, pos, c, end)
      if (pos === -1) return false
    }
    // a value ended at pos: the containers that end here end
    for (;;) {
      if (frames === 0) return pos === end
      const f = frames - 1
      const next = src.charCodeAt(pos++)
      if (frameIsObject[f] === 1) {
        valueEnd[members - 1] = pos - 1
        if (next === COMMA) {
          member = true
          break
        }
        if (next !== CLOSE_BRACE) return false
        const base = frameBase[f] as number
        if (frameSorted[f] === 0 && !sortMembers(src, bytes, at, frameOpen[f] as number, base, members)) {
          return false
        }
        members = base
      } else if (next === COMMA) break
      else if (next !== CLOSE_BRACKET) return false
      frames--
    }
  }
}

/** The position after the string, number or literal at `pos` (starting with `c`), or -1. */
function primitiveEnd(src: string, pos: number, c: number, end: number): number {
  if (c === QUOTE) return stringEnd(src, pos)
  if (c === 0x74) return src.startsWith('true', pos) ? pos + 4 : -1
  if (c === 0x66) return src.startsWith('false', pos) ? pos + 5 : -1
  if (c === 0x6e) return src.startsWith('null', pos) ? pos + 4 : -1
  return numberEnd(src, pos, end)
}

/**
 * Rewrites the copy of the object at `open` with its members (`[base, top)` on the member stack) in key order,
 * through the scratch space after the copy. False when two keys are equal or their order is unsure.
 */
function sortMembers(
  src: string,
  bytes: Buffer,
  at: number,
  open: number,
  base: number,
  top: number,
): boolean {
  const count = top - base
  for (let i = 0; i < count; i++) {
    const member = base + i
    let j = i
    for (; j > 0; j--) {
      const cmp = compareKeys(src, keyAt[order[j - 1] as number] as number, keyAt[member] as number)
      if (cmp === 0) return false
      if (cmp < 0) break
      order[j] = order[j - 1] as number
    }
    order[j] = member
  }
  // the members' copies go to the scratch space, where source position p is at `scratch + p`
  const inner = at + open + 1
  const scratch = at + src.length - (open + 1)
  bytes.copyWithin(at + src.length, inner, at + (valueEnd[top - 1] as number))
  let to = inner
  for (let i = 0; i < count;) {
    // members still in order in the source are copied together, with the commas between them
    const first = order[i] as number
    let last = first
    while (++i < count && order[i] === last + 1) last++
    if (to > inner) bytes[to++] = COMMA
    const from = keyAt[first] as number
    const until = valueEnd[last] as number
    bytes.copyWithin(to, scratch + from, scratch + until)
    to += until - from
  }
  return true
}

/** The position after a key at `pos` and its colon, or -1 for a key with escapes, `__proto__` or a leading digit. */
function keyEnd(src: string, pos: number): number {
  const close = src.indexOf('"', pos + 1)
  if (src.charCodeAt(pos) !== QUOTE || close === -1 || src.charCodeAt(close + 1) !== COLON) return -1
  if (backslash !== -1 && backslash < close) return -1
  const first = src.charCodeAt(pos + 1)
  if (first >= ZERO && first <= NINE) return -1
  if (close - pos === 10 && src.startsWith('__proto__', pos + 1)) return -1
  return close + 2
}

/** The position after a string at `pos`, or -1 when it is cut off or has an escape JSON.stringify avoids. */
function stringEnd(src: string, pos: number): number {
  let close = src.indexOf('"', pos + 1)
  while (backslash !== -1 && backslash < close) {
    // ", \, b, f, n, r, t: the escapes JSON.stringify writes besides \u
    const escaped = src.charCodeAt(backslash + 1)
    if (
      escaped !== QUOTE &&
      escaped !== BACKSLASH &&
      escaped !== 0x62 &&
      escaped !== 0x66 &&
      escaped !== 0x6e &&
      escaped !== 0x72 &&
      escaped !== 0x74
    ) {
      return -1
    }
    const after = backslash + 2
    if (close < after) close = src.indexOf('"', after)
    backslash = src.indexOf('\\', after)
  }
  return close === -1 ? -1 : close + 1
}

/** The position after a number at `pos`, or -1 unless it is written the way JSON.stringify writes it. */
function numberEnd(src: string, pos: number, end: number): number {
  const first = src.charCodeAt(pos) === MINUS ? pos + 1 : pos
  let i = digitsEnd(src, first)
  const whole = i - first
  const dot = src.charCodeAt(i) === DOT
  let fraction = 0
  let zeros = 0
  if (dot) {
    const digits = i + 1
    while (src.charCodeAt(i + 1 + zeros) === ZERO) zeros++
    i = digitsEnd(src, digits)
    fraction = i - digits
  }
  let plain = true
  for (; i < end; i++) {
    const c = src.charCodeAt(i)
    if (!((c >= ZERO && c <= NINE) || c === DOT || c === 0x65 || c === 0x45 || c === 0x2b || c === MINUS))
      break
    plain = false
  }
  // Written without an exponent, up to 15 significant digits are the shortest that read back as the same number
  // (any two such decimals read as different doubles), so JSON.stringify writes them as they are: but for leading
  // or trailing zeros, -0, and below 1e-6, where it switches to an exponent.
  const leadingZero = src.charCodeAt(first) === ZERO
  if (plain && whole > 0 && (whole === 1 || !leadingZero)) {
    if (!dot && whole <= 15) return !leadingZero || first === pos ? i : -1
    const significant = leadingZero ? fraction - zeros : whole + fraction
    if (fraction > 0 && src.charCodeAt(i - 1) !== ZERO && significant <= 15 && (!leadingZero || zeros <= 5))
      return i
  }
  const written = src.slice(pos, i)
  return String(Number(written)) === written ? i : -1
}

function digitsEnd(src: string, pos: number): number {
  let i = pos
  for (let c = src.charCodeAt(i); c >= ZERO && c <= NINE; c = src.charCodeAt(++i));
  return i
}

/**
 * Orders two keys (at their opening quotes, checked by keyEnd) the way Array#sort does, or 0 when they are equal or
 * their order is unsure: UTF-8 bytes sort as code points, but UTF-16 puts U+10000 and up (UTF-8 lead byte F0–F4)
 * before U+E000–U+FFFF (EE, EF).
 */
function compareKeys(src: string, a: number, b: number): number {
  for (let i = 1; ; i++) {
    const x = src.charCodeAt(a + i)
    const y = src.charCodeAt(b + i)
    if (x === y) {
      if (x === QUOTE) return 0
      continue
    }
    if (x === QUOTE) return -1
    if (y === QUOTE) return 1
    if ((x >= 0xf0 && y >= 0xee && y < 0xf0) || (y >= 0xf0 && x >= 0xee && x < 0xf0)) return 0
    return x - y
  }
}
