import { describe, expect, test } from 'vitest'
import { z } from 'zod'
import { Agent } from '../../src/engine/agent.ts'
import { wrapFunction } from '../../src/targets/function.ts'
import { ScriptedProvider } from '../../src/testing/index.ts'
import { tool } from '../../src/tools/tool.ts'
import '../../src/vitest/index.ts'
import { failureOf } from './helpers.ts'

const lookupUser = tool({
  name: 'lookup_user',
  description: 'Look up a user account by id',
  parameters: z.object({ user_id: z.string() }),
  execute: ({ user_id }) => `User ${user_id} is on the Pro plan`,
})

describe('what the matchers accept', () => {
  test("an Agent's result, with its input taken from the conversation", async () => {
    const agent = new Agent({
      model: new ScriptedProvider([
        { toolCalls: [{ name: 'lookup_user', args: { user_id: 'u-42' } }] },
        'User u-42 is on the Pro plan.',
      ]),
      tools: [lookupUser],
    })
    const result = await agent.run('Look up user u-42')
    expect(result).toCallTool('lookup_user', { user_id: 'u-42' })
    expect(result).toContainOutput('pro plan')
    expect(result).toStayUnder({ iterations: 2 })
    const judge = new ScriptedProvider([
      { toolCalls: [{ name: 'verdict', args: { reasons: 'ok', choice: '9' } }] },
    ])
    await expect(result).toPassJudge('Answers about the user', { provider: judge })
    expect(judge.calls[0]?.messages[0]?.content).toContain('Look up user u-42')
  })

  test("a target's Transcript", async () => {
    const target = wrapFunction(
      'function:answer',
      () => ({ output: '{"ok":true}', parsed: { ok: true }, toolCalls: [] }),
      'answer',
    )
    const transcript = await target.run('hi', { signal: new AbortController().signal, caseId: 'c', trial: 0 })
    expect(transcript).toMatchOutputSchema(z.object({ ok: z.literal(true) }))
    expect(transcript).toCallTools([], { order: 'strict' })
  })

  test('a transcript whose tool calls are unknown neither passes nor fails a tool matcher: it throws', async () => {
    const target = wrapFunction('function:answer', () => 'no tools, as far as anyone knows', 'answer')
    const transcript = await target.run('hi', { signal: new AbortController().signal, caseId: 'c', trial: 0 })
    expect(() => {
      expect(transcript).toCallTools([], { order: 'strict' })
    }).toThrow('`trajectory` needs the tool calls, which this target does not report')
    expect(() => {
      expect(transcript).not.toCallTool('lookup')
    }).toThrow('`tool` needs the tool calls, which this target does not report')
  })

  test('rejects anything else with a TypeError naming the matcher', async () => {
    expect(
      (
        await failureOf(() => {
          expect(42).toCallTool('x')
        })
      ).message,
    ).toMatchInlineSnapshot(
      `"\`toCallTool\` expects an AgentResult, a Transcript or an object with an \`output\` string; received number."`,
    )
    expect(
      (
        await failureOf(() => {
          expect('the output').toContainOutput('x')
        })
      ).message,
    ).toMatchInlineSnapshot(
      `"\`toContainOutput\` expects an AgentResult, a Transcript or an object with an \`output\` string; received a string ("the output"); pass the whole result, not its output."`,
    )
    expect((await failureOf(() => expect({ text: 'hi' }).toPassCase({}))).message).toMatchInlineSnapshot(
      `"\`toPassCase\` expects an AgentResult, a Transcript or an object with an \`output\` string; received an object without an \`output\` string."`,
    )
  })
})
