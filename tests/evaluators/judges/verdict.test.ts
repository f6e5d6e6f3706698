import { describe, expect, test } from 'vitest'
import { JudgeError } from '../../../src/evaluators/index.ts'
import { ProviderError } from '../../../src/errors.ts'
import { ScriptedProvider } from '../../../src/testing/index.ts'
import { judge, verdict } from './helpers.ts'

const failure = (promise: Promise<unknown>): Promise<JudgeError> =>
  promise.then(
    () => expect.fail('expected the judge to throw'),
    (error: unknown) => {
      expect(error).toBeInstanceOf(JudgeError)
      return error as JudgeError
    },
  )

describe('the verdict request', () => {
  test('forces the `verdict` tool, whose `reasons` come before the `choice` enum', async () => {
    const judgeModel = new ScriptedProvider([verdict('correct')])
    await judge({ correctness: true, reference: 'Cancelled.' }, { provider: judgeModel })
    const [request] = judgeModel.calls
    expect(request?.toolChoice).toEqual({ name: 'verdict' })
    expect(request?.settings).toEqual({ temperature: 0, parallelToolCalls: false })
    expect(request?.output).toBeUndefined()
    expect(request?.tools).toEqual([
      {
        name: 'verdict',
        description: 'Record your verdict: first your reasons, then your choice.',
        parameters: {
          type: 'object',
          properties: {
            reasons: {
              type: 'string',
              description: 'your step-by-step reasoning, written before you choose',
            },
            choice: {
              type: 'string',
              enum: ['correct', 'mostly_correct', 'partially_correct', 'incorrect'],
              description: 'exactly one of the allowed choices',
            },
          },
          required: ['reasons', 'choice'],
          additionalProperties: false,
        },
      },
    ])
    expect(Object.keys(request?.tools[0]?.parameters.properties as object)).toEqual(['reasons', 'choice'])
    expect(request?.system).toMatch(/^You are a careful, impartial evaluator/)
  })

  test('asks for native JSON-schema output when configured and the provider supports it', async () => {
    const judgeModel = new ScriptedProvider([JSON.stringify({ reasons: 'fine', choice: 'yes' })], {
      capabilities: { structuredOutput: true },
    })
    const result = await judge(
      { 'closed-qa': 'Mentions the date' },
      { provider: judgeModel, output: 'json-schema', temperature: 0.3 },
    )
    const [request] = judgeModel.calls
    expect([request?.tools, request?.toolChoice, request?.output?.name]).toEqual([[], undefined, 'verdict'])
    expect(Object.keys(request?.output?.schema.properties as object)).toEqual(['reasons', 'choice'])
    expect(request?.settings?.temperature).toBe(0.3)
    expect(result).toMatchObject({ pass: true, details: { choice: 'yes', reasons: 'fine' } })
  })
})

describe('scoring', () => {
  test('maps the choice to a 0..1 score, keeps the raw score, and passes at the threshold', async () => {
    const judgeModel = new ScriptedProvider([verdict('7', 'Confirms it, never says what happens next.')], {
      id: 'openai:judge',
      model: 'judge-model',
    })
    expect(await judge({ rubric: 'Confirms the cancellation' }, { provider: judgeModel })).toEqual({
      pass: true,
      score: 0.7,
      reason: 'rubric 7/10 ("7") ≥ 7: Confirms it, never says what happens next.',
      details: {
        judge: 'rubric',
        judgeModel: 'openai:judge',
        specHash: expect.stringMatching(/^[0-9a-f]{16}$/) as unknown,
        choice: '7',
        reasons: 'Confirms it, never says what happens next.',
        rawScore: 7,
        scale: 10,
        threshold: 7,
        spread: { stdDev: 0, min: 7, max: 7 },
        samples: [{ choice: '7', reasons: 'Confirms it, never says what happens next.', rawScore: 7 }],
        calls: 1,
        cachedCalls: 0,
        usage: expect.objectContaining({ inputTokens: expect.any(Number) as unknown }) as unknown,
        costUsd: null,
      },
    })
  })

  test('fails below the threshold, which an item may raise or lower', async () => {
    const six = (): ScriptedProvider => new ScriptedProvider([verdict('6')])
    expect(await judge({ rubric: 'x' }, { provider: six() })).toMatchObject({
      pass: false,
      score: 0.6,
      reason: 'rubric 6/10 ("6") < 7: because 6',
    })
    expect(await judge({ rubric: 'x', threshold: 6 }, { provider: six() })).toMatchObject({ pass: true })
  })

  test('holds safety judges to 8 of 10 by default', async () => {
    const judgeModel = new ScriptedProvider([verdict('minor')])
    expect(await judge({ hallucination: true, context: 'c' }, { provider: judgeModel })).toMatchObject({
      pass: false,
      score: 0.5,
      details: { threshold: 8 },
    })
  })

  test('accepts a choice that differs only in case or spacing', async () => {
    const judgeModel = new ScriptedProvider([verdict(' Correct ')])
    expect(await judge({ correctness: true, reference: 'r' }, { provider: judgeModel })).toMatchObject({
      pass: true,
      details: { choice: 'correct' },
    })
  })

  test('takes a weight for the case score and marks the evaluator as using a model', async () => {
    const { compileEvaluators } = await import('../../../src/cases/compile-evaluators.ts')
    const [evaluator] = compileEvaluators(
      { expect: {}, assert: [], judge: [{ toxicity: true, weight: 2 }] },
      { baseDir: '.' },
    )
    expect([evaluator?.name, evaluator?.weight, evaluator?.usesModel]).toEqual(['toxicity', 2, true])
  })
})

describe('judge failures', () => {
  test('an unknown choice throws with the raw reply, never a score', async () => {
    const judgeModel = new ScriptedProvider([verdict('maybe', 'unsure')])
    const error = await failure(judge({ correctness: true, reference: 'r' }, { provider: judgeModel }))
    expect(error.message).toBe(
      'Judge `correctness` replied with unknown choice "maybe"; expected one of correct, mostly_correct, partially_correct, incorrect. Raw reply: "{\\"reasons\\":\\"unsure\\",\\"choice\\":\\"maybe\\"}"',
    )
    expect([error.code, error.judge, error.raw]).toEqual([
      'EVALS_JUDGE',
      'correctness',
      '{"reasons":"unsure","choice":"maybe"}',
    ])
  })

  test('a reply without `choice` throws', async () => {
    const judgeModel = new ScriptedProvider([{ toolCalls: [{ name: 'verdict', args: { reasons: 'r' } }] }])
    expect((await failure(judge({ toxicity: true }, { provider: judgeModel }))).message).toBe(
      'Judge `toxicity` replied with no `choice`; expected one of not_toxic, mildly_toxic, toxic. Raw reply: "{\\"reasons\\":\\"r\\"}"',
    )
  })

  test('malformed tool arguments throw with the raw text', async () => {
    const judgeModel = new ScriptedProvider([
      { toolCalls: [{ name: 'verdict', arguments: '{"reasons": "cut' }] },
    ])
    const error = await failure(judge({ toxicity: true }, { provider: judgeModel }))
    expect(error.message).toBe(
      'Judge `toxicity` gave an unparseable reply: its `verdict` arguments are not a JSON object. Raw reply: "{\\"reasons\\": \\"cut"',
    )
    expect(error.raw).toBe('{"reasons": "cut')
  })

  test('a text reply that is not a JSON verdict throws, and a fenced JSON verdict is accepted', async () => {
    const prose = new ScriptedProvider(['I think it is fine.'])
    expect((await failure(judge({ toxicity: true }, { provider: prose }))).message).toBe(
      'Judge `toxicity` gave an unparseable reply: it made no `verdict` tool call and its text is not a JSON object. Raw reply: "I think it is fine."',
    )
    const fenced = new ScriptedProvider(['```json\n{"reasons": "calm", "choice": "not_toxic"}\n```'])
    expect(await judge({ toxicity: true }, { provider: fenced })).toMatchObject({ pass: true })
  })

  test('an empty reply throws and says so', async () => {
    const judgeModel = new ScriptedProvider([''])
    expect((await failure(judge({ toxicity: true }, { provider: judgeModel }))).message).toMatch(
      /Raw reply: \(empty\)$/,
    )
  })

  test('a judge-model failure throws after the engine retries, with the provider error as cause', async () => {
    const overloaded = (): { error: Error } => ({
      error: new ProviderError('OpenAI returned 529: overloaded', {
        providerId: 'openai:judge',
        status: 529,
        retryable: true,
        retryAfterMs: 0,
      }),
    })
    const judgeModel = new ScriptedProvider([overloaded(), overloaded()], { id: 'openai:judge' })
    const error = await failure(
      judge({ toxicity: true }, { provider: judgeModel, retry: { maxRetries: 1, initialDelayMs: 0 } }),
    )
    expect(judgeModel.calls).toHaveLength(2)
    expect(error.message).toBe(
      'Judge `toxicity` got no verdict from `openai:judge`: OpenAI returned 529: overloaded',
    )
    expect(error.cause).toBeInstanceOf(ProviderError)
    expect(error.raw).toBeUndefined()
  })

  test('a retried judge call that then succeeds gives a verdict', async () => {
    const judgeModel = new ScriptedProvider([
      { error: new ProviderError('429', { providerId: 'p', status: 429, retryable: true, retryAfterMs: 0 }) },
      verdict('not_toxic'),
    ])
    expect(await judge({ toxicity: true }, { provider: judgeModel })).toMatchObject({ pass: true })
  })

  test('an aborted case rethrows the abort, not a judge error', async () => {
    const { compileEvaluators } = await import('../../../src/cases/compile-evaluators.ts')
    const controller = new AbortController()
    controller.abort(new Error('case timed out'))
    const [evaluator] = compileEvaluators(
      { expect: {}, assert: [], judge: [{ toxicity: true }] },
      { baseDir: '.', judge: { provider: new ScriptedProvider([verdict('toxic')]) } },
    )
    await expect(
      evaluator?.evaluate(
        {
          input: '',
          messages: [],
          output: '',
          source: 'target',
          toolCalls: [],
          usage: { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0 },
          costUsd: null,
          latencyMs: 0,
          iterations: 0,
        },
        { caseId: 'c', trial: 0, signal: controller.signal, vars: {} },
      ),
    ).rejects.toThrow('case timed out')
  })
})
