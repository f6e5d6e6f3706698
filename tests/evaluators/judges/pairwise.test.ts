import { describe, expect, test } from 'vitest'
import { ScriptedProvider } from '../../../src/testing/index.ts'
import { judge, verdict } from './helpers.ts'

const item = { pairwise: true as const, reference: 'Your plan is cancelled.' }

describe('pairwise', () => {
  test('asks in both orders and scores the output from its own side', async () => {
    // output first: "first" wins; reference first: "second" wins — the output wins both times
    const judgeModel = new ScriptedProvider([
      verdict('first', 'A is clearer'),
      verdict('second', 'B is clearer'),
    ])
    const result = await judge(item, { provider: judgeModel })
    expect(judgeModel.calls).toHaveLength(2)
    expect(result).toMatchObject({
      pass: true,
      score: 1,
      details: {
        choice: 'better',
        positionDisagreement: false,
        samples: [
          {
            choice: 'better',
            rawScore: 10,
            positionDisagreement: false,
            reasons: 'output-first: A is clearer\nreference-first: B is clearer',
            orders: [
              { order: 'output-first', choice: 'first', reasons: 'A is clearer', rawScore: 10 },
              { order: 'reference-first', choice: 'second', reasons: 'B is clearer', rawScore: 10 },
            ],
          },
        ],
      },
    })
  })

  test('reports position disagreement when the verdict follows the position, not the answer', async () => {
    const judgeModel = new ScriptedProvider([verdict('first'), verdict('first')])
    const result = await judge(item, { provider: judgeModel })
    expect(result).toMatchObject({
      pass: true,
      score: 0.5,
      reason:
        'pairwise 5/10 ("inconsistent") ≥ 5; position disagreement in 1 of 1: output-first: because first reference-first: because first',
      details: { choice: 'inconsistent', positionDisagreement: true, rawScore: 5 },
    })
  })

  test('fails when the reference wins in both orders, and counts a tie as passing', async () => {
    const worse = new ScriptedProvider([verdict('second'), verdict('first')])
    expect(await judge(item, { provider: worse })).toMatchObject({
      pass: false,
      score: 0,
      details: { choice: 'worse' },
    })
    const tie = new ScriptedProvider([verdict('tie'), verdict('tie')])
    expect(await judge(item, { provider: tie })).toMatchObject({
      pass: true,
      score: 0.5,
      details: { choice: 'tie' },
    })
  })

  test('with samples, asks both orders per sample and counts disagreements', async () => {
    const judgeModel = new ScriptedProvider([
      verdict('first'),
      verdict('second'),
      verdict('first'),
      verdict('first'),
    ])
    const result = await judge({ ...item, samples: 2 }, { provider: judgeModel })
    expect(judgeModel.calls).toHaveLength(4)
    expect(result.reason).toMatch(
      /^pairwise mean 7\.5\/10 over 2 samples \(spread ±3\.54\) ≥ 5; position disagreement in 1 of 2:/,
    )
  })
})
