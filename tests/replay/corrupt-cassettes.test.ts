import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, expect, test } from 'vitest'
import { Cassette } from '../../src/replay/cassette.ts'
import { createRedactor } from '../../src/util/redact.ts'
import { agentSuite, caseOf, runInto, tempDir } from './helpers.ts'

const savedKey = process.env.OPENAI_API_KEY
afterEach(() => {
  process.env.OPENAI_API_KEY = savedKey
})

const entry = {
  v: 1,
  key: 'k1',
  suite: 's',
  caseId: 'c',
  trial: 0,
  seq: 0,
  recordedAt: '2026-11-26T00:00:00.000Z',
  kind: 'model',
  providerId: 'openai:gpt-test',
  request: {},
  completion: {
    message: { text: 'hi', toolCalls: [] },
    usage: { inputTokens: 1, outputTokens: 1 },
    finishReason: 'stop',
    model: 'gpt-test',
  },
}

/** What opening a cassette holding `lines` says, or 'loaded'. */
async function openWith(lines: string[]): Promise<string> {
  const file = join(tempDir(), 'c.jsonl')
  writeFileSync(file, lines.map((line) => `${line}\n`).join(''))
  return Cassette.open(file, 'replay', createRedactor({ patterns: [] })).then(
    () => 'loaded',
    (error: unknown) => (error as Error).message,
  )
}

test.each([
  [
    'a later format version',
    { ...entry, v: 99 },
    /c\.jsonl:2 is a version 99 entry; this release of agent-evals reads version 1\./,
  ],
  ['no version', { ...entry, v: undefined }, /c\.jsonl:2 has no format version `v`/],
  [
    'a completion without its message',
    { ...entry, completion: { ...entry.completion, message: undefined } },
    /c\.jsonl:2 is not a cassette entry: `completion\.message`/,
  ],
  [
    'a tool call without a name',
    { ...entry, completion: { ...entry.completion, message: { text: '', toolCalls: [{ id: 'x' }] } } },
    /`completion\.message\.toolCalls\.0\.name`/,
  ],
  ['an unknown kind', { ...entry, kind: 'embedding' }, /c\.jsonl:2 is not a cassette entry: `kind`/],
  ['a string trial', { ...entry, trial: '0' }, /`trial`/],
  ['a JSON array', [entry], /c\.jsonl:2 is not a cassette entry \(a JSON object on one line\)/],
])('a cassette line with %s is refused at its line, with what to do', async (_, bad, message) => {
  const said = await openWith([JSON.stringify(entry), JSON.stringify(bad)])
  expect(said).toMatch(message)
  expect(said).toMatch(/Delete the line, or re-record the suite with `--record`\.$/)
})

test('a well-formed cassette loads', async () => {
  expect(await openWith([JSON.stringify(entry), JSON.stringify({ ...entry, key: 'k2', seq: 1 })])).toBe(
    'loaded',
  )
})

test('replaying with an empty cassette and no API key says the cassette is empty, not only that the key is missing', async () => {
  const dir = tempDir()
  mkdirSync(join(dir, '__cassettes__'))
  writeFileSync(join(dir, '__cassettes__', 'replayed.jsonl'), '')
  delete process.env.OPENAI_API_KEY
  const refused: unknown = await runInto(dir, agentSuite(dir, [caseOf('echo', { input: 'Hi' })]), {
    cassettes: 'replay',
  }).catch((error: unknown) => error)
  expect((refused as Error).message).toMatch(
    /No API key for `openai:gpt-test`: set the OPENAI_API_KEY environment variable\. `--replay` cannot stand in for it: no cassette holds a call to `openai:gpt-test` — \S*__cassettes__\/replayed\.jsonl \(empty\)\. Record them first with `--record`/,
  )
})
