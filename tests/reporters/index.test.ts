import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import { createReporters, REPORTERS } from '../../src/reporters/index.ts'
import { seen } from './fixtures/object-reporter.ts'
import { caseOf, runScenario } from './helpers.ts'

const fixtures = join(import.meta.dirname, 'fixtures')

describe('createReporters', () => {
  test('knows console, json, junit, html and markdown', () => {
    expect(Object.keys(REPORTERS)).toEqual(['console', 'json', 'junit', 'html', 'markdown'])
  })

  test('suggests the closest name for an unknown reporter', async () => {
    await expect(createReporters(['htm'])).rejects.toThrow(
      'Unknown reporter `htm`. Did you mean `html`? Known reporters: console, json, junit, html, markdown; or give a module path, e.g. `./my-reporter.ts`.',
    )
  })

  test('loads user reporters exported as an object, a class or a factory', async () => {
    seen().length = 0
    const reporters = await createReporters(
      ['./object-reporter.ts', './class-reporter.ts', './factory-reporter.ts'],
      { baseDir: fixtures },
    )
    expect(reporters).toHaveLength(3)
    for (const reporter of reporters)
      await reporter.onCaseEnd?.({
        suite: 's',
        caseId: 'a',
        trial: 0,
        tags: [],
        weight: 1,
        durationMs: 0,
        status: 'skipped',
        reason: 'r',
      })
    expect(seen()).toEqual(['object:a', 'class:a'])
    expect(typeof reporters[2]?.onRunEnd).toBe('function')
  })

  test('says what a reporter module must export', async () => {
    await expect(createReporters(['./not-a-reporter.ts'], { baseDir: fixtures })).rejects.toThrow(
      '--reporter ./not-a-reporter.ts: the module must default-export a Reporter (an object with onRunStart, onCaseEnd or onRunEnd), a Reporter class, or a function that returns one.',
    )
  })

  test('any file format also writes report.json, the source the others are rendered from', async () => {
    const run = await runScenario(
      {
        cases: [caseOf('a')],
        answer: (input) => ({
          input,
          messages: [],
          output: 'x',
          source: 'target',
          toolCalls: [],
          usage: { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0 },
          costUsd: null,
          latencyMs: 1,
          iterations: 1,
        }),
      },
      ['markdown'],
    )
    expect(existsSync(join(run.dir, 'report.json'))).toBe(true)
    expect(existsSync(join(run.dir, 'report.md'))).toBe(true)
    expect(existsSync(join(run.dir, 'report.html'))).toBe(false)
  })
})
