import { describe, expect, test } from 'vitest'
import { SortableLines, sortKeys } from '../../src/report/sort-json.ts'

/** The sorted copy of one line, or undefined when SortableLines leaves the line to the slow path. */
function sorted(line: string | Buffer): string | undefined {
  const bytes = Buffer.from(line)
  const buffer = Buffer.alloc(bytes.length * 3 + 1, 0x21)
  bytes.copy(buffer)
  buffer[bytes.length] = 10
  const at = bytes.length + 1
  if (!new SortableLines(buffer, at).copySorted(0, bytes.length, at)) return undefined
  return buffer.toString('utf8', at, at + bytes.length)
}

const slow = (text: string): string => JSON.stringify(sortKeys(JSON.parse(text)))

/** A value like the ones results hold: nested objects and arrays, unicode, numbers of every kind. */
function randomValue(random: () => number, depth = 0): unknown {
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T
  const kind = depth > 4 ? random() * 4 : random() * 7
  if (kind < 1) return pick([true, false, null])
  if (kind < 2)
    return pick([0, -1, 42, 0.1, 1e-7, 1e21, -2.5e-9, 123456789.125, 2 ** 53, Math.PI * 1000, random()])
  if (kind < 4)
    return pick(['', 'plain', 'quote " and \\ and \n\t\r\b\f', 'héllo “x” 日本 🎉', '\u2028\u007f', 'sk-x'])
  if (kind < 5.5)
    return Array.from({ length: Math.floor(random() * 4) }, () => randomValue(random, depth + 1))
  const keys = [
    'suite',
    'caseId',
    'trial',
    'b',
    'B',
    'a_b',
    '_',
    'ab',
    'a',
    '',
    'é',
    'z',
    'ключ',
    'x y',
    '-1',
    'a.b',
  ]
  const out: Record<string, unknown> = {}
  for (let i = Math.floor(random() * 6); i > 0; i--) out[pick(keys)] = randomValue(random, depth + 1)
  return out
}

function seeded(seed: number): () => number {
  let state = seed
  return () => {
    state = (state * 1103515245 + 12345) % 2 ** 31
    return state / 2 ** 31
  }
}

describe('SortableLines', () => {
  test('sorts keys at every depth, as sortKeys and JSON.stringify do', () => {
    const line = '{"suite":"s","caseId":"c","trial":0,"b":{"z":1,"a":[{"y":true,"x":null}]},"a":[],"c":{}}'
    expect(sorted(line)).toBe(slow(line))
    expect(sorted(line)).toBe(
      '{"a":[],"b":{"a":[{"x":null,"y":true}],"z":1},"c":{},"caseId":"c","suite":"s","trial":0}',
    )
  })

  test('takes whatever JSON.stringify writes, but for keys it cannot order by bytes', () => {
    const random = seeded(7)
    for (let i = 0; i < 3000; i++) {
      const line = JSON.stringify({ n: i, value: randomValue(random) })
      expect(sorted(line)).toBe(slow(line))
    }
  })

  test.each([
    ['whitespace', '{"a": 1}'],
    ['a trailing zero', '{"a":1.0}'],
    ['an exponent JSON.stringify would not write', '{"a":1E5}'],
    ['a non-shortest number', '{"a":0.10000000000000001}'],
    ['minus zero', '{"a":-0}'],
    ['a leading zero', '{"a":01}'],
    ['a \\u escape', '{"a":"\\u0041"}'],
    ['a \\/ escape', '{"a":"\\/"}'],
    ['an escape in a key', '{"a\\"b":1}'],
    ['a repeated key', '{"b":1,"a":2,"b":3}'],
    ['a repeated key in order', '{"a":1,"a":2}'],
    ['an integer-like key', '{"b":1,"10":2}'],
    ['__proto__', '{"__proto__":{}}'],
    ['keys whose UTF-16 and UTF-8 orders differ', '{"\ue000":1,"😀":2}'],
    ['a raw control character', '{"a":"\t"}'],
    ['a cut-off string', '{"a":"b}'],
    ['text after the value', '{"a":1}x'],
    ['a missing value', '{"a":}'],
    ['a trailing comma', '{"a":1,}'],
    ['too deep nesting', `${'['.repeat(300)}${']'.repeat(300)}`],
  ])('leaves text with %s to the slow path', (_, line) => {
    expect(sorted(line)).toBeUndefined()
  })

  test('takes a number exactly when JSON.stringify writes it that way', () => {
    const random = seeded(11)
    const texts = [
      '0',
      '-0',
      '5.',
      '.5',
      '-.5',
      '00.5',
      '0.000001',
      '0.0000001',
      '1e-7',
      '1.0',
      '100',
      '1e21',
    ]
    for (let i = 0; i < 20_000; i++) {
      const x = (random() - 0.5) * 10 ** Math.floor(random() * 40 - 20)
      const digits = 1 + Math.floor(random() * 19)
      texts.push(String(x), x.toPrecision(digits), x.toFixed(digits), x.toExponential(digits - 1))
      texts.push(String(Math.round(x * 1000) / 1000), String(Math.round(x)))
    }
    for (const text of texts) {
      const line = `{"b":${text},"a":1}`
      const canonical = (() => {
        try {
          return String(JSON.parse(text)) === text
        } catch {
          return false
        }
      })()
      expect(sorted(line)).toBe(canonical ? slow(line) : undefined)
    }
  })

  test('leaves invalid UTF-8 to the slow path', () => {
    expect(
      sorted(Buffer.concat([Buffer.from('{"a":"'), Buffer.from([0xff]), Buffer.from('"}')])),
    ).toBeUndefined()
  })

  test('sorts keys that are unicode, empty or punctuation in UTF-16 order', () => {
    const line = '{"é":1,"z":2,"":3,"ключ":4,"B":5,"_":6,"\ud7ff":7,"😀":8,"a😀":9,"a\u00ff":10}'
    expect(sorted(line)).toBe(slow(line))
  })

  test('copies lines from anywhere in the buffer', () => {
    const lines = ['{"b":1,"a":2}', '[{"d":1,"c":2}]', '"x"', '{"a":"é"}']
    const text = `${lines.join('\n')}\n`
    const bytes = Buffer.from(text)
    const buffer = Buffer.alloc(bytes.length * 3)
    bytes.copy(buffer)
    const sortable = new SortableLines(buffer, bytes.length)
    let start = 0
    let at = bytes.length
    for (const line of lines) {
      const length = Buffer.byteLength(line)
      expect(sortable.copySorted(start, start + length, at)).toBe(true)
      expect(buffer.toString('utf8', at, at + length)).toBe(slow(line))
      start += length + 1
      at += length
    }
  })
})
