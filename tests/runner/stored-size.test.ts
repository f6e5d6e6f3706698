import { readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import { readPlan } from '../../src/runner/plan/run-json.ts'
import { resumeRun } from '../../src/runner/resume-run.ts'
import { boundStrings, storedForm } from '../../src/runner/execute/stored-size.ts'
import { canonicalJson } from '../../src/util/canonical-json.ts'
import { runSuite, runSuites } from '../../src/runner/run-suite.ts'
import { caseOf, suiteOf, targetOf, targetsFor, tempDir, transcriptOf } from './helpers.ts'

const MB = 1024 * 1024

/** A target answering with `size` characters, its last words being "the end". */
const hugeTarget = (size: number) =>
  targetOf((input) => {
    const output = `${'x'.repeat(size - 8)} the end`
    return transcriptOf(input, output, { messages: [{ role: 'assistant', content: output }] })
  })

/** The rows of a results.jsonl, as far as these tests read them. */
function rowsOf(file: string): { transcript?: { output: string } }[] {
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as { transcript?: { output: string } })
}

describe('stored output size', () => {
  test('a 20 MB output is checked whole but stored cut to the cap, with a marker, in results and reports', async () => {
    const suite = suiteOf([caseOf('huge', { expect: { ends_with: 'the end', min_length: 20 * MB } })])
    const dir = tempDir()
    const report = await runSuite(suite, {
      outDir: dir,
      runId: 'big',
      targets: targetsFor(suite, hugeTarget(20 * MB)),
      maxStoredChars: 1000,
      snapshots: false,
    })
    // the checks saw the end of the text, far past the cut
    expect(report.counts.passed).toBe(1)
    const [row] = rowsOf(join(dir, 'big', 'results.jsonl'))
    const output = row?.transcript?.output ?? ''
    expect(output.startsWith('x'.repeat(1000))).toBe(true)
    expect(output).toContain('…[evals: stored 1,000 of 20,971,520 characters')
    expect(output).not.toContain('the end')
    // the message holding the same text is cut too: the row is a few kilobytes, not 40 MB
    expect(statSync(join(dir, 'big', 'results.jsonl')).size).toBeLessThan(10_000)
    // and so is what every report is written from
    expect(JSON.stringify(report).length).toBeLessThan(50_000)
  })

  test('a secret across the cut is redacted whole before the cut, never kept in part', async () => {
    const suite = suiteOf([caseOf('secret', { expect: { contains: 'y' } })])
    const dir = tempDir()
    const output = `${'x'.repeat(997)}ACME-123456${'y'.repeat(100)}`
    await runSuite(suite, {
      outDir: dir,
      runId: 'secret',
      targets: targetsFor(
        suite,
        targetOf((input) => transcriptOf(input, output)),
      ),
      maxStoredChars: 1005,
      redact: ['ACME-\\d{6}'],
      snapshots: false,
    })
    const [row] = rowsOf(join(dir, 'secret', 'results.jsonl'))
    expect(row?.transcript?.output).toContain('…[evals: stored 1,005 of')
    expect(row?.transcript?.output).not.toContain('ACME-')
  })

  test('the default cap keeps an ordinary answer whole', async () => {
    const suite = suiteOf([caseOf('small', { expect: { contains: 'the end' } })])
    const dir = tempDir()
    await runSuite(suite, { outDir: dir, runId: 'small', targets: targetsFor(suite, hugeTarget(100_000)) })
    const [row] = rowsOf(join(dir, 'small', 'results.jsonl'))
    expect(row?.transcript?.output).toHaveLength(100_000)
  })

  test('a resumed run stores as much as it began to: --max-stored-chars is saved in run.json', async () => {
    const dir = tempDir()
    const file = join(dir, 'echo.yaml')
    const fns = join(import.meta.dirname, '..', 'e2e', 'fixtures', 'fns.ts')
    const input = `long ${'y'.repeat(400)}`
    const cases = ['a', 'b', 'c'].map(
      (id) => `  - { id: ${id}, input: '${input}', expect: { contains: yyy } }`,
    )
    const lines = ['suite: echo', 'target:', `  function: ${fns}#echo`, 'cases:', ...cases, '']
    writeFileSync(file, lines.join('\n'))
    const { loadSuites } = await import('../../src/cases/load.ts')
    await runSuites(await loadSuites([file]), { outDir: dir, runId: 'cut', maxStoredChars: 50 })
    expect((await readPlan(join(dir, 'cut'), 'test')).maxStoredChars).toBe(50)
    const results = join(dir, 'cut', 'results.jsonl')
    writeFileSync(results, `${readFileSync(results, 'utf8').split('\n')[0] ?? ''}\n`)
    rmSync(join(dir, 'cut', 'summary.json'))

    const resumed = await resumeRun(join(dir, 'cut'), { force: false })
    await runSuites(resumed.suites, resumed.options)
    const rows = rowsOf(results)
    expect(rows).toHaveLength(3)
    for (const row of rows) expect(row.transcript?.output).toMatch(/^.{50}…\[evals: stored 50 of 405 /su)
  })
})

describe('boundStrings', () => {
  test('returns the same object when nothing is long, and copies only the path to a long string', () => {
    const short = { a: 'short', list: ['x', { b: 'y' }], n: 3, nothing: null }
    expect(boundStrings(short, 10)).toBe(short)
    const mixed = { keep: { a: 'ok' }, cut: ['ok', 'a long string'] }
    const bounded = boundStrings(mixed, 6)
    expect(bounded.keep).toBe(mixed.keep)
    expect(bounded.cut[0]).toBe('ok')
    expect(bounded.cut[1]).toMatch(/^a long…\[evals: stored 6 of 13 characters/u)
    expect(mixed.cut[1]).toBe('a long string')
  })

  test('never cuts a surrogate pair in half', () => {
    const bounded = boundStrings('ab😀cd', 3)
    expect(bounded.startsWith('ab…')).toBe(true)
    expect(bounded).toContain('stored 2 of 6 characters')
  })
})

describe('storedForm', () => {
  test('a value whose JSON fits is stored as it is, with that JSON', () => {
    const value = { b: ['short', { c: 'text' }], a: 1 }
    const stored = storedForm(value, canonicalJson(value).length)
    expect(stored.value).toBe(value)
    expect(stored.json).toBe('{"a":1,"b":["short",{"c":"text"}]}')
  })

  test('a longer JSON is bounded string by string, and its JSON is that of the bounded value', () => {
    // longer than the cap as JSON, though no string is: stored as it is
    const many = { words: ['abcd', 'efgh', 'ijkl'] }
    expect(storedForm(many, 6)).toEqual({ value: many, json: canonicalJson(many) })
    expect(storedForm(many, 6).value).toBe(many)
    const long = { output: 'a long string', keep: 'ok' }
    const stored = storedForm(long, 6)
    expect(stored.value).toEqual(boundStrings(long, 6))
    expect(stored.value.output).toMatch(/^a long…\[evals: stored 6 of 13 characters/u)
    expect(stored.json).toBe(canonicalJson(stored.value))
  })
})
