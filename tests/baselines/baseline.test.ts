import fc from 'fast-check'
import { format } from 'prettier'
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, test } from 'vitest'
import {
  baselinePath,
  readBaseline,
  readBaselineIfPresent,
  writeBaseline,
} from '../../src/baselines/baseline.ts'
import { serializeBaseline } from '../../src/baselines/canonical.ts'
import { ConfigError } from '../../src/errors.ts'
import { baselineOf, summary } from './fixtures.ts'

const fixture = join(import.meta.dirname, '../fixtures/baselines/baseline.v1.json')
let dir: string

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'evals-baseline-'))
})

afterEach(() => {
  rmSync(dir, { recursive: true, force: true })
})

function write(name: string, text: string): string {
  const path = join(dir, name)
  writeFileSync(path, text)
  return path
}

describe('readBaseline', () => {
  test('reads the versioned v1 fixture', async () => {
    const baseline = await readBaseline(fixture)
    expect(baseline.suite).toBe('support')
    expect(baseline.cases.map((entry) => [entry.id, entry.passes, entry.trials])).toEqual([
      ['cancel', 3, 3],
      ['greet', 2, 3],
      ['refund', 0, 0],
    ])
  })

  test('writes the v1 fixture back byte for byte', async () => {
    expect(serializeBaseline(await readBaseline(fixture))).toBe(readFileSync(fixture, 'utf8'))
  })

  test('names the file and how to create it when it is missing, and the caller’s other way out', async () => {
    await expect(readBaseline('baselines/support.json')).rejects.toThrow(
      new ConfigError(
        'Baseline file `baselines/support.json` does not exist. Create it with ' +
          '`evals run <case-file> --update-baseline`.',
      ),
    )
    await expect(readBaseline('baselines/support.json', ', or run without it')).rejects.toThrow(
      new ConfigError(
        'Baseline file `baselines/support.json` does not exist. Create it with ' +
          '`evals run <case-file> --update-baseline`, or run without it.',
      ),
    )
  })

  test('names the file when it is not JSON, e.g. empty', async () => {
    const path = write('support.json', '')
    await expect(readBaseline(path)).rejects.toThrow(
      new ConfigError(
        `Baseline file \`${path}\` is not valid JSON (Unexpected end of JSON input). Fix it, or recreate it with ` +
          '`evals run <case-file> --update-baseline`.',
      ),
    )
  })

  test('tells a newer schemaVersion apart from an older one', async () => {
    const newer = write('newer.json', '{"schemaVersion": 2}')
    const older = write('older.json', '{"schemaVersion": 0}')
    await expect(readBaseline(newer)).rejects.toThrow(
      new ConfigError(
        `Baseline file \`${newer}\` has schemaVersion 2, but this version of evals reads schemaVersion 1. ` +
          'To fix it, upgrade evals, or recreate it with `evals run <case-file> --update-baseline`.',
      ),
    )
    await expect(readBaseline(older)).rejects.toThrow(
      new ConfigError(
        `Baseline file \`${older}\` has schemaVersion 0, but this version of evals reads schemaVersion 1. ` +
          'To fix it, recreate it with `evals run <case-file> --update-baseline`.',
      ),
    )
  })

  test('lists every field that does not match the format, with its path', async () => {
    const broken = JSON.parse(readFileSync(fixture, 'utf8')) as {
      cases: Record<string, unknown>[]
      suite?: unknown
    }
    delete broken.suite
    broken.cases[0] = { ...broken.cases[0], passes: 4 }
    broken.cases[1] = { ...broken.cases[1], costUsd: 'free', id: 'cancel' }
    const path = write('broken.json', JSON.stringify(broken))
    await expect(readBaseline(path)).rejects.toThrow(
      new ConfigError(
        `Baseline file \`${path}\` does not match the baseline format:\n` +
          '  suite: Invalid input: expected string, received undefined\n' +
          '  cases[0].passes: must not exceed `trials`\n' +
          '  cases[1].costUsd: Invalid input: expected number, received string\n' +
          'Fix these fields, or recreate it with `evals run <case-file> --update-baseline`.',
      ),
    )
  })

  test('checks passes against trials and duplicate ids once the shape is right', async () => {
    const broken = JSON.parse(readFileSync(fixture, 'utf8')) as { cases: Record<string, unknown>[] }
    broken.cases[0] = { ...broken.cases[0], passes: 4 }
    broken.cases[2] = { ...broken.cases[2], id: 'greet' }
    const path = write('broken.json', JSON.stringify(broken))
    await expect(readBaseline(path)).rejects.toThrow(
      new ConfigError(
        `Baseline file \`${path}\` does not match the baseline format:\n` +
          '  cases[0].passes: must not exceed `trials`\n' +
          '  cases[2].id: duplicate case id "greet"\n' +
          'Fix these fields, or recreate it with `evals run <case-file> --update-baseline`.',
      ),
    )
  })
})

describe('readBaselineIfPresent', () => {
  test('is null for a missing file, for `--baseline-missing ok`', async () => {
    await expect(readBaselineIfPresent(join(dir, 'none.json'))).resolves.toBeNull()
  })

  test('still throws for a corrupt file', async () => {
    const path = write('support.json', '[]')
    await expect(readBaselineIfPresent(path)).rejects.toThrow(ConfigError)
  })
})

describe('writeBaseline', () => {
  const baseline = baselineOf([
    summary('refund', 'fail', { tags: ['critical', 'billing'] }),
    summary('greet', 'pass'),
  ])

  test('writes a file that reads back as the same baseline, creating the directory', async () => {
    const path = join(dir, 'nested', 'support.json')
    await writeBaseline(path, baseline)
    await expect(readBaseline(path)).resolves.toEqual(baseline)
  })

  test('sorts cases by id and tags by name, and leaves no temp file behind', async () => {
    const path = join(dir, 'support.json')
    await writeBaseline(path, baseline)
    const written = JSON.parse(readFileSync(path, 'utf8')) as { cases: { id: string; tags: string[] }[] }
    expect(written.cases.map((entry) => [entry.id, entry.tags])).toEqual([
      ['greet', []],
      ['refund', ['billing', 'critical']],
    ])
    expect(readdirSync(dir)).toEqual(['support.json'])
  })

  test('replaces an existing file', async () => {
    const path = write('support.json', 'old')
    await writeBaseline(path, baseline)
    expect(readFileSync(path, 'utf8')).toBe(serializeBaseline(baseline))
  })

  test('writes JSON that Prettier leaves as it is, so committed baselines pass `prettier --check`', async () => {
    const text = serializeBaseline(baselineOf([summary('a', 'pass', { tags: ['billing', 'critical'] })]))
    expect(text).toContain('"tags": ["billing", "critical"],')
    await expect(format(text, { parser: 'json' })).resolves.toBe(text)
  })

  test('refuses an invalid baseline and leaves the old file intact', async () => {
    const path = write('support.json', 'old')
    const invalid = { ...baseline, cases: [{ ...summary('x', [3, 2]), tags: [] }] }
    await expect(writeBaseline(path, invalid)).rejects.toThrow(
      new ConfigError(
        `Refusing to write an invalid baseline to \`${path}\`:\n  cases[0].passes: must not exceed \`trials\``,
      ),
    )
    expect(readFileSync(path, 'utf8')).toBe('old')
    expect(readdirSync(dir)).toEqual(['support.json'])
  })

  test('same content in any order gives a byte-identical file', () => {
    const entry = fc.record({
      id: fc.string({ minLength: 1, maxLength: 6 }),
      tags: fc.uniqueArray(fc.constantFrom('a', 'b', 'critical', 'z'), { maxLength: 4 }),
      passes: fc.nat(3),
    })
    fc.assert(
      fc.property(
        fc.uniqueArray(entry, { selector: (value) => value.id, maxLength: 12 }),
        fc.nat(),
        (entries, seed) => {
          const cases = entries.map(({ id, tags, passes }) => summary(id, [passes, 3], { tags }))
          const shuffled = [...cases].sort(() =>
            ((seed = (seed * 1103515245 + 12345) >>> 0) & 1) === 0 ? -1 : 1,
          )
          const reordered = shuffled.map((entry) => ({ ...entry, tags: [...entry.tags].reverse() }))
          const hashes = { b: 'h2', a: 'h1' }
          const first = serializeBaseline(baselineOf(cases, { judgeSpecHashes: hashes }))
          const second = serializeBaseline(baselineOf(reordered, { judgeSpecHashes: { a: 'h1', b: 'h2' } }))
          expect(second).toBe(first)
        },
      ),
    )
  })
})

describe('baselinePath', () => {
  test('puts the suite file in the directory, replacing unsafe characters', () => {
    expect(baselinePath('baselines', 'support')).toBe(join('baselines', 'support.json'))
    expect(baselinePath('baselines', 'team/support v2')).toBe(join('baselines', 'team-support-v2.json'))
  })
})
