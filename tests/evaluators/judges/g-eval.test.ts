import { mkdtemp, readFile, readdir, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, test } from 'vitest'
import { compileEvaluators } from '../../../src/cases/compile-evaluators.ts'
import { type JudgeOptions } from '../../../src/evaluators/index.ts'
import { ScriptedProvider, type ScriptedReply } from '../../../src/testing/index.ts'
import { contextOf, judgedTranscript, verdict } from './helpers.ts'

let dir: string
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'evals-g-eval-'))
})
afterEach(async () => {
  await rm(dir, { recursive: true, force: true })
})

const steps = (...list: string[]): ScriptedReply => ({
  toolCalls: [{ name: 'evaluation_steps', args: { steps: list } }],
})

async function gEval(criteria: string, options: JudgeOptions, caseCount = 1) {
  const evaluators = Array.from({ length: caseCount }, (_, index) =>
    compileEvaluators(
      { id: `case-${index}`, expect: {}, assert: [], judge: [{ 'g-eval': criteria }] },
      { baseDir: dir, judge: { suite: 'support', ...options } },
    ),
  ).flat()
  return Promise.all(evaluators.map(async (evaluator) => evaluator.evaluate(judgedTranscript, contextOf())))
}

describe('g-eval', () => {
  test('generates the evaluation steps once, pins them beside the suite, and grades by them', async () => {
    const judgeModel = new ScriptedProvider([steps('Check politeness', 'Check length'), verdict('5')], {
      id: 'openai:judge',
    })
    const [result] = await gEval('Polite and concise', { provider: judgeModel })
    const [generate, grade] = judgeModel.calls
    expect(generate?.toolChoice).toEqual({ name: 'evaluation_steps' })
    expect(generate?.messages[0]?.content).toContain('<criteria>\nPolite and concise\n</criteria>')
    expect(grade?.messages[0]?.content).toContain('<steps>\n1. Check politeness\n2. Check length\n</steps>')
    expect(result).toMatchObject({
      pass: true,
      details: {
        steps: ['Check politeness', 'Check length'],
        stepsKey: expect.stringMatching(/^[0-9a-f]{16}$/) as unknown,
      },
    })

    const pinned = JSON.parse(await readFile(join(dir, '__judges__', 'support.json'), 'utf8')) as unknown
    expect(pinned).toEqual({
      schemaVersion: 1,
      steps: {
        [result?.details?.['stepsKey'] as string]: {
          judge: 'g-eval',
          specHash: result?.details?.['specHash'],
          criteria: 'Polite and concise',
          judgeModel: 'openai:judge',
          steps: ['Check politeness', 'Check length'],
        },
      },
    })
    expect(await readdir(join(dir, '__judges__'))).toEqual(['support.json'])
  })

  test('reuses the pinned steps on the next run without asking for them again', async () => {
    await gEval('Polite and concise', { provider: new ScriptedProvider([steps('Step one'), verdict('4')]) })
    const nextRun = new ScriptedProvider([verdict('4')])
    const [result] = await gEval('Polite and concise', { provider: nextRun })
    expect(nextRun.calls.map((call) => call.tools[0]?.name)).toEqual(['verdict'])
    expect(nextRun.calls[0]?.messages[0]?.content).toContain('<steps>\n1. Step one\n</steps>')
    expect(result).toMatchObject({ pass: true, score: 0.75 })
  })

  test('regenerates the steps when the criteria change, keeping the old entry', async () => {
    await gEval('Polite and concise', { provider: new ScriptedProvider([steps('Old'), verdict('4')]) })
    const changed = new ScriptedProvider([steps('New'), verdict('4')])
    await gEval('Polite, concise and correct', { provider: changed })
    expect(changed.calls.map((call) => call.tools[0]?.name)).toEqual(['evaluation_steps', 'verdict'])
    const pinned = JSON.parse(await readFile(join(dir, '__judges__', 'support.json'), 'utf8')) as {
      steps: Record<string, { steps: string[] }>
    }
    expect(
      Object.values(pinned.steps)
        .map((entry) => entry.steps)
        .sort(),
    ).toEqual([['New'], ['Old']])
  })

  test('cases judged at the same time share one generation call', async () => {
    const judgeModel = new ScriptedProvider([steps('Shared'), verdict('5'), verdict('5'), verdict('5')])
    const results = await gEval('Polite', { provider: judgeModel }, 3)
    expect(judgeModel.calls.filter((call) => call.tools[0]?.name === 'evaluation_steps')).toHaveLength(1)
    expect(results.map((result) => result.pass)).toEqual([true, true, true])
  })

  test('a reply without steps throws with the raw reply, and nothing is pinned', async () => {
    const judgeModel = new ScriptedProvider([
      { toolCalls: [{ name: 'evaluation_steps', args: { steps: [] } }] },
    ])
    await expect(gEval('Polite', { provider: judgeModel })).rejects.toThrow(
      'Judge `g-eval` gave no evaluation steps (expected `steps`, a list of strings). Raw reply: "{\\"steps\\":[]}"',
    )
    await expect(readdir(join(dir, '__judges__'))).rejects.toThrow(/ENOENT/)
  })

  test('a corrupt steps file is a configuration error naming the file', async () => {
    const { mkdir, writeFile } = await import('node:fs/promises')
    await mkdir(join(dir, '__judges__'))
    await writeFile(join(dir, '__judges__', 'support.json'), '{ nope')
    await expect(gEval('Polite', { provider: new ScriptedProvider([]) })).rejects.toThrow(
      `Cannot parse the pinned g-eval steps in ${join(dir, '__judges__', 'support.json')}:`,
    )
  })
})
