import { describe, expect, test } from 'vitest'
import { runSuite } from '../../src/runner/run-suite.ts'
import { commandTarget } from '../../src/targets/command.ts'
import type { Target } from '../../src/targets/target.ts'
import { toTranscript } from '../../src/targets/to-transcript.ts'
import type { Transcript, Turn } from '../../src/types.ts'
import { caseOf, readResults, suiteOf, targetsFor, tempDir } from './helpers.ts'

/** Remembers the name it was told earlier in the conversation: only right when the history is carried. */
const memoryBot: Target = {
  id: 'test:memory',
  run: (input) => {
    const turns: Turn[] = typeof input === 'string' ? [{ role: 'user', content: input }] : input
    const last = turns.at(-1)?.content ?? ''
    const told = turns.map((turn) => /my name is (\w+)/i.exec(turn.content)?.[1]).find(Boolean)
    const output = /my name is/i.test(last)
      ? `Nice to meet you, ${told ?? '?'}.`
      : /what is my name/i.test(last)
        ? told
          ? `Your name is ${told}.`
          : 'I do not know your name.'
        : 'How can I help?'
    return Promise.resolve(toTranscript(output, input, 1) as Transcript)
  },
}

async function run(caseDef: ReturnType<typeof caseOf>, target = memoryBot) {
  const suite = suiteOf([caseDef], { model: 'local' })
  const report = await runSuite(suite, { outDir: tempDir(), targets: targetsFor(suite, target) })
  const [result] = readResults(report.resultsFile)
  if (!result) throw new Error('no result')
  return { report, result }
}

describe('scripted conversations (`turns:`)', () => {
  test('sends each user message with the history so far and checks each reply on its own', async () => {
    const { result } = await run(
      caseOf('remembers', {
        input: [{ role: 'system', content: 'Be brief.' }],
        turns: [
          { user: 'My name is Ana', expect: { contains: 'Ana' } },
          { user: 'What is my name?', expect: { contains: 'Your name is Ana' } },
        ],
        expect: { max_length: 40 },
      }),
    )

    expect(result.status).toBe('passed')
    if (result.status !== 'passed') return
    expect(result.turns).toEqual([
      // the function returns text only: which tools it called is unknown, not none
      { latencyMs: 1, output: 'Nice to meet you, Ana.', tools: null, user: 'My name is Ana' },
      { latencyMs: 1, output: 'Your name is Ana.', tools: null, user: 'What is my name?' },
    ])
    expect(result.verdicts.map((verdict) => [verdict.turn, verdict.evaluator, verdict.pass])).toEqual([
      [1, 'contains', true],
      [2, 'contains', true],
      [undefined, 'max_length', true],
    ])
    expect(result.transcript.output).toBe('Your name is Ana.')
    expect(result.transcript.latencyMs).toBe(2)
    expect(result.transcript.messages.map((message) => `${message.role}: ${message.content}`)).toEqual([
      'system: Be brief.',
      'user: My name is Ana',
      'assistant: Nice to meet you, Ana.',
      'user: What is my name?',
      'assistant: Your name is Ana.',
    ])
  })

  test('fails the case when one turn fails, even if the last reply passes', async () => {
    const { result } = await run(
      caseOf('one-bad-turn', {
        turns: [
          { user: 'My name is Ana', expect: { contains: 'Bob' } },
          { user: 'What is my name?', expect: { contains: 'Ana' } },
        ],
      }),
    )

    expect(result.status).toBe('failed')
    if (result.status !== 'failed') return
    expect(result.verdicts.filter((verdict) => !verdict.pass).map((verdict) => verdict.turn)).toEqual([1])
  })

  test('an erroring turn errors the case and keeps the turns before it', async () => {
    let calls = 0
    const flaky: Target = {
      id: 'test:flaky',
      run: (input, context) => {
        calls++
        if (calls === 2) return Promise.reject(new Error('upstream 500'))
        return memoryBot.run(input, context)
      },
    }
    const { result } = await run(
      caseOf('breaks', {
        turns: [
          { user: 'My name is Ana', expect: { contains: 'Ana' } },
          { user: 'What is my name?', expect: { contains: 'Ana' } },
        ],
      }),
      flaky,
    )

    expect(result).toMatchObject({ status: 'errored', error: { message: 'upstream 500' } })
    if (result.status !== 'errored') return
    expect(result.turns?.map((turn) => turn.user)).toEqual(['My name is Ana'])
    expect(result.verdicts.map((verdict) => verdict.turn)).toEqual([1])
  })
})

test('a command target reads the history as JSON on stdin', async () => {
  const countTurns =
    "node -e \"let s='';process.stdin.on('data',d=>s+=d).on('end',()=>console.log('turns: '+JSON.parse(s).length))\""
  const { result } = await run(
    caseOf('command', {
      input: [],
      turns: [
        { user: 'one', expect: { output: 'turns: 1' } },
        { user: 'two', expect: { output: 'turns: 3' } },
      ],
    }),
    commandTarget({ command: countTurns, cwd: process.cwd() }),
  )

  expect(result.status).toBe('passed')
})

describe('simulated users (`simulated_user:`)', () => {
  test('`local` sends the goal’s quoted messages one per turn, then ends the conversation as met', async () => {
    const { result } = await run(
      caseOf('sim', {
        simulatedUser: {
          goal: 'Say "My name is Ana", then ask "What is my name?"',
          maxTurns: 5,
          model: 'local',
        },
        expect: { contains: 'Your name is Ana' },
      }),
    )

    expect(result.status).toBe('passed')
    if (result.status !== 'passed') return
    expect(result.turns?.map((turn) => [turn.user, turn.output])).toEqual([
      ['My name is Ana', 'Nice to meet you, Ana.'],
      ['What is my name?', 'Your name is Ana.'],
    ])
    expect(result.verdicts.map((verdict) => [verdict.evaluator, verdict.pass, verdict.reason])).toEqual([
      ['simulated_user', true, 'the simulated user reached its goal after 2 turns'],
      ['contains', true, expect.any(String)],
    ])
  })

  test('fails when the goal is not met within max_turns', async () => {
    const { result } = await run(
      caseOf('too-short', {
        simulatedUser: {
          goal: 'Say "hi"; "My name is Ana"; "What is my name?"',
          maxTurns: 2,
          model: 'local',
        },
        expect: { max_length: 100 },
      }),
    )

    expect(result.status).toBe('failed')
    if (result.status !== 'failed') return
    expect(result.turns).toHaveLength(2)
    expect(result.verdicts[0]).toMatchObject({
      evaluator: 'simulated_user',
      pass: false,
      reason: 'the simulated user did not reach its goal in 2 turns (max_turns)',
    })
  })

  test('`local` splits a goal without quotes into clauses', async () => {
    const { result } = await run(
      caseOf('clauses', {
        simulatedUser: { goal: 'tell it my name is Ana, then ask what is my name', maxTurns: 3 },
        expect: { contains: 'Ana' },
      }),
    )

    if (result.status !== 'passed') throw new Error(JSON.stringify(result))
    expect(result.turns?.map((turn) => turn.user)).toEqual(['Tell it my name is Ana', 'Ask what is my name'])
  })
})
