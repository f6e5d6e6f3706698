import { describe, expect, test } from 'vitest'
import { parseRunFlags } from '../../src/cli/options.ts'

describe('parseRunFlags', () => {
  test('reads patterns and every flag', () => {
    const flags = parseRunFlags([
      'cases/*.yaml',
      'more.yaml',
      '--model',
      'openai:gpt-4.1-mini',
      '--concurrency',
      '8',
      '--tag',
      'billing',
      '--tag',
      'critical',
      '--filter',
      'cancel*',
      '--trials',
      '3',
      '--timeout',
      '5000',
      '--bail',
      '--out',
      'out/',
      '--reporter',
      'json,markdown',
      '--reporter',
      ' ./mine.ts ',
      '--no-color',
    ])
    expect(flags).toEqual({
      patterns: ['cases/*.yaml', 'more.yaml'],
      model: 'openai:gpt-4.1-mini',
      concurrency: 8,
      tags: ['billing', 'critical'],
      filter: 'cancel*',
      trials: 3,
      timeoutMs: 5000,
      bail: true,
      outDir: 'out/',
      reporters: ['json', 'markdown', './mine.ts'],
      updateBaseline: false,
      forceBaseline: false,
      baselineDir: 'baselines',
      updateSnapshots: false,
      baselineMissing: 'error',
      gate: {},
      color: false,
      help: false,
    })
  })

  test('defaults to reports/, colour on, every reporter but markdown; concurrency is left to the run (4)', () => {
    expect(parseRunFlags(['a.yaml'])).not.toHaveProperty('concurrency')
    expect(parseRunFlags(['a.yaml'])).toMatchObject({
      outDir: 'reports',
      reporters: ['console', 'json', 'junit', 'html'],
      bail: false,
      tags: [],
    })
  })

  test('`--reporter` adds markdown and modules to the defaults; a list naming a default reporter replaces them', () => {
    const reporters = (...args: string[]) => parseRunFlags(['a.yaml', ...args]).reporters
    expect(reporters('--reporter', 'markdown')).toEqual(['console', 'json', 'junit', 'html', 'markdown'])
    expect(reporters('--reporter', './mine.ts')).toEqual(['console', 'json', 'junit', 'html', './mine.ts'])
    expect(reporters('--reporter', 'console,markdown')).toEqual(['console', 'markdown'])
    expect(reporters('--reporter', 'json')).toEqual(['json'])
  })

  test('suggests the closest flag for an unknown one', () => {
    expect(() => parseRunFlags(['--tags', 'x'])).toThrow(
      'evals run: unknown option `--tags`. Did you mean `--tag`?',
    )
  })

  test('explains a missing value and a bad number', () => {
    expect(() => parseRunFlags(['--model'])).toThrow('`--model` needs a value')
    expect(() => parseRunFlags(['--concurrency', 'many'])).toThrow(
      'evals run: `--concurrency` must be a positive whole number, got "many".',
    )
  })

  test('takes repeated --redact patterns and explains one that is not a regular expression', () => {
    expect(parseRunFlags(['a.yaml', '--redact', 'ACME-\\d+', '--redact', 'x{3}']).redact).toEqual([
      'ACME-\\d+',
      'x{3}',
    ])
    expect(() => parseRunFlags(['a.yaml', '--redact', 'ACME-('])).toThrow(
      /^evals run: `--redact`: redact pattern `ACME-\(` is not a regular expression \(/,
    )
  })
})
