import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import { loadSuite } from '../../src/cases/load.ts'
import { evaluatorRegistry } from '../../src/evaluators/registry.ts'
import { ScriptedProvider, type ScriptedReply } from '../../src/testing/index.ts'
import '../../src/vitest/index.ts'
import { cancelled, failureOf, transcriptOf } from './helpers.ts'

/** A judge reply calling the forced `verdict` tool. */
function verdict(choice: string, reasons = `because ${choice}`): ScriptedReply {
  return { toolCalls: [{ name: 'verdict', args: { reasons, choice } }] }
}

describe('toPassCase', () => {
  const checks = {
    id: 'cancel',
    expect: { tool: 'cancel_subscription', contains: 'cancelled', custom: './fixtures/checks.ts#fewCalls' },
    assert: [{ kind: 'no_pii' }, { kind: 'contains', value: 'refund', not: true }],
  }

  test('passes when every `expect:` and `assert:` check passes; custom checks resolve beside the test file', async () => {
    await expect(cancelled).toPassCase(checks)
    await expect(cancelled).toPassCase({ expect: { tool_order: ['lookup_user', 'cancel_subscription'] } })
  })

  test('fails listing every check with its reason, and diffs the failing ones', async () => {
    const run = transcriptOf({
      output: cancelled.output,
      calls: ['lookup_user', 'lookup_user', 'open_ticket'],
    })
    expect(await failureOf(() => expect(run).toPassCase(checks))).toMatchInlineSnapshot(`
      {
        "actual": [
          "✗ tool",
          "✓ contains",
          "✗ custom",
          "✓ no_pii",
          "✓ not contains",
        ],
        "expected": [
          "✓ tool",
          "✓ contains",
          "✓ custom",
          "✓ no_pii",
          "✓ not contains",
        ],
        "message": "expect(received).toPassCase(expected)

      Expected: every check of case \`cancel\` to pass
      Tool calls (3):
        1. lookup_user({})
        2. lookup_user({})
        3. open_ticket({})
      Output: "The subscription of u-42 is cancelled; access ends with the billing period."

      Reasons:
        2 of 5 checks failed (score 0.60)
        ✗ tool: expected tool \`cancel_subscription\`, agent called \`lookup_user\`, \`open_ticket\`
        ✓ contains: output contains \`cancelled\`
        ✗ custom: 3 tool calls
        ✓ no_pii: output contains no email, phone, ssn, credit_card, ip, zip
        ✓ not contains: negated: output does not contain \`refund\` (ignoring case): "The subscription of u-42 is cancelled; access ends with the billing period."",
      }
    `)
  })

  test('.not fails when every check passes', async () => {
    expect(await failureOf(() => expect(cancelled).not.toPassCase(checks))).toMatchInlineSnapshot(`
      {
        "message": "expect(received).not.toPassCase(expected)

      Expected: some check of case \`cancel\` to fail
      Tool calls (2):
        1. lookup_user({"user_id":"u-42"})
        2. cancel_subscription({"user_id":"u-42","reason":{"code":"too-expensive","note":"asked twice"}})
      Output: "The subscription of u-42 is cancelled; access ends with the billing period."

      Reasons:
        all 5 checks passed (score 1.00)
        ✓ tool: agent called \`cancel_subscription\`
        ✓ contains: output contains \`cancelled\`
        ✓ custom: 2 tool calls
        ✓ no_pii: output contains no email, phone, ssn, credit_card, ip, zip
        ✓ not contains: negated: output does not contain \`refund\` (ignoring case): "The subscription of u-42 is cancelled; access ends with the billing period."",
      }
    `)
  })

  test('a run that errored rejects, with or without .not: an error is not a failure', async () => {
    const errored = transcriptOf({ error: 'provider returned 500' })
    expect((await failureOf(() => expect(errored).toPassCase(checks))).message).toMatchInlineSnapshot(
      `"Case \`cancel\` errored: provider returned 500"`,
    )
    expect((await failureOf(() => expect(errored).not.toPassCase(checks))).message).toMatchInlineSnapshot(
      `"Case \`cancel\` errored: provider returned 500"`,
    )
  })

  test('an unknown check is a ConfigError listing the known kinds', async () => {
    expect(
      (await failureOf(() => expect(cancelled).toPassCase({ expect: { tools_called: ['x'] } }))).message,
    ).toBe(
      `Unknown evaluator kind "tools_called" at expect.tools_called. Known kinds: ${[...evaluatorRegistry.keys()].join(', ')}.`,
    )
  })

  test('runs the judges of a loaded case with the judge given in the options', async () => {
    const suite = await loadSuite(join(import.meta.dirname, 'fixtures', 'support.yaml'))
    const caseDef = [...suite.cases].find((candidate) => candidate.id === 'cancel')!
    const provider = new ScriptedProvider([verdict('9', 'It confirms the cancellation.')])
    await expect(cancelled).toPassCase(caseDef, { judge: { provider } })
    const strict = new ScriptedProvider([verdict('3', 'It never says when access ends.')])
    expect(
      await failureOf(() =>
        expect(transcriptOf({ ...cancelled, output: 'Done.' })).toPassCase(caseDef, {
          judge: { provider: strict },
        }),
      ),
    ).toMatchInlineSnapshot(`
      {
        "actual": [
          "✓ tool",
          "✗ rubric",
        ],
        "expected": [
          "✓ tool",
          "✓ rubric",
        ],
        "message": "expect(received).toPassCase(expected)

      Expected: every check of case \`cancel\` to pass
      Tool calls (2):
        1. lookup_user({"user_id":"u-42"})
        2. cancel_subscription({"user_id":"u-42","reason":{"code":"too-expensive","note":"asked twice"}})
      Output: "Done."

      Reasons:
        1 of 2 checks failed (score 0.65)
        ✓ tool: agent called \`cancel_subscription\`
        ✗ rubric: rubric 3/10 ("3") < 7: It never says when access ends.",
      }
    `)
  })
})

describe('toPassJudge', () => {
  test('passes when the rubric score reaches the threshold', async () => {
    const provider = new ScriptedProvider([verdict('8'), verdict('6')])
    await expect(cancelled).toPassJudge('Confirms the cancellation', { provider })
    await expect(cancelled).toPassJudge('Confirms the cancellation', { provider, threshold: 6 })
    expect(provider.remaining).toBe(0)
  })

  test('sends the run to the judge: the request, the tool calls and the reply', async () => {
    const provider = new ScriptedProvider([verdict('8')])
    await expect(cancelled).toPassJudge('Confirms the cancellation', { provider })
    const prompt = provider.calls[0]?.messages[0]?.content
    expect(prompt).toContain('Please cancel the subscription for user u-42')
    expect(prompt).toContain('cancel_subscription')
    expect(prompt).toContain('The subscription of u-42 is cancelled')
  })

  test('fails with the score, the threshold and the judge reasons', async () => {
    const provider = new ScriptedProvider([verdict('4', 'It does not say when access ends.')])
    expect(await failureOf(() => expect(cancelled).toPassJudge('Says when access ends', { provider })))
      .toMatchInlineSnapshot(`
      {
        "message": "expect(received).toPassJudge(expected)

      Expected: \`rubric\` score ≥ 7 of 10
      Tool calls (2):
        1. lookup_user({"user_id":"u-42"})
        2. cancel_subscription({"user_id":"u-42","reason":{"code":"too-expensive","note":"asked twice"}})
      Output: "The subscription of u-42 is cancelled; access ends with the billing period."

      Reason: rubric 4/10 ("4") < 7: It does not say when access ends.",
      }
    `)
  })

  test('.not fails when the judge passes the run', async () => {
    const provider = new ScriptedProvider([verdict('10', 'Clear and complete.')])
    expect(
      await failureOf(() => expect(cancelled).not.toPassJudge('Confirms the cancellation', { provider })),
    ).toMatchInlineSnapshot(`
      {
        "message": "expect(received).not.toPassJudge(expected)

      Expected: \`rubric\` score < 7 of 10
      Tool calls (2):
        1. lookup_user({"user_id":"u-42"})
        2. cancel_subscription({"user_id":"u-42","reason":{"code":"too-expensive","note":"asked twice"}})
      Output: "The subscription of u-42 is cancelled; access ends with the billing period."

      Reason: rubric 10/10 ("10") ≥ 7: Clear and complete.",
      }
    `)
  })

  test('takes a case-file judge item, with reference and samples from the options', async () => {
    const provider = new ScriptedProvider([verdict('correct'), verdict('correct')])
    await expect(cancelled).toPassJudge(
      { correctness: true },
      { provider, reference: 'The subscription is cancelled.', samples: 2 },
    )
    expect(provider.remaining).toBe(0)
  })

  test('needs a judge model or provider', async () => {
    expect(
      (await failureOf(() => expect(cancelled).toPassJudge('Confirms the cancellation'))).message,
    ).toMatchInlineSnapshot(
      `"\`toPassJudge\` needs a judge model: pass \`{ model: 'openai:gpt-4.1-mini' }\` (or a \`provider\`) as its second argument."`,
    )
  })

  test('names what is wrong with an invalid judge item', async () => {
    const provider = new ScriptedProvider([])
    expect(
      (await failureOf(() => expect(cancelled).toPassJudge({ correctness: true }, { provider }))).message,
    ).toMatchInlineSnapshot(`"\`toPassJudge\` got an invalid judge: \`correctness\` needs \`reference\`"`)
  })
})
