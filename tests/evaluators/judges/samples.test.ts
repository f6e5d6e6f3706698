import { describe, expect, test } from 'vitest'
import { MemoryCache } from '../../../src/engine/cache.ts'
import { ScriptedProvider } from '../../../src/testing/index.ts'
import { judge, verdict } from './helpers.ts'

describe('samples', () => {
  test('asks n times and grades on the mean, reporting the spread', async () => {
    const judgeModel = new ScriptedProvider([verdict('8'), verdict('6'), verdict('10')])
    const result = await judge({ rubric: 'Confirms the cancellation', samples: 3 }, { provider: judgeModel })
    expect(judgeModel.calls).toHaveLength(3)
    expect(result).toMatchObject({
      pass: true,
      score: 0.8,
      reason: 'rubric mean 8/10 over 3 samples (spread ±2) ≥ 7: because 8',
      details: {
        choice: '8',
        rawScore: 8,
        spread: { stdDev: 2, min: 6, max: 10 },
        samples: [
          { choice: '8', rawScore: 8 },
          { choice: '6', rawScore: 6 },
          { choice: '10', rawScore: 10 },
        ],
        calls: 3,
      },
    })
  })

  test('reports the most frequent choice', async () => {
    const judgeModel = new ScriptedProvider([verdict('no'), verdict('yes'), verdict('yes')])
    expect(await judge({ 'closed-qa': 'Says when', samples: 3 }, { provider: judgeModel })).toMatchObject({
      pass: false,
      details: { choice: 'yes', reasons: 'because yes', rawScore: 20 / 3 },
    })
  })

  test('one failing sample makes the whole verdict throw', async () => {
    const judgeModel = new ScriptedProvider([verdict('8'), verdict('eleven')])
    await expect(judge({ rubric: 'x', samples: 2 }, { provider: judgeModel })).rejects.toThrow(
      /^Judge `rubric` replied with unknown choice "eleven"/,
    )
  })
})

describe('the response cache', () => {
  test('serves a repeated judgement of the same trial from the cache', async () => {
    const cache = new MemoryCache()
    const judgeModel = new ScriptedProvider([verdict('9')])
    await judge({ rubric: 'x' }, { provider: judgeModel, cache })
    const again = await judge({ rubric: 'x' }, { provider: judgeModel, cache })
    expect(judgeModel.calls).toHaveLength(1)
    expect(again).toMatchObject({ pass: true, details: { calls: 1, cachedCalls: 1 } })
  })

  test('keys judge calls by the trial index, so trials get independent judgements', async () => {
    const cache = new MemoryCache()
    const judgeModel = new ScriptedProvider([verdict('9'), verdict('3')])
    const first = await judge({ rubric: 'x' }, { provider: judgeModel, cache }, undefined, 0)
    const second = await judge({ rubric: 'x' }, { provider: judgeModel, cache }, undefined, 1)
    expect([first.pass, second.pass, judgeModel.calls.length, cache.size]).toEqual([true, false, 2, 2])
  })

  test('keys each sample apart, so samples are not copies of one cached answer', async () => {
    const cache = new MemoryCache()
    const judgeModel = new ScriptedProvider([verdict('9'), verdict('5')])
    const result = await judge({ rubric: 'x', samples: 2 }, { provider: judgeModel, cache })
    expect([judgeModel.calls.length, cache.size, result.details?.['rawScore']]).toEqual([2, 2, 7])
    const replay = await judge({ rubric: 'x', samples: 2 }, { provider: judgeModel, cache })
    expect(replay.details).toMatchObject({ rawScore: 7, cachedCalls: 2 })
  })
})
