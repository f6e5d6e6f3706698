import { describe, expect, test } from 'vitest'
import { loadSuite } from '../../src/cases/load.ts'
import { loadErrorOf, scratchFile } from './helpers.ts'

const header = 'suite: chat\ntarget: { function: ./bot.ts#reply }\n'
scratchFile('bot.ts', 'export const reply = (): string => "hello"\n')

describe('conversation cases', () => {
  test('loads `turns:` with the history before them, rendering vars in messages and checks', async () => {
    const file = scratchFile(
      'turns.yaml',
      `${header}cases:
  - id: remembers
    vars: { name: Ana }
    input: [{ role: system, content: Be brief. }]
    turns:
      - user: My name is {{name}}
        expect: { contains: '{{name}}' }
      - user: What is my name?
    expect: { max_length: 50 }
`,
    )
    const [caseDef] = (await loadSuite(file)).cases

    expect(caseDef).toMatchObject({
      input: [{ role: 'system', content: 'Be brief.' }],
      turns: [
        { user: 'My name is Ana', expect: { contains: 'Ana' } },
        { user: 'What is my name?', expect: {} },
      ],
    })
  })

  test('loads `simulated_user:` with max_turns defaulted and the goal rendered', async () => {
    const file = scratchFile(
      'simulated.yaml',
      `${header}cases:
  - id: sim
    vars: { order: o-7 }
    simulated_user: { persona: a hurried customer, goal: 'find out where {{order}} is', model: local }
    expect: { contains: o-7 }
`,
    )
    const [caseDef] = (await loadSuite(file)).cases

    expect(caseDef?.simulatedUser).toEqual({
      persona: 'a hurried customer',
      goal: 'find out where o-7 is',
      maxTurns: 5,
      model: 'local',
    })
    expect(caseDef?.input).toEqual([])
  })

  test('says what to write when a case has no input, both conversations, or a string input before turns', async () => {
    const file = scratchFile(
      'bad-conversation.yaml',
      `${header}cases:
  - id: nothing
    expect: { contains: a }
  - id: both
    turns: [{ user: hi }]
    simulated_user: { goal: say hi }
  - id: string-input
    input: hello
    turns: [{ user: hi, expect: { contains: a } }]
`,
    )
    expect(await loadErrorOf(loadSuite(file))).toMatchInlineSnapshot(`
      "bad-conversation.yaml:4:5: cases[0].input: missing \`input\`; give the user message, or \`turns:\` for a conversation
      bad-conversation.yaml:8:21: cases[1].simulated_user: a case has either \`turns\` or \`simulated_user\`, not both; split it into two cases
      bad-conversation.yaml:10:12: cases[2].input: with \`turns\` or \`simulated_user\`, \`input\` is the history before them: a list of { role, content } turns; move the message into the first turn"
    `)
  })

  test('a case whose only checks are on its turns has checks', async () => {
    const file = scratchFile(
      'turn-checks.yaml',
      `${header}cases:
  - id: turn-only
    turns: [{ user: hi, expect: { contains: hello } }]
  - id: none
    turns: [{ user: hi }]
`,
    )
    expect(await loadErrorOf(loadSuite(file))).toMatchInlineSnapshot(
      `"turn-checks.yaml:6:5: cases[1]: case \`none\` has no checks: add \`expect\`, \`assert\` or \`judge\`, or \`expect\` to a turn"`,
    )
  })
})
