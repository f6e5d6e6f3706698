import { describe, expect, test } from 'vitest'
import { z } from 'zod'
import { Agent, tool, type AgentOptions, type PolicyDecision } from '../../src/index.ts'
import { ScriptedProvider } from '../../src/testing/index.ts'
import { decide, globToRegExp } from '../../src/tools/policy.ts'

describe('decide', () => {
  test('checks deny before review before allow', () => {
    const rules = { allow: ['*'], review: ['send_*'], deny: ['send_wire'] }

    expect(decide(rules, 'send_wire', {})).toEqual({
      decision: 'deny',
      reason: 'matched deny rule `send_wire`',
    })
    expect(decide(rules, 'send_email', {})).toEqual({
      decision: 'review',
      reason: 'matched review rule `send_*`',
    })
    expect(decide(rules, 'get_weather', {})).toEqual({ decision: 'allow', reason: 'matched allow rule `*`' })
  })

  test('falls back to review when no rule matches', () => {
    expect(decide({ allow: ['get_*'] }, 'delete_user', {})).toEqual({
      decision: 'review',
      reason: 'no rule matched; default is review',
    })
  })

  test('uses the given default when no rule matches', () => {
    expect(decide({ default: 'allow' }, 'delete_user', {}).decision).toBe('allow')
  })

  test('matches argument globs only when every one matches', () => {
    const rules = { allow: [{ tool: 'send_email', args: { to: '*@example.com', subject: 'Re:*' } }] }

    expect(decide(rules, 'send_email', { to: 'ada@example.com', subject: 'Re: hi' })).toEqual({
      decision: 'allow',
      reason: 'matched allow rule `send_email` [to=*@example.com, subject=Re:*]',
    })
    expect(decide(rules, 'send_email', { to: 'ada@evil.com', subject: 'Re: hi' }).decision).toBe('review')
    expect(decide(rules, 'send_email', { to: 'ada@example.com' }).decision).toBe('review')
  })

  test('matches non-string arguments by their JSON text', () => {
    const rules = { deny: [{ tool: 'transfer', args: { amount: '1????' } }] }

    expect(decide(rules, 'transfer', { amount: 10000 }).decision).toBe('deny')
    expect(decide(rules, 'transfer', { amount: 999 }).decision).toBe('review')
  })

  test('matches a when predicate over the arguments', () => {
    const rules = {
      deny: [{ tool: 'transfer', when: (args: unknown) => (args as { amount: number }).amount > 100 }],
      allow: ['transfer'],
    }

    expect(decide(rules, 'transfer', { amount: 500 })).toEqual({
      decision: 'deny',
      reason: 'matched deny rule `transfer` [when(…)]',
    })
    expect(decide(rules, 'transfer', { amount: 5 }).decision).toBe('allow')
  })
})

describe('globToRegExp', () => {
  test('treats * as any run, ? as one character and everything else literally', () => {
    expect(globToRegExp('get_*').test('get_weather')).toBe(true)
    expect(globToRegExp('get_*').test('forget_weather')).toBe(false)
    expect(globToRegExp('v?').test('v1')).toBe(true)
    expect(globToRegExp('v?').test('v12')).toBe(false)
    expect(globToRegExp('a.b').test('axb')).toBe(false)
    expect(globToRegExp('(x)+').test('(x)+')).toBe(true)
  })
})

describe('policies in a run', () => {
  const sendEmail = tool({
    name: 'send_email',
    description: 'Sends an email',
    parameters: z.object({ to: z.string() }),
    execute: ({ to }) => `sent to ${to}`,
  })

  const runWith = async (options: Partial<AgentOptions>) => {
    const decisions: { callId: string; decision: PolicyDecision; reason: string }[] = []
    const provider = new ScriptedProvider([
      { toolCalls: [{ name: 'send_email', args: { to: 'ada@example.com' }, id: 'c1' }] },
      'Done.',
    ])
    const agent = new Agent({
      model: provider,
      tools: [sendEmail],
      observers: [
        {
          onPolicyDecision: ({ callId, decision, reason }) => {
            decisions.push({ callId, decision, reason })
          },
        },
      ],
      ...options,
    })
    const result = await agent.run('Email Ada')
    return { result, decisions, provider }
  }

  test('runs an allowed call', async () => {
    const { result, decisions } = await runWith({ policy: { allow: ['send_*'] } })

    expect(result.toolCalls[0]?.result).toBe('sent to ada@example.com')
    expect(decisions).toEqual([{ callId: 'c1', decision: 'allow', reason: 'matched allow rule `send_*`' }])
  })

  test('sends a denied call back to the model as an error and records it in the trace', async () => {
    const { result, decisions, provider } = await runWith({ policy: { deny: ['send_*'], allow: ['*'] } })

    const message =
      'Tool call `send_email` was denied by policy (matched deny rule `send_*`). Do not retry it; continue without it.'
    expect(result.toolCalls[0]?.error).toBe(message)
    expect(provider.calls[1]?.messages.at(-1)).toMatchObject({
      role: 'tool',
      content: message,
      isError: true,
    })
    expect(result.trace.filter((step) => step.type === 'policy')).toMatchObject([
      { callId: 'c1', name: 'send_email', decision: 'deny', reason: 'matched deny rule `send_*`' },
    ])
    expect(decisions).toEqual([{ callId: 'c1', decision: 'deny', reason: 'matched deny rule `send_*`' }])
    expect(result.stopReason).toBe('final')
  })

  test('runs a reviewed call that confirm approves', async () => {
    const asked: unknown[] = []
    const { result, decisions } = await runWith({
      policy: { review: ['send_email'] },
      confirm: async (call) => {
        asked.push({ name: call.name, args: call.args })
        return true
      },
    })

    expect(asked).toEqual([{ name: 'send_email', args: { to: 'ada@example.com' } }])
    expect(result.toolCalls[0]?.result).toBe('sent to ada@example.com')
    expect(decisions).toEqual([
      { callId: 'c1', decision: 'allow', reason: 'matched review rule `send_email`; confirmed' },
    ])
  })

  test('denies a reviewed call that confirm refuses', async () => {
    const { result } = await runWith({ policy: { review: ['send_email'] }, confirm: () => false })

    expect(result.toolCalls[0]?.error).toBe(
      'Tool call `send_email` was denied by policy (matched review rule `send_email`; confirm refused). Do not retry it; continue without it.',
    )
  })

  test('denies a reviewed call when confirm does not answer in time', async () => {
    const { result } = await runWith({
      policy: { review: ['send_email'] },
      confirm: () => new Promise<boolean>(() => undefined),
      confirmTimeoutMs: 20,
    })

    expect(result.toolCalls[0]?.error).toBe(
      'Tool call `send_email` was denied by policy (matched review rule `send_email`; confirm did not answer within 20 ms). Do not retry it; continue without it.',
    )
  })

  test('denies a reviewed call when confirm throws', async () => {
    const { result } = await runWith({
      policy: { review: ['send_email'] },
      confirm: () => {
        throw new Error('no terminal')
      },
    })

    expect(result.toolCalls[0]?.error).toBe(
      'Tool call `send_email` was denied by policy (matched review rule `send_email`; confirm threw: no terminal). Do not retry it; continue without it.',
    )
  })

  test('interrupts the run for a reviewed call when there is no confirm callback, without running it', async () => {
    const { result } = await runWith({ policy: { allow: ['get_*'] } })

    expect(result.stopReason).toBe('interrupted')
    expect(result.toolCalls).toEqual([])
    expect(result.interruptions).toEqual([
      {
        callId: 'c1',
        name: 'send_email',
        args: { to: 'ada@example.com' },
        reason: 'no rule matched; default is review',
        agent: 'agent',
      },
    ])
  })

  test('does not ask confirm for a denied call', async () => {
    let asked = false
    await runWith({
      policy: { deny: ['send_email'], review: ['*'] },
      confirm: () => {
        asked = true
        return true
      },
    })

    expect(asked).toBe(false)
  })

  test('runs every call when there is no policy', async () => {
    const { result } = await runWith({})

    expect(result.toolCalls[0]?.result).toBe('sent to ada@example.com')
    expect(result.trace.some((step) => step.type === 'policy')).toBe(false)
  })
})
