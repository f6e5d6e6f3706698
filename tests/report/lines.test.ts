import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { expect, test } from 'vitest'
import { forEachLine, RangeReader } from '../../src/report/lines.ts'

function file(content: string | Buffer): string {
  const path = join(mkdtempSync(join(tmpdir(), 'evals-lines-')), 'file.jsonl')
  writeFileSync(path, content)
  return path
}

async function lines(path: string): Promise<{ text: string; offset: number }[]> {
  const out: { text: string; offset: number }[] = []
  await forEachLine(path, (buffer, start, end, offset) => {
    out.push({ text: buffer.toString('utf8', start, end), offset })
  })
  return out
}

test('passes each line with its file offset, a last line without a newline too', async () => {
  expect(await lines(file('a\n\nbc\nd'))).toEqual([
    { text: 'a', offset: 0 },
    { text: '', offset: 2 },
    { text: 'bc', offset: 3 },
    { text: 'd', offset: 6 },
  ])
  expect(await lines(file('a\n'))).toEqual([{ text: 'a', offset: 0 }])
  expect(await lines(file(''))).toEqual([])
})

test('keeps lines whole across chunks, however long', async () => {
  const long = 'é'.repeat(1_500_000)
  const content = ['x'.repeat(1_048_570), long, 'y', long.slice(1), 'z'].join('\n')
  const got = await lines(file(content))
  expect(got.map((line) => line.text.length)).toEqual([1_048_570, 1_500_000, 1, 1_499_999, 1])
  expect(got.map((line) => line.offset)).toEqual([0, 1_048_571, 4_048_572, 4_048_574, 7_048_573])
  expect(got[1]?.text).toBe(long)
})

test('RangeReader.readInto reads a byte range into a buffer, short at the end of the file', async () => {
  const reader = await RangeReader.open(file('0123456789'))
  const buffer = Buffer.alloc(6, 0x2e)
  expect(reader.readInto(buffer, 1, 3, 4)).toBe(4)
  expect(buffer.toString()).toBe('.3456.')
  expect(reader.readInto(buffer, 0, 8, 5)).toBe(2)
  await reader.close()
})
