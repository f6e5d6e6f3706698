import { expect, test } from 'vitest'
import { accepts, evaluatorDefinitions, evaluatorRegistry } from '../../src/evaluators/registry.ts'
import { parseShorthand } from '../../src/evaluators/schemas.ts'

const samples: unknown[] = [
  '',
  'x',
  'refund',
  '^hello \\d+$',
  '(broken',
  './checks.ts#isPolite',
  './checks.ts#1bad',
  'module#',
  0,
  -0,
  1,
  1.5,
  -1,
  Number.NaN,
  Number.POSITIVE_INFINITY,
  2 ** 53,
  true,
  false,
  null,
  ['a'],
  { steps: ['a'] },
]

test.each(evaluatorDefinitions.map((definition) => [definition.kind, definition] as const))(
  '`%s` accepts only values its schemas take unchanged, as complete options',
  (_, definition) => {
    for (const value of samples) {
      if (definition.accepts?.(value) !== true) continue
      const shorthand = definition.shorthand.safeParse(value)
      expect(
        shorthand.success && Object.is(shorthand.data, value),
        `${definition.kind}: ${String(value)}`,
      ).toBe(true)
      expect(parseShorthand(definition, value, 'expect')).toEqual(definition.fromShorthand(value))
    }
  },
)

test('the common shorthand values skip zod', () => {
  const common: Record<string, unknown[]> = {
    tool: ['refund'],
    contains: ['hello'],
    not_contains: ['password'],
    output: ['', 'exact'],
    output_regex: ['^hello \\d+$'],
    json: [true],
    parsed: [42, 'text'],
    starts_with: ['Hi'],
    ends_with: ['.'],
    min_length: [0, 3],
    max_length: [280],
    latency_ms_lte: [1500, 0.5],
    cost_usd_lte: [0.01],
    iterations_lte: [5],
    no_pii: [true],
    no_injection: [true],
    custom: ['./checks.ts#isPolite', 'checks-package'],
  }
  const skipped = evaluatorDefinitions.flatMap((definition) =>
    (common[definition.kind] ?? [])
      .filter((value) => definition.accepts?.(value) !== true)
      .map((value) => `${definition.kind}: ${String(value)}`),
  )
  expect(skipped).toEqual([])
})

test('`accepts(kind, value)` answers as the definition does, whatever it answered for the values before', () => {
  // the answer depends on the kind and the value alone, never on the calls before it
  const sequence: [string, unknown][] = [
    ['output_regex', '^a'],
    ['output_regex', '^a'],
    ['output_regex', '(broken'],
    ['output_regex', '^a'],
    ['contains', '^a'],
    ['contains', ''],
    ['min_length', 3],
    ['min_length', -0],
    ['min_length', 3.5],
    ['json', true],
    ['json', false],
    ['no_such_kind', 'x'],
  ]
  for (const [kind, value] of [...sequence, ...sequence.reverse()]) {
    const expected = evaluatorRegistry.get(kind)?.accepts?.(value) === true
    expect(accepts(kind, value), `${kind}: ${String(value)}`).toBe(expected)
  }
})
