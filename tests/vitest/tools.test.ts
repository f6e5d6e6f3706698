import { describe, expect, test } from 'vitest'
import '../../src/vitest/index.ts'
import { cancelled, failureOf } from './helpers.ts'

describe('toCallTool', () => {
  test('passes when the tool was called, and with arguments when a call includes them', () => {
    expect(cancelled).toCallTool('cancel_subscription')
    expect(cancelled).toCallTool('cancel_subscription', { reason: { code: 'too-expensive' } })
    expect(cancelled).not.toCallTool('refund_payment')
  })

  test('fails naming the tool, every call with its arguments, the output and the reason', async () => {
    expect(
      await failureOf(() => {
        expect(cancelled).toCallTool('refund_payment')
      }),
    ).toMatchInlineSnapshot(`
      {
        "actual": [
          "lookup_user",
          "cancel_subscription",
        ],
        "expected": [
          "lookup_user",
          "cancel_subscription",
          "refund_payment",
        ],
        "message": "expect(received).toCallTool(expected)

      Expected: a call to \`refund_payment\`
      Tool calls (2):
        1. lookup_user({"user_id":"u-42"})
        2. cancel_subscription({"user_id":"u-42","reason":{"code":"too-expensive","note":"asked twice"}})
      Output: "The subscription of u-42 is cancelled; access ends with the billing period."

      Reason: expected tool \`refund_payment\`, agent called \`lookup_user\`, \`cancel_subscription\`",
      }
    `)
  })

  test('fails on arguments with a diff of the expected keys only', async () => {
    expect(
      await failureOf(() => {
        expect(cancelled).toCallTool('cancel_subscription', { user_id: 'u-7' })
      }),
    ).toMatchInlineSnapshot(`
      {
        "actual": {
          "user_id": "u-42",
        },
        "expected": {
          "user_id": "u-7",
        },
        "message": "expect(received).toCallTool(expected)

      Expected: a call to \`cancel_subscription\` with arguments including {"user_id":"u-7"}
      Tool calls (2):
        1. lookup_user({"user_id":"u-42"})
        2. cancel_subscription({"user_id":"u-42","reason":{"code":"too-expensive","note":"asked twice"}})
      Output: "The subscription of u-42 is cancelled; access ends with the billing period."

      Reason: expected \`cancel_subscription\` args to include {"user_id":"u-7"}, got {"user_id":"u-42","reason":{"code":"too-expensive","note":"asked twice"}} (\`user_id\` is "u-42")",
      }
    `)
  })

  test('.not fails when the tool was called, without a diff', async () => {
    expect(
      await failureOf(() => {
        expect(cancelled).not.toCallTool('lookup_user')
      }),
    ).toMatchInlineSnapshot(`
      {
        "message": "expect(received).not.toCallTool(expected)

      Expected: no call to \`lookup_user\`
      Tool calls (2):
        1. lookup_user({"user_id":"u-42"})
        2. cancel_subscription({"user_id":"u-42","reason":{"code":"too-expensive","note":"asked twice"}})
      Output: "The subscription of u-42 is cancelled; access ends with the billing period."

      Reason: agent called \`lookup_user\`",
      }
    `)
  })
})

describe('toHaveToolArgs', () => {
  test('passes when some call of the tool includes the arguments (deep subset)', () => {
    expect(cancelled).toHaveToolArgs('cancel_subscription', {
      user_id: 'u-42',
      reason: { note: 'asked twice' },
    })
    expect(cancelled).not.toHaveToolArgs('cancel_subscription', { user_id: 'u-7' })
  })

  test('fails with a diff of the nested keys it names', async () => {
    expect(
      await failureOf(() => {
        expect(cancelled).toHaveToolArgs('cancel_subscription', { reason: { code: 'moving' } })
      }),
    ).toMatchInlineSnapshot(`
      {
        "actual": {
          "reason": {
            "code": "too-expensive",
          },
        },
        "expected": {
          "reason": {
            "code": "moving",
          },
        },
        "message": "expect(received).toHaveToolArgs(expected)

      Expected: a call to \`cancel_subscription\` with arguments including {"reason":{"code":"moving"}}
      Tool calls (2):
        1. lookup_user({"user_id":"u-42"})
        2. cancel_subscription({"user_id":"u-42","reason":{"code":"too-expensive","note":"asked twice"}})
      Output: "The subscription of u-42 is cancelled; access ends with the billing period."

      Reason: expected \`cancel_subscription\` args to include {"reason":{"code":"moving"}}, got {"user_id":"u-42","reason":{"code":"too-expensive","note":"asked twice"}} (\`reason.code\` is "too-expensive")",
      }
    `)
  })

  test('fails when the tool was never called, diffing the names', async () => {
    expect(
      await failureOf(() => {
        expect(cancelled).toHaveToolArgs('refund_payment', { order_id: 'o-7' })
      }),
    ).toMatchInlineSnapshot(`
      {
        "actual": [
          "lookup_user",
          "cancel_subscription",
        ],
        "expected": [
          "refund_payment",
        ],
        "message": "expect(received).toHaveToolArgs(expected)

      Expected: a call to \`refund_payment\` with arguments including {"order_id":"o-7"}
      Tool calls (2):
        1. lookup_user({"user_id":"u-42"})
        2. cancel_subscription({"user_id":"u-42","reason":{"code":"too-expensive","note":"asked twice"}})
      Output: "The subscription of u-42 is cancelled; access ends with the billing period."

      Reason: expected a call to \`refund_payment\`, agent called \`lookup_user\`, \`cancel_subscription\`",
      }
    `)
  })

  test('.not fails when a call includes the arguments', async () => {
    expect(
      await failureOf(() => {
        expect(cancelled).not.toHaveToolArgs('lookup_user', { user_id: 'u-42' })
      }),
    ).toMatchInlineSnapshot(`
      {
        "message": "expect(received).not.toHaveToolArgs(expected)

      Expected: no call to \`lookup_user\` with arguments including {"user_id":"u-42"}
      Tool calls (2):
        1. lookup_user({"user_id":"u-42"})
        2. cancel_subscription({"user_id":"u-42","reason":{"code":"too-expensive","note":"asked twice"}})
      Output: "The subscription of u-42 is cancelled; access ends with the billing period."

      Reason: arguments of \`lookup_user\` include the expected values",
      }
    `)
  })
})

describe('toCallTools', () => {
  test('checks the order modes of the trajectory check, in-order by default', () => {
    expect(cancelled).toCallTools(['lookup_user', 'cancel_subscription'])
    expect(cancelled).toCallTools(['cancel_subscription'])
    expect(cancelled).not.toCallTools(['cancel_subscription', 'lookup_user'])
    expect(cancelled).toCallTools(['lookup_user', 'cancel_subscription'], { order: 'strict' })
    expect(cancelled).not.toCallTools(['cancel_subscription'], { order: 'strict' })
    expect(cancelled).toCallTools(['cancel_subscription', 'lookup_user'], { order: 'unordered' })
    expect(cancelled).not.toCallTools(['cancel_subscription'], { order: 'unordered' })
  })

  test('matches step arguments under the argument mode', () => {
    expect(cancelled).toCallTools(['lookup_user', { tool: 'cancel_subscription', args: { user_id: 'u-42' } }])
    expect(cancelled).not.toCallTools([{ tool: 'cancel_subscription', args: { user_id: 'u-42' } }], {
      argsMode: 'exact',
    })
  })

  test('fails on the order with a diff of the tool names', async () => {
    expect(
      await failureOf(() => {
        expect(cancelled).toCallTools(['cancel_subscription', 'lookup_user'])
      }),
    ).toMatchInlineSnapshot(`
      {
        "actual": [
          "lookup_user",
          "cancel_subscription",
        ],
        "expected": [
          "cancel_subscription",
          "lookup_user",
        ],
        "message": "expect(received).toCallTools(expected)

      Expected: calls to \`cancel_subscription\` → \`lookup_user\` in this order (other calls allowed between)
      Tool calls (2):
        1. lookup_user({"user_id":"u-42"})
        2. cancel_subscription({"user_id":"u-42","reason":{"code":"too-expensive","note":"asked twice"}})
      Output: "The subscription of u-42 is cancelled; access ends with the billing period."

      Reason: expected in-order trajectory \`cancel_subscription\` → \`lookup_user\`, agent called \`lookup_user\` → \`cancel_subscription\` (1/2 steps matched, score 0.50)",
      }
    `)
  })

  test('fails strict mode on an extra call', async () => {
    expect(
      await failureOf(() => {
        expect(cancelled).toCallTools(['cancel_subscription'], { order: 'strict' })
      }),
    ).toMatchInlineSnapshot(`
      {
        "actual": [
          "lookup_user",
          "cancel_subscription",
        ],
        "expected": [
          "cancel_subscription",
        ],
        "message": "expect(received).toCallTools(expected)

      Expected: exactly the calls \`cancel_subscription\`, in this order
      Tool calls (2):
        1. lookup_user({"user_id":"u-42"})
        2. cancel_subscription({"user_id":"u-42","reason":{"code":"too-expensive","note":"asked twice"}})
      Output: "The subscription of u-42 is cancelled; access ends with the billing period."

      Reason: expected strict trajectory \`cancel_subscription\`, agent called \`lookup_user\` → \`cancel_subscription\` (1/1 steps matched, score 0.50)",
      }
    `)
  })

  test('fails on step arguments with a diff of calls and steps', async () => {
    expect(
      await failureOf(() => {
        expect(cancelled).toCallTools([
          'lookup_user',
          { tool: 'cancel_subscription', args: { user_id: 'u-7' } },
        ])
      }),
    ).toMatchInlineSnapshot(`
      {
        "actual": [
          {
            "tool": "lookup_user",
          },
          {
            "args": {
              "user_id": "u-42",
            },
            "tool": "cancel_subscription",
          },
        ],
        "expected": [
          {
            "tool": "lookup_user",
          },
          {
            "args": {
              "user_id": "u-7",
            },
            "tool": "cancel_subscription",
          },
        ],
        "message": "expect(received).toCallTools(expected)

      Expected: calls to \`lookup_user\` → \`cancel_subscription\` in this order (other calls allowed between)
      Tool calls (2):
        1. lookup_user({"user_id":"u-42"})
        2. cancel_subscription({"user_id":"u-42","reason":{"code":"too-expensive","note":"asked twice"}})
      Output: "The subscription of u-42 is cancelled; access ends with the billing period."

      Reason: expected in-order trajectory \`lookup_user\` → \`cancel_subscription\`, agent called \`lookup_user\` → \`cancel_subscription\` (1/2 steps matched, score 0.50); the tool names match but arguments differ: \`cancel_subscription\` expected {"user_id":"u-7"}, got {"user_id":"u-42","reason":{"code":"too-expensive","note":"asked twice"}}",
      }
    `)
  })

  test('.not fails when the calls match', async () => {
    expect(
      await failureOf(() => {
        expect(cancelled).not.toCallTools(['lookup_user', 'cancel_subscription'], { order: 'unordered' })
      }),
    ).toMatchInlineSnapshot(`
      {
        "message": "expect(received).not.toCallTools(expected)

      Expected: not exactly the calls \`lookup_user\`, \`cancel_subscription\`, in any order
      Tool calls (2):
        1. lookup_user({"user_id":"u-42"})
        2. cancel_subscription({"user_id":"u-42","reason":{"code":"too-expensive","note":"asked twice"}})
      Output: "The subscription of u-42 is cancelled; access ends with the billing period."

      Reason: agent called \`lookup_user\` → \`cancel_subscription\`, matching the unordered trajectory \`lookup_user\` → \`cancel_subscription\` (2/2 steps matched, score 1.00)",
      }
    `)
  })

  test('rejects invalid steps with the check it validates them as', async () => {
    expect(
      await failureOf(() => {
        expect(cancelled).toCallTools([''])
      }),
    ).toMatchInlineSnapshot(`
      {
        "message": "\`toCallTools\` got invalid arguments (checked as \`trajectory\`):
      ✖ Too small: expected string to have >=1 characters
        → at steps[0]",
      }
    `)
  })
})

describe('asymmetric use', () => {
  test('the synchronous matchers work inside toEqual', () => {
    expect({ run: cancelled }).toEqual({ run: expect.toCallTool('lookup_user') })
    expect([cancelled]).toEqual([expect.toCallTools(['lookup_user', 'cancel_subscription'])])
    expect({ run: cancelled }).not.toEqual({ run: expect.toCallTool('refund_payment') })
  })
})
