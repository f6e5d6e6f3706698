import { describe, expect, test } from 'vitest'
import { fastCase } from '../../src/cases/fast-case.ts'
import { fastHeader } from '../../src/cases/fast-header.ts'
import { loadSuite } from '../../src/cases/load.ts'
import { caseFileHeaderSchema, caseSchema } from '../../src/cases/schema.ts'
import { scratchFile } from './helpers.ts'

/** what the schema gives, or undefined when it rejects the value */
function parsed(schema: { safeParse(value: unknown): { success: boolean; data?: unknown } }, value: unknown) {
  const result = schema.safeParse(structuredClone(value))
  return result.success ? result.data : undefined
}

const entries: unknown[] = [
  { id: 'a', input: 'hi', expect: { contains: 'hi' } },
  { id: 'a', input: 'hi', expect: { custom: './checks.ts#ok', contains: 'hi', min_length: 2 } },
  { id: 'a', input: 'hi', vars: { who: 'x' }, tags: ['t'], weight: 2, skip: 'later', only: true, trials: 3 },
  { id: 'a', description: 'd', input: 'hi', timeout_ms: 100, expect: { json: true, no_pii: true } },
  { id: 'a', input: 'hi', expect: { output_regex: '(broken' } },
  { id: 'a', input: 'hi', expect: { min_length: -1 } },
  { id: 'a', input: 'hi', expect: { contains: '' } },
  { id: 'a', input: 'hi', expect: { contans: 'hi' } },
  { id: 'a', input: 'hi', tags: [''] },
  { id: '', input: 'hi' },
  { id: 'a', input: 'hi', weight: -1 },
  { id: 'a', input: 'hi', trials: 1.5 },
  { id: 'a', input: 'hi', skip: '' },
  { id: 'a', input: 'hi', extra: 1 },
  { id: 'a', input: [{ role: 'user', content: 'hi' }] },
  { id: 'a', input: 'hi', assert: [{ kind: 'json' }] },
  { id: 'a', input: 'hi', expect: { tools: ['a', 'b'] } },
]

const headers: unknown[] = [
  { suite: 's', target: { function: './echo.mjs#echo' }, cases: [{}] },
  { $schema: 'x', suite: 's', description: 'd', target: { agent: './a.ts' }, model: 'local', cases: [1] },
  { suite: 's', target: { command: 'cat' }, trials: 2, timeout_ms: 10, cases: [1] },
  {
    suite: 's',
    target: { command: 'cat' },
    defaults: { expect: { contains: 'x' }, tags: ['t'], trials: 2 },
    cases: [1],
  },
  { suite: 's', target: { function: './echo.mjs#1bad' }, cases: [1] },
  { suite: 's', target: { function: './a.mjs', agent: './b.ts' }, cases: [1] },
  { suite: 's', target: { http: { url: 'http://x' } }, cases: [1] },
  { suite: 's', target: { command: 'cat' }, cases: [] },
  { suite: 's', target: { command: 'cat' }, judge: { model: 'local' }, cases: [1] },
  { suite: 's', target: { command: 'cat' }, defaults: { assert: [{ kind: 'json' }] }, cases: [1] },
  { suite: '', target: { command: 'cat' }, cases: [1] },
]

describe('the fast paths', () => {
  test.each(entries.map((entry) => [JSON.stringify(entry), entry]))(
    'fastCase gives what caseSchema gives, or leaves it to the schema: %s',
    (_, entry) => {
      const fast = fastCase(structuredClone(entry))
      // compared as JSON: the key order matters too, since checks compile in `expect` order
      if (fast !== undefined) expect(JSON.stringify(fast)).toBe(JSON.stringify(parsed(caseSchema, entry)))
    },
  )

  test('fastCase takes the common shapes', () => {
    expect(entries.slice(0, 4).map((entry) => fastCase(structuredClone(entry)) !== undefined)).toEqual([
      true,
      true,
      true,
      true,
    ])
  })

  test.each(headers.map((header) => [JSON.stringify(header), header]))(
    'fastHeader gives what caseFileHeaderSchema gives, or leaves it to the schema: %s',
    (_, header) => {
      const fast = fastHeader(structuredClone(header))
      if (fast === undefined) return
      const { cases: _cases, ...expected } = parsed(caseFileHeaderSchema, header) as Record<string, unknown>
      expect(JSON.stringify(fast)).toBe(JSON.stringify(expected))
    },
  )

  test('fastHeader takes the common shapes', () => {
    expect(headers.slice(0, 4).map((header) => fastHeader(structuredClone(header)) !== undefined)).toEqual([
      true,
      true,
      true,
      true,
    ])
  })
})

test('cases without vars, tags, checks of a kind or with nothing to merge share frozen empties and objects', async () => {
  const suite = await loadSuite(
    scratchFile(
      'shared.json',
      JSON.stringify({
        suite: 'shared',
        target: { command: 'cat' },
        defaults: { expect: { contains: 'hi' } },
        cases: [
          { id: 'a', input: 'hi' },
          { id: 'b', input: 'hi' },
        ],
      }),
    ),
  )
  const [a, b] = suite.cases
  for (const key of ['vars', 'tags', 'assert', 'expect'] as const) {
    expect(a?.[key], key).toBe(b?.[key])
    expect(Object.isFrozen(a?.[key]) || key === 'expect', key).toBe(true)
  }
  expect(a?.expect).toEqual({ contains: 'hi' })
})
