import { execFile } from 'node:child_process'
import { promisify } from 'node:util'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, test } from 'vitest'
import { z } from 'zod'
import { Agent, approve, reject, tool, type AgentResult, type RunState } from '../../src/index.ts'
import { ScriptedProvider, startMockLlmServer, type MockLlmServer } from '../../src/testing/index.ts'
import { approvalAgent } from './fixtures/approval-agent.ts'
import { plainNodeScript } from '../setup/plain-node-script.ts'

let dir: string
let server: MockLlmServer | undefined
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'evals-approvals-'))
})
afterEach(async () => {
  await server?.close()
  server = undefined
  rmSync(dir, { recursive: true, force: true })
})

const fixtures = join(import.meta.dirname, 'fixtures')

describe.each(['openai', 'anthropic'] as const)('an approval flow over the real %s SDK', (api) => {
  const baseURLOf = (s: MockLlmServer) => (api === 'openai' ? s.openaiBaseURL : s.anthropicBaseURL)

  test('interrupts before the call, and a second process resumes the run from its JSON state', async () => {
    server = await startMockLlmServer({
      script: [
        {
          toolCalls: [
            { name: 'lookup_user', args: { id: 'ada' }, id: 'call_lookup' },
            {
              name: 'send_email',
              args: { to: 'ada@example.com', body: 'Your refund is on its way.' },
              id: 'call_send',
            },
          ],
        },
        { text: 'I emailed Ada about her refund.' },
      ],
    })
    const sentLog = join(dir, 'sent.log')
    writeFileSync(sentLog, '')
    const first = await approvalAgent(api, baseURLOf(server), sentLog).run(
      'Tell Ada her refund is on its way',
    )

    expect(first.stopReason).toBe('interrupted')
    expect(first.output).toBe('')
    expect(first.interruptions).toEqual([
      {
        callId: 'call_send',
        name: 'send_email',
        args: { to: 'ada@example.com', body: 'Your refund is on its way.' },
        reason: 'tool `send_email` needs approval',
        agent: 'mailer',
      },
    ])
    // nothing of the reply ran: the lookup waits with the email, so the step resumes as one
    expect(first.toolCalls).toEqual([])
    expect(readFileSync(sentLog, 'utf8')).toBe('')
    expect(server.journal).toHaveLength(1)

    const stateFile = join(dir, 'state.json')
    writeFileSync(stateFile, JSON.stringify(first.state))
    const decisions = JSON.stringify([approve(first.interruptions![0]!, 'checked by Bea')])
    // not execFileSync: the mock server answers from this process's event loop
    const { stdout: output } = await promisify(execFile)(
      process.execPath,
      [
        await plainNodeScript(join(fixtures, 'resume-in-process.ts')),
        api,
        baseURLOf(server),
        stateFile,
        decisions,
        sentLog,
      ],
      { encoding: 'utf8' },
    )
    const { pid, result } = JSON.parse(output) as { pid: number; result: AgentResult }

    expect(pid).not.toBe(process.pid)
    expect(result).toMatchObject({
      runId: first.runId,
      stopReason: 'final',
      output: 'I emailed Ada about her refund.',
      iterations: 2,
      requests: 2,
    })
    expect(readFileSync(sentLog, 'utf8')).toBe('ada@example.com: Your refund is on its way.\n')
    expect(result.toolCalls.map((call) => [call.name, call.result])).toEqual([
      ['lookup_user', { id: 'ada', email: 'ada@example.com' }],
      ['send_email', 'sent to ada@example.com'],
    ])
    expect(result.trace.filter((step) => step.type === 'approval')).toMatchObject([
      { callId: 'call_send', status: 'pending', reason: 'tool `send_email` needs approval' },
      { callId: 'call_send', status: 'approved', reason: 'checked by Bea' },
    ])
    expect(result.usage.inputTokens).toBeGreaterThan(first.usage.inputTokens)
    // the resumed request carries both results after the assistant's calls
    const resumed = JSON.stringify(server.journal[1]?.body)
    expect(resumed).toContain('sent to ada@example.com')
    expect(resumed).toContain('ada@example.com')
  })

  test('a rejection reaches the model with its reason, and the call never runs', async () => {
    server = await startMockLlmServer({
      script: [
        { toolCalls: [{ name: 'send_email', args: { to: 'bob@example.com', body: 'Hi' }, id: 'call_1' }] },
        { text: 'I did not send it.' },
      ],
    })
    const sentLog = join(dir, 'sent.log')
    writeFileSync(sentLog, '')
    const agent = approvalAgent(api, baseURLOf(server), sentLog)
    const first = await agent.run('Email Bob')
    const state = JSON.parse(JSON.stringify(first.state)) as RunState
    const result = await agent.resume(state, [reject({ callId: 'call_1' }, 'Bob unsubscribed')])

    expect(result.stopReason).toBe('final')
    expect(readFileSync(sentLog, 'utf8')).toBe('')
    expect(result.toolCalls[0]?.error).toContain('rejected: Bob unsubscribed')
    expect(JSON.stringify(server.journal[1]?.body)).toContain('rejected: Bob unsubscribed')
  })
})

describe('interruptions', () => {
  const transfer = tool({
    name: 'transfer',
    description: 'Moves money',
    parameters: z.object({ amount: z.number() }),
    needsApproval: ({ amount }) => amount > 100,
    execute: ({ amount }) => `moved ${amount}`,
  })

  test('a needsApproval function decides per call; small transfers run without a person', async () => {
    const model = new ScriptedProvider([
      { toolCalls: [{ name: 'transfer', args: { amount: 5 } }] },
      'Moved 5.',
    ])
    const result = await new Agent({ model, tools: [transfer] }).run('Move 5')

    expect(result.stopReason).toBe('final')
    expect(result.toolCalls[0]?.result).toBe('moved 5')
  })

  test('a review rule of the policy interrupts when the agent has no confirm', async () => {
    const model = new ScriptedProvider([
      { toolCalls: [{ name: 'transfer', args: { amount: 5 }, id: 't1' }] },
      'Moved.',
    ])
    const agent = new Agent({ model, tools: [transfer], policy: { review: ['transfer'] } })
    const first = await agent.run('Move 5')

    expect(first.stopReason).toBe('interrupted')
    expect(first.interruptions?.[0]?.reason).toBe('matched review rule `transfer`')
    const result = await agent.resume(first.state!, [approve({ callId: 't1' })])
    expect(result.output).toBe('Moved.')
    expect(result.trace.filter((step) => step.type === 'policy')).toMatchObject([
      { decision: 'allow', reason: 'matched review rule `transfer`; approved' },
    ])
  })

  test('the blocking confirm still answers without interrupting', async () => {
    const model = new ScriptedProvider([
      { toolCalls: [{ name: 'transfer', args: { amount: 500 } }] },
      'Moved.',
    ])
    const result = await new Agent({ model, tools: [transfer], confirm: () => true }).run('Move 500')

    expect(result.stopReason).toBe('final')
    expect(result.toolCalls[0]?.result).toBe('moved 500')
  })

  test('a run can be interrupted again after resuming, and each state resumes in turn', async () => {
    const model = new ScriptedProvider([
      { toolCalls: [{ name: 'transfer', args: { amount: 200 }, id: 'a' }] },
      { toolCalls: [{ name: 'transfer', args: { amount: 300 }, id: 'b' }] },
      'Moved both.',
    ])
    const agent = new Agent({ model, tools: [transfer] })
    const first = await agent.run('Move 200 then 300')
    const second = await agent.resume(first.state!, [approve({ callId: 'a' })])
    expect(second.stopReason).toBe('interrupted')
    expect(second.interruptions?.map((call) => call.callId)).toEqual(['b'])
    const done = await agent.resume(second.state!, [approve({ callId: 'b' })])

    expect(done.output).toBe('Moved both.')
    expect(done.toolCalls.map((call) => call.result)).toEqual(['moved 200', 'moved 300'])
    expect(done.iterations).toBe(3)
  })

  test('observers hear of the interruption', async () => {
    const heard: string[] = []
    const model = new ScriptedProvider([{ toolCalls: [{ name: 'transfer', args: { amount: 200 } }] }])
    await new Agent({
      model,
      tools: [transfer],
      observers: [{ onInterrupt: ({ pending }) => void heard.push(...pending.map((call) => call.name)) }],
    }).run('Move 200')

    expect(heard).toEqual(['transfer'])
  })

  test('resume refuses decisions that do not match the pending calls, and another agent’s state', async () => {
    const model = new ScriptedProvider([
      { toolCalls: [{ name: 'transfer', args: { amount: 200 }, id: 'x' }] },
    ])
    const agent = new Agent({ name: 'bank', model, tools: [transfer] })
    const first = await agent.run('Move 200')

    await expect(agent.resume(first.state!, [])).rejects.toThrow(
      'Agent `bank`: cannot resume: decide every pending call; missing `x` (transfer).',
    )
    await expect(agent.resume(first.state!, [approve({ callId: 'y' })])).rejects.toThrow(
      'Agent `bank`: cannot resume: no pending call has id `y`; pending: `x`.',
    )
    const other = new Agent({ name: 'shop', model: new ScriptedProvider([]), tools: [transfer] })
    await expect(other.resume(first.state!, [approve({ callId: 'x' })])).rejects.toThrow(
      'Agent `shop`: cannot resume a run of agent `bank`: call `resume` on that agent.',
    )
  })
})
