import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import { openReport } from '../../src/report-file/read.ts'
import { createReporters, RENDERERS, REPORTERS } from '../../src/reporters/index.ts'
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

  test('the built-in file formats become one reporter, where the first is listed: they read report.json once', async () => {
    const reporters = await createReporters(['junit', 'console', 'html', 'markdown'])
    expect(reporters.map((reporter) => reporter.constructor.name)).toEqual([
      'FileReporter',
      'ConsoleReporter',
    ])
    expect(await createReporters(['json', 'html'])).toHaveLength(2)
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

  test('formats rendered together in one reading write what each writes alone', async () => {
    const run = await runScenario(
      {
        // a third fail their check, so every format has cases to list
        cases: Array.from({ length: 40 }, (_, index) =>
          caseOf(`c${String(index)}`, { expect: { contains: 'y' } }),
        ),
        answer: (input) => ({
          input,
          messages: [],
          output: input.length % 3 === 0 ? 'x' : 'y <b>&</b>',
          source: 'target',
          toolCalls: [],
          usage: { inputTokens: 1, outputTokens: 2, cacheReadTokens: 0, cacheWriteTokens: 0 },
          costUsd: null,
          latencyMs: 1,
          iterations: 1,
        }),
      },
      ['junit', 'html', 'markdown'],
    )
    // the HTML page's nonce is new each time it is written
    const withoutNonce = (text: string) => text.replace(/nonce(?:=|-)["']?[A-Za-z0-9+/=]+/g, 'nonce')
    for (const [format, load] of Object.entries(RENDERERS)) {
      const renderer = await load()
      const alone = join(run.dir, `alone-${renderer.fileName}`)
      await renderer.render(
        await openReport(join(run.dir, 'report.json'), { validate: false, redact: false }),
        alone,
      )
      const together = readFileSync(join(run.dir, renderer.fileName), 'utf8')
      expect(together.length, format).toBeGreaterThan(500)
      expect(withoutNonce(together), format).toBe(withoutNonce(readFileSync(alone, 'utf8')))
    }
  })
})
