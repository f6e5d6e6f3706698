import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { expect, test } from 'vitest'
import { readLines } from '../../src/report-file/lines.ts'

function file(content: string | Buffer): string {
  const path = join(mkdtempSync(join(tmpdir(), 'evals-lines-')), 'file.jsonl')
  writeFileSync(path, content)
  return path
}

async function lines(path: string): Promise<{ text: string; offset: number; bytes: number }[]> {
  const out: { text: string; offset: number; bytes: number }[] = []
  for await (const line of readLines(path)) out.push(line)
  return out
}

test('yields each line with its file offset and length in bytes, a last line without a newline too', async () => {
  expect(await lines(file('a\n\nbé\nd'))).toEqual([
    { text: 'a', offset: 0, bytes: 1 },
    { text: '', offset: 2, bytes: 0 },
    { text: 'bé', offset: 3, bytes: 3 },
    { text: 'd', offset: 7, bytes: 1 },
  ])
  expect(await lines(file('a\n'))).toEqual([{ text: 'a', offset: 0, bytes: 1 }])
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

test('measures lines in the bytes of the file, even where they are not valid UTF-8', async () => {
  // a lone continuation byte, a truncated 3-byte character before a newline, CRLF, and a 4-byte character
  const content = Buffer.concat([
    Buffer.from('a\x80b', 'latin1'),
    Buffer.from('\n'),
    Buffer.from([0xe2, 0x82]),
    Buffer.from('\nc\r\n😀\n'),
  ])
  const got = await lines(file(content))
  expect(got).toEqual([
    { text: 'a\uFFFDb', offset: 0, bytes: 3 },
    { text: '\uFFFD', offset: 4, bytes: 2 },
    { text: 'c\r', offset: 7, bytes: 2 },
    { text: '😀', offset: 10, bytes: 4 },
  ])
  // each line's bytes are where the offsets say
  for (const line of got)
    expect(content.subarray(line.offset, line.offset + line.bytes).toString()).toBe(line.text)
})
