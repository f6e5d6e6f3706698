import { fileURLToPath } from 'node:url'
import { describe, expect, test } from 'vitest'
import { loadSuite } from '../../../src/cases/load.ts'
import { compileEvaluators } from '../../../src/cases/compile-evaluators.ts'
import { ScriptedProvider } from '../../../src/testing/index.ts'
import { contextOf, transcriptOf, verdict } from './helpers.ts'

const fixture = (name: string): string => fileURLToPath(new URL(`./fixtures/${name}`, import.meta.url))

describe('judges in case files', () => {
  test('keeps the suite judge settings and each case’s judge items as written', async () => {
    const suite = await loadSuite(fixture('judged.yaml'))
    expect(suite.judge).toEqual({ model: 'openai:gpt-4.1-mini', temperature: 0 })
    expect(suite.cases.get(0).judge).toEqual([
      { rubric: 'Confirms the cancellation for {{user}} and says when it ends', threshold: 8 },
      { correctness: true, reference: 'The subscription of {{user}} is cancelled and ends on {{ends}}.' },
    ])
  })

  test('reports unknown keys with a did-you-mean, a missing reference and bad options, each located', async () => {
    const error = await loadSuite(fixture('invalid-judges.yaml')).then(
      () => new Error('expected a CaseFileError'),
      (caught: unknown) => caught as Error,
    )
    const file = fixture('invalid-judges.yaml')
    expect(error.message.replaceAll(file, 'invalid-judges.yaml').split('\n')).toEqual([
      'invalid-judges.yaml:3:10: judge.modle: unknown key `modle`; did you mean `model`?',
      'invalid-judges.yaml:8:9: cases[0].judge[0].correctnes: unknown key `correctnes`; did you mean `correctness`?',
      'invalid-judges.yaml:8:9: cases[0].judge[0]: expected one judge: `rubric`, `correctness`, `relevance`, `faithfulness`, `hallucination`, `toxicity`, `coherence`, `completeness`, `bias`, `summary`, `g-eval`, `pairwise`, `closed-qa`, or `spec: ./my-judge.yaml`',
      'invalid-judges.yaml:10:9: cases[0].judge[1]: `summary` needs `reference`',
      'invalid-judges.yaml:12:18: cases[0].judge[2].samples: Too small: expected number to be >=1',
    ])
  })

  test('runs a judged suite offline against a scripted judge, with g-eval steps pinned beside it', async () => {
    const suite = await loadSuite(fixture('judged.yaml'))
    const judgeModel = new ScriptedProvider(
      [
        verdict('9'),
        verdict('correct'),
        verdict('not_toxic'),
        verdict('4'),
        verdict('5'),
        verdict('first'),
        verdict('second'),
      ],
      { id: 'scripted-judge' },
    )
    const verdicts = []
    for (const caseDef of suite.cases) {
      const evaluators = compileEvaluators(caseDef, {
        baseDir: fixture(''),
        judge: { ...suite.judge, provider: judgeModel, suite: suite.name },
      })
      const transcript = transcriptOf({
        input: caseDef.input,
        output: `Done: ${typeof caseDef.input === 'string' ? caseDef.input : ''}`,
      })
      for (const evaluator of evaluators)
        verdicts.push([
          evaluator.name,
          evaluator.weight,
          (await evaluator.evaluate(transcript, { ...contextOf(), caseId: caseDef.id, vars: caseDef.vars }))
            .pass,
        ])
    }
    judgeModel.assertDone()
    expect(judgeModel.calls[0]?.messages[0]?.content).toContain(
      'Confirms the cancellation for u-42 and says when it ends',
    )
    expect(judgeModel.calls[1]?.messages[0]?.content).toContain('ends on 31 May.')
    expect(verdicts).toEqual([
      ['rubric', undefined, true],
      ['correctness', undefined, true],
      ['toxicity', undefined, true],
      ['g-eval', undefined, true],
      ['pairwise', 2, true],
    ])
  })
})
