import { describe, expect, test } from 'vitest'
import { evaluatorCompiler, loadEvaluatorCompiler, needsOf } from '../../src/cases/compile-checks.ts'
import { fixturesDir, transcriptOf } from './helpers.ts'

const context = { caseId: 'case', trial: 0, signal: new AbortController().signal, vars: {} }
const plain = { contains: 'hello', output_regex: '^h', custom: './checks.ts#isPolite' }

describe('evaluatorCompiler', () => {
  test('compiles `expect:` values without the LLM judge', async () => {
    const compile = evaluatorCompiler({})
    const evaluators = compile({ expect: plain, assert: [] }, { baseDir: fixturesDir })
    const transcript = transcriptOf({ output: 'hello, thank you' })
    expect(evaluators.map((evaluator) => evaluator.name)).toEqual(['contains', 'output_regex', 'custom'])
    expect(
      await Promise.all(
        evaluators.map(async (evaluator) => (await evaluator.evaluate(transcript, context)).pass),
      ),
    ).toEqual([true, true, true])
  })

  test('says what it was made without when a case needs it', () => {
    const compile = evaluatorCompiler({})
    expect(() =>
      compile({ expect: {}, assert: [], judge: [{ rubric: 'Polite' }] }, { baseDir: fixturesDir }),
    ).toThrow('the evaluator compiler was made without the LLM judge: load it with loadEvaluatorCompiler')
  })

  test('shares one evaluator between cases that repeat a value, within one base directory', () => {
    const compile = evaluatorCompiler({})
    const [first, second, elsewhere] = [fixturesDir, fixturesDir, `${fixturesDir}agents/`].map(
      (baseDir, index) =>
        compile({ expect: { ...plain, contains: `hello ${index}` }, assert: [] }, { baseDir }),
    )
    expect(second?.[0]).not.toBe(first?.[0])
    expect(second?.slice(1)).toEqual(first?.slice(1))
    expect(second?.[1]).toBe(first?.[1])
    expect(second?.[2]).toBe(first?.[2])
    expect(elsewhere?.[2]).not.toBe(second?.[2])
  })
})

describe('loadEvaluatorCompiler', () => {
  test('validates `expect:` values with the ConfigError of compileEvaluators', async () => {
    const cases = [{ expect: { min_length: -1 }, assert: [] }]
    const compile = await loadEvaluatorCompiler(needsOf(cases))
    expect(() => compile(cases[0] ?? { expect: {}, assert: [] }, { baseDir: fixturesDir })).toThrow(
      /^Invalid options at expect\.min_length:\n✖ Too small: expected number to be >=0/,
    )
  })

  test('loads the LLM judge for cases with `judge:` items', async () => {
    const judged = { id: 'polite', expect: {}, assert: [], judge: [{ rubric: 'Polite' }] }
    const compile = await loadEvaluatorCompiler(needsOf([{ expect: plain, assert: [] }, judged]))
    const [judge] = compile(judged, { baseDir: fixturesDir })
    expect(judge).toMatchObject({ name: 'rubric', usesModel: true })
    expect(await judge?.evaluate(transcriptOf(), context)).toMatchObject({ skipped: true })
  })
})
