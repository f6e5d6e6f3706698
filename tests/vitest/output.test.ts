import { describe, expect, test } from 'vitest'
import { z } from 'zod'
import '../../src/vitest/index.ts'
import { cancelled, failureOf, transcriptOf } from './helpers.ts'

describe('toContainOutput', () => {
  test('passes on text, ignoring case, and on a RegExp', () => {
    expect(cancelled).toContainOutput('CANCELLED')
    expect(cancelled).toContainOutput(/ends with the \w+ period/)
    expect(cancelled).not.toContainOutput('refund')
    expect(cancelled).not.toContainOutput(/^Sorry/)
  })

  test('fails on text with the trimmed output', async () => {
    expect(
      await failureOf(() => {
        expect(cancelled).toContainOutput('refunded')
      }),
    ).toMatchInlineSnapshot(`
      {
        "message": "expect(received).toContainOutput(expected)

      Expected: output containing "refunded" (ignoring case)
      Output: "The subscription of u-42 is cancelled; access ends with the billing period."

      Reason: output does not contain \`refunded\` (ignoring case): "The subscription of u-42 is cancelled; access ends with the billing period."",
      }
    `)
  })

  test('fails on a RegExp', async () => {
    expect(
      await failureOf(() => {
        expect(cancelled).toContainOutput(/refund(ed)?/i)
      }),
    ).toMatchInlineSnapshot(`
      {
        "message": "expect(received).toContainOutput(expected)

      Expected: output matching /refund(ed)?/i
      Output: "The subscription of u-42 is cancelled; access ends with the billing period."

      Reason: output does not match /refund(ed)?/i: "The subscription of u-42 is cancelled; access ends with the billing period."",
      }
    `)
  })

  test('.not fails when the output contains the text', async () => {
    expect(
      await failureOf(() => {
        expect(cancelled).not.toContainOutput('cancelled')
      }),
    ).toMatchInlineSnapshot(`
      {
        "message": "expect(received).not.toContainOutput(expected)

      Expected: output not containing "cancelled" (ignoring case)
      Output: "The subscription of u-42 is cancelled; access ends with the billing period."

      Reason: output contains \`cancelled\`",
      }
    `)
  })

  test('trims a long output to 200 characters on one line', async () => {
    const long = transcriptOf({ output: `${'word '.repeat(30)}\n\n${'more '.repeat(30)}` })
    expect(
      (
        await failureOf(() => {
          expect(long).toContainOutput('absent')
        })
      ).message,
    ).toMatchInlineSnapshot(`
      "expect(received).toContainOutput(expected)

      Expected: output containing "absent" (ignoring case)
      Output: "word word word word word word word word word word word word word word word word word word word word word word word word word word word word word word more more more more more more more more more more…"

      Reason: output does not contain \`absent\` (ignoring case): "word word word word word word word word word word word word word word word word…""
    `)
  })
})

const ticket = z.object({ ticket: z.string(), priority: z.enum(['low', 'normal', 'urgent']) })

describe('toMatchOutputSchema', () => {
  test('validates the structured output, or the output parsed as JSON', () => {
    expect(transcriptOf({ output: 'ok', parsed: { ticket: 'T-1', priority: 'low' } })).toMatchOutputSchema(
      ticket,
    )
    expect(transcriptOf({ output: '{"ticket":"T-1","priority":"urgent"}' })).toMatchOutputSchema(ticket)
    expect(transcriptOf({ output: '{"ticket":"T-1"}' })).not.toMatchOutputSchema(ticket)
  })

  test('fails with one reason per schema issue', async () => {
    const run = transcriptOf({ output: '{"ticket":1,"priority":"high"}' })
    expect(
      await failureOf(() => {
        expect(run).toMatchOutputSchema(ticket)
      }),
    ).toMatchInlineSnapshot(`
      {
        "message": "expect(received).toMatchOutputSchema(expected)

      Expected: structured output matching the schema
      Output: "{\\"ticket\\":1,\\"priority\\":\\"high\\"}"

      Reasons:
        \`ticket\`: Invalid input: expected string, received number
        \`priority\`: Invalid option: expected one of "low"|"normal"|"urgent"",
      }
    `)
  })

  test('fails when there is no structured output and the output is not JSON', async () => {
    expect(
      await failureOf(() => {
        expect(cancelled).toMatchOutputSchema(ticket)
      }),
    ).toMatchInlineSnapshot(`
      {
        "message": "expect(received).toMatchOutputSchema(expected)

      Expected: structured output matching the schema
      Output: "The subscription of u-42 is cancelled; access ends with the billing period."

      Reason: no structured output, and the output holds no JSON value (bare, in a code fence, or in prose)",
      }
    `)
  })

  test('.not fails when the output matches', async () => {
    const run = transcriptOf({ output: '{"ticket":"T-1","priority":"urgent"}' })
    expect(
      await failureOf(() => {
        expect(run).not.toMatchOutputSchema(ticket)
      }),
    ).toMatchInlineSnapshot(`
      {
        "message": "expect(received).not.toMatchOutputSchema(expected)

      Expected: structured output that does not match the schema
      Output: "{\\"ticket\\":\\"T-1\\",\\"priority\\":\\"urgent\\"}"

      Reason: structured output matches the schema",
      }
    `)
  })
})

describe('toStayUnder', () => {
  test('passes within every limit given, inclusive', () => {
    expect(cancelled).toStayUnder({ latencyMs: 1234, costUsd: 0.01, iterations: 3 })
    expect(cancelled).toStayUnder({ iterations: 5 })
    expect(cancelled).not.toStayUnder({ latencyMs: 1000 })
  })

  test('fails with the limits exceeded and a diff of the measured values', async () => {
    expect(
      await failureOf(() => {
        expect(cancelled).toStayUnder({ latencyMs: 1000, costUsd: 0.01, iterations: 2 })
      }),
    ).toMatchInlineSnapshot(`
      {
        "actual": {
          "costUsd": 0.0021,
          "iterations": 3,
          "latencyMs": 1234,
        },
        "expected": {
          "costUsd": 0.01,
          "iterations": 2,
          "latencyMs": 1000,
        },
        "message": "expect(received).toStayUnder(expected)

      Expected: latency ≤ 1000 ms, cost ≤ $0.01, ≤ 2 iterations
      Usage: latency 1234 ms · cost $0.0021 · 3 iterations

      Reasons:
        latency 1234 ms exceeds the limit of 1000 ms
        3 iterations exceed the limit of 2",
      }
    `)
  })

  test('throws on an unknown cost, with or without `.not`: unknown is neither under nor over', async () => {
    const run = transcriptOf({ costUsd: null })
    const message =
      '`cost_usd_lte` needs the cost, and no price is known for the model: set `costUsd` on the result, or drop `cost_usd_lte`.'
    const under = await failureOf(() => {
      expect(run).toStayUnder({ costUsd: 1 })
    })
    const over = await failureOf(() => {
      expect(run).not.toStayUnder({ costUsd: 1 })
    })
    expect([under.message, over.message]).toEqual([message, message])
  })

  test('.not fails when the run stayed within every limit', async () => {
    expect(
      await failureOf(() => {
        expect(cancelled).not.toStayUnder({ latencyMs: 2000, iterations: 3 })
      }),
    ).toMatchInlineSnapshot(`
      {
        "message": "expect(received).not.toStayUnder(expected)

      Expected: a run over at least one of latency ≤ 2000 ms, ≤ 3 iterations
      Usage: latency 1234 ms · cost $0.0021 · 3 iterations

      Reasons:
        latency 1234 ms is within 2000 ms
        3 iterations, within 3",
      }
    `)
  })

  test('needs at least one limit', async () => {
    expect(
      (
        await failureOf(() => {
          expect(cancelled).toStayUnder({})
        })
      ).message,
    ).toMatchInlineSnapshot(
      `"\`toStayUnder\` needs at least one of \`latencyMs\`, \`costUsd\`, \`iterations\`."`,
    )
  })
})

describe('toHaveNoPii', () => {
  const leaky = transcriptOf({ output: 'Write to ada@example.com or call +1 415 555 0100.' })

  test('passes on an output without personal data, or without the kinds named', () => {
    expect(cancelled).toHaveNoPii()
    expect(leaky).toHaveNoPii(['credit_card', 'ssn'])
    expect(leaky).not.toHaveNoPii()
  })

  test('fails naming each piece of personal data, masked', async () => {
    expect(
      await failureOf(() => {
        expect(leaky).toHaveNoPii()
      }),
    ).toMatchInlineSnapshot(`
      {
        "message": "expect(received).toHaveNoPii(expected)

      Expected: output without personal data

      Reason: output contains PII: \`email a***@example.com\`, \`phone …0100\`",
      }
    `)
  })

  test('.not fails when the output has none of the kinds', async () => {
    expect(
      await failureOf(() => {
        expect(cancelled).not.toHaveNoPii(['email'])
      }),
    ).toMatchInlineSnapshot(`
      {
        "message": "expect(received).not.toHaveNoPii(expected)

      Expected: output with \`email\`

      Reason: output contains no email",
      }
    `)
  })
})
