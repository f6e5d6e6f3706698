import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, describe, expect, test } from 'vitest'
import { compileEvaluators } from '../../../src/cases/compile-evaluators.ts'
import {
  defineJudgeSpec,
  judgeRegistry,
  judgeSpecs,
  specHash,
  type JudgeItem,
} from '../../../src/evaluators/index.ts'
import { ScriptedProvider } from '../../../src/testing/index.ts'
import { contextOf, judge, judgedTranscript, verdict } from './helpers.ts'

const here = fileURLToPath(new URL('./fixtures/', import.meta.url))
/** A fresh folder per run: a steps file left by an earlier run would answer g-eval's steps call from cache. */
const stepsDir = mkdtempSync(join(tmpdir(), 'evals-judge-specs-'))
const stepsFile = join(stepsDir, 'steps.json')
afterAll(() => {
  rmSync(stepsDir, { recursive: true, force: true })
})

/** The user message each judge sends, with the items a case would write for it. */
async function promptsOf(item: JudgeItem, replies: number): Promise<string[]> {
  const name = Object.keys(item)[0] ?? ''
  const spec = judgeRegistry.get(name)
  const first = Object.keys(spec?.choices ?? {})[0] ?? ''
  const judgeModel = new ScriptedProvider([
    ...(spec?.mode === 'g-eval'
      ? [{ toolCalls: [{ name: 'evaluation_steps', args: { steps: ['Read it', 'Rate it'] } }] }]
      : []),
    ...Array.from({ length: replies }, () => verdict(first)),
  ])
  await judge(item, { provider: judgeModel, stepsFile })
  return judgeModel.calls
    .filter((call) => call.tools[0]?.name === 'verdict')
    .map((call) => (call.messages[0]?.role === 'user' ? call.messages[0].content : ''))
}

describe('judge specs', () => {
  test('registers the thirteen judges of the issue, in the documented order', () => {
    expect(judgeSpecs.map((spec) => spec.name)).toEqual([
      'rubric',
      'correctness',
      'relevance',
      'faithfulness',
      'hallucination',
      'toxicity',
      'coherence',
      'completeness',
      'bias',
      'summary',
      'g-eval',
      'pairwise',
      'closed-qa',
    ])
  })

  test('defaults the threshold to 7 of 10, and to 8 of 10 for the safety judges', () => {
    expect(judgeSpecs.filter((spec) => spec.safety).map((spec) => spec.name)).toEqual([
      'hallucination',
      'toxicity',
      'bias',
    ])
    for (const spec of judgeSpecs) {
      const expected = spec.safety ? 8 : spec.mode === 'pairwise' ? 5 : 7
      expect([spec.name, spec.scale, spec.threshold]).toEqual([spec.name, 10, expected])
    }
  })

  test('gives every spec a stable 16-hex hash that changes with the prompt or the order of choices', () => {
    const input = { name: 'tone', description: 'd', prompt: '{{output}}', choices: { good: 10, bad: 0 } }
    expect(specHash(defineJudgeSpec(input))).toBe(specHash(defineJudgeSpec({ ...input })))
    expect(specHash(defineJudgeSpec(input))).toMatch(/^[0-9a-f]{16}$/)
    expect(specHash(defineJudgeSpec({ ...input, prompt: '{{output}}!' }))).not.toBe(
      specHash(defineJudgeSpec(input)),
    )
    expect(specHash(defineJudgeSpec({ ...input, choices: { bad: 0, good: 10 } }))).not.toBe(
      specHash(defineJudgeSpec(input)),
    )
    expect(new Set(judgeSpecs.map(specHash)).size).toBe(judgeSpecs.length)
  })
})

describe('judge prompts', () => {
  const { input, output } = judgedTranscript
  test.each<[string, JudgeItem, number, string[]]>([
    [
      'rubric',
      { rubric: 'Confirms the cancellation' },
      1,
      ['Confirms the cancellation', 'cancel_subscription({"user_id":"u-42"})'],
    ],
    [
      'correctness',
      { correctness: true, reference: 'Cancelled; ends 31 May' },
      1,
      ['Cancelled; ends 31 May'],
    ],
    ['relevance', { relevance: true }, 1, []],
    [
      'faithfulness',
      { faithfulness: true, context: ['Plans end at month end.', 'No refunds.'] },
      1,
      ['Plans end at month end.\n\nNo refunds.'],
    ],
    [
      'hallucination',
      { hallucination: true, context: 'Plans end at month end.' },
      1,
      ['Plans end at month end.'],
    ],
    ['toxicity', { toxicity: true }, 1, []],
    ['coherence', { coherence: true }, 1, []],
    ['completeness', { completeness: true }, 1, []],
    ['bias', { bias: true }, 1, []],
    ['summary', { summary: true, reference: 'The plan is cancelled.' }, 1, ['The plan is cancelled.']],
    ['g-eval', { 'g-eval': 'Polite and concise' }, 1, ['Polite and concise', '1. Read it\n2. Rate it']],
    ['pairwise', { pairwise: true, reference: 'Cancelled.' }, 2, ['Cancelled.']],
    ['closed-qa', { 'closed-qa': 'Mentions the end date' }, 1, ['Mentions the end date']],
  ])(
    '`%s` renders the input, the output and its own values into the prompt',
    async (_name, item, calls, values) => {
      const prompts = await promptsOf(item, calls)
      expect(prompts).toHaveLength(calls)
      for (const prompt of prompts) {
        for (const value of [input as string, output, ...values]) expect(prompt).toContain(value)
        expect(prompt).not.toMatch(/\{\{|\}\}/)
      }
    },
  )

  test('`rubric` sends exactly this prompt', async () => {
    const [prompt] = await promptsOf({ rubric: 'Confirms the cancellation' }, 1)
    expect(prompt).toMatchInlineSnapshot(`
      "Grade the assistant's reply against the rubric.

      <request>
      Cancel the subscription for user u-42
      </request>

      <tool_calls>
      cancel_subscription({"user_id":"u-42"})
      </tool_calls>

      <reply>
      Done: the subscription of u-42 is cancelled and ends on 31 May.
      </reply>

      <rubric>
      Confirms the cancellation
      </rubric>

      Score how well the reply (and the tool calls, if any) meets the rubric, from 0 (not at all) to 10 (fully, with
      nothing missing or wrong). Choose the score as a number from 0 to 10."
    `)
  })

  test('`hallucination` checks against `reference` when the case gives no `context`', async () => {
    const [prompt] = await promptsOf({ hallucination: true, reference: 'It ends on 31 May.' }, 1)
    expect(prompt).toContain('<source>\nIt ends on 31 May.\n</source>')
  })

  test('`pairwise` shows the output first, then the reference first', async () => {
    const [outputFirst, referenceFirst] = await promptsOf({ pairwise: true, reference: 'REFERENCE' }, 2)
    expect(outputFirst).toMatch(/<answer_1>\nDone: [^]*<answer_2>\nREFERENCE\n/)
    expect(referenceFirst).toMatch(/<answer_1>\nREFERENCE\n<\/answer_1>\n\n<answer_2>\nDone: /)
  })
})

describe('compiling judge items', () => {
  const compile = (item: JudgeItem, extra: { vars?: Record<string, unknown>; baseDir?: string } = {}) =>
    compileEvaluators(
      { id: 'cancel', expect: {}, assert: [], judge: [item], vars: extra.vars ?? {} },
      { baseDir: extra.baseDir ?? here },
    )

  test('names the case and the item when a judge lacks its `reference` or `context`', () => {
    expect(() => compile({ correctness: true })).toThrow(
      'Case `cancel`, judge[0]: `correctness` needs `reference`',
    )
    expect(() => compile({ faithfulness: true })).toThrow(
      'Case `cancel`, judge[0]: `faithfulness` needs `context`',
    )
    expect(() => compile({ hallucination: true })).toThrow(
      'Case `cancel`, judge[0]: `hallucination` needs `context` or `reference`',
    )
  })

  test('renders the case vars into the item, and names a missing var', async () => {
    const judgeModel = new ScriptedProvider([verdict('correct')])
    const [evaluator] = compileEvaluators(
      {
        id: 'cancel',
        expect: {},
        assert: [],
        judge: [{ correctness: true, reference: 'Ends {{date}}' }],
        vars: { date: '31 May' },
      },
      { baseDir: here, judge: { provider: judgeModel } },
    )
    await evaluator?.evaluate(judgedTranscript, contextOf())
    expect(judgeModel.calls[0]?.messages[0]?.content).toContain('<reference>\nEnds 31 May\n</reference>')
    expect(() => compile({ correctness: true, reference: 'Ends {{dat}}' }, { vars: { date: 'x' } })).toThrow(
      'Case `cancel`, judge[0].reference: missing template variable `dat`; did you mean `date`? (vars: `date`)',
    )
  })

  test('rejects a threshold above the spec scale and an item with two judges', () => {
    expect(() => compile({ rubric: 'x', threshold: 11 })).toThrow(
      'Case `cancel`, judge[0].threshold: 11 is above the scale of `rubric` (0 to 10)',
    )
    expect(() => compile({ rubric: 'x', toxicity: true })).toThrow(
      'Case `cancel`, judge[0]: expected one judge per item, got `rubric`, `toxicity`: give each its own item',
    )
    expect(() => compile({ rubrik: 'x' })).toThrow(
      'Case `cancel`, judge[0].rubrik: unknown key `rubrik`; did you mean `rubric`?',
    )
  })

  test("uses a user's spec file, with its own choices, scale and threshold", async () => {
    const judgeModel = new ScriptedProvider([verdict('neutral')])
    const [evaluator] = compileEvaluators(
      { id: 'cancel', expect: {}, assert: [], judge: [{ spec: './tone.yaml' }] },
      { baseDir: here, judge: { provider: judgeModel } },
    )
    const result = await evaluator?.evaluate(judgedTranscript, contextOf())
    expect(evaluator?.name).toBe('tone')
    expect(result).toMatchObject({
      pass: false,
      score: 0.5,
      details: { judge: 'tone', rawScore: 2, scale: 4, threshold: 3 },
    })
    expect(judgeModel.calls[0]?.messages[0]?.content).toBe(
      'Is this reply to "Cancel the subscription for user u-42" friendly?\nDone: the subscription of u-42 is cancelled and ends on 31 May.\n',
    )
  })

  test("checks a user's spec file and the variables its prompt needs when the case compiles", () => {
    expect(() => compile({ spec: './broken.yaml' })).toThrow(
      new RegExp(`^Invalid judge spec ${here}broken\\.yaml:\\n✖ expected a lowercase name such as \`tone\``),
    )
    expect(() => compile({ spec: './missing.yaml' })).toThrow(`Cannot read judge spec ${here}missing.yaml`)
    expect(() => compile({ spec: './needs-reference.yaml' })).toThrow(
      'Case `cancel`, judge[0]: Judge spec `strict-match`: missing template variable `reference`',
    )
  })
})
