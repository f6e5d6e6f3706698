import { describe, expect, test } from 'vitest'
import { compileEvaluators } from '../../src/cases/compile-evaluators.ts'
import { evaluatorRegistry } from '../../src/evaluators/index.ts'
import { assertCheck, fixturesDir, transcriptOf } from './helpers.ts'

describe('compileEvaluators', () => {
  test('compiles `expect` entries first, then `assert` items, each with its kind as name', () => {
    const evaluators = compileEvaluators(
      {
        expect: { tool: 'refund', contains: 'done' },
        assert: [{ kind: 'json' }, { kind: 'tool', value: 'x', weight: 3 }],
      },
      { baseDir: fixturesDir },
    )
    expect(evaluators.map((evaluator) => [evaluator.name, evaluator.weight])).toEqual([
      ['tool', undefined],
      ['contains', undefined],
      ['json', undefined],
      ['tool', 3],
    ])
  })

  test('`not: true` inverts the verdict and its score and keeps the reason', async () => {
    const transcript = transcriptOf({ output: 'your password is hunter2', calls: ['a', 'x'] })
    expect(await assertCheck({ kind: 'contains', value: 'password', not: true }, transcript)).toEqual({
      pass: false,
      reason: 'expected the opposite: output contains `password`',
    })
    expect(await assertCheck({ kind: 'tool_order', value: ['a', 'b'], not: true }, transcript)).toMatchObject(
      {
        pass: true,
        score: 0.5,
        reason: expect.stringMatching(/^negated: expected in-order trajectory/) as unknown,
      },
    )
  })

  test('rejects an unknown kind with a suggestion and the known kinds', () => {
    expect(() =>
      compileEvaluators({ expect: {}, assert: [{ kind: 'tool_arg' }] }, { baseDir: fixturesDir }),
    ).toThrow(
      `Unknown evaluator kind "tool_arg" at assert[0]. Did you mean \`tool_args\`? Known kinds: ${[...evaluatorRegistry.keys()].join(', ')}.`,
    )
  })

  test('validates options of hand-built cases', () => {
    expect(() =>
      compileEvaluators({ expect: { min_length: -1 }, assert: [] }, { baseDir: fixturesDir }),
    ).toThrow(/^Invalid options at expect\.min_length:\n✖ Too small: expected number to be >=0/)
  })

  test('registers every deterministic check of the issue', () => {
    expect([...evaluatorRegistry.keys()]).toEqual(
      expect.arrayContaining([
        'tool',
        'tools',
        'tool_args',
        'tool_order',
        'trajectory',
        'contains',
        'not_contains',
        'output',
        'output_regex',
        'json',
        'parsed',
        'json_schema',
        'starts_with',
        'ends_with',
        'min_length',
        'max_length',
        'latency_ms_lte',
        'cost_usd_lte',
        'iterations_lte',
        'no_pii',
        'no_injection',
        'custom',
        'equals',
        'icontains',
        'contains_any',
        'contains_all',
        'levenshtein',
        'rouge_n',
        'bleu',
        'is_refusal',
        'javascript',
        'is_valid_tool_call',
        'similar',
      ]),
    )
  })
})
