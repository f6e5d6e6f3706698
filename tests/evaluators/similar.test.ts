import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest'
import {
  cosineSimilarity,
  registerEmbeddingModel,
  resolveEmbeddingModel,
} from '../../src/providers/embedding.ts'
import { localEmbedding } from '../../src/providers/local-embedding.ts'
import { OpenAiEmbeddingModel } from '../../src/providers/openai-embedding.ts'
import { ConfigError, ProviderError } from '../../src/errors.ts'
import { startMockLlmServer, type MockLlmServer } from '../../src/testing/index.ts'
import { caseFileErrorOf } from './case-file-errors.ts'
import { assertCheck, expectCheck, transcriptOf } from './helpers.ts'

const signal = new AbortController().signal

describe('the `local` embedding model', () => {
  test('is deterministic, unit length, and scores shared words higher', async () => {
    const model = resolveEmbeddingModel('local')
    const [a = [], b = [], c = []] = await model.embed(
      ['The refund was issued today', 'the REFUND was issued!', 'Weather in Paris is sunny'],
      { signal },
    )
    expect(a).toEqual(localEmbedding('The refund was issued today'))
    expect(Math.hypot(...a)).toBeCloseTo(1, 12)
    expect(cosineSimilarity(a, b)).toBeGreaterThan(0.8)
    expect(cosineSimilarity(a, c)).toBeLessThan(0.2)
    expect(cosineSimilarity(a, a)).toBeCloseTo(1, 12)
  })

  test('an empty text embeds to zeros, which are similar to nothing', () => {
    expect(cosineSimilarity(localEmbedding(''), localEmbedding('hello'))).toBe(0)
  })
})

describe('similar', () => {
  test('passes when the cosine reaches the threshold, with the score in the verdict', async () => {
    const verdict = await expectCheck(
      'similar',
      'the refund was issued',
      transcriptOf({ output: 'The refund was issued.' }),
    )
    expect(verdict).toEqual({
      pass: true,
      score: expect.closeTo(1, 12) as unknown,
      reason: 'cosine similarity 1.00 to "the refund was issued" (`local`), at least 0.75',
    })
  })

  test('fails below the threshold, naming the best reference', async () => {
    const verdict = await assertCheck(
      { kind: 'similar', value: ['weather in Paris', 'your refund was issued'], threshold: 0.9 },
      transcriptOf({ output: 'The refund was issued yesterday' }),
    )
    expect(verdict.pass).toBe(false)
    expect(verdict.reason).toMatch(
      /^cosine similarity 0\.\d\d to "your refund was issued" \(`local`\), expected at least 0\.9: "The refund was issued yesterday"$/,
    )
  })

  test('an unknown embedding model is a ConfigError with a did-you-mean', () => {
    expect(() => resolveEmbeddingModel('opnai:text-embedding-3-small')).toThrow(
      new ConfigError(
        'Unknown embedding model `opnai:text-embedding-3-small`. Did you mean `openai`? Use `local` or `provider:model` with one of: local, openai.',
      ),
    )
  })

  test('a threshold above 1 is a case-file error with its location', async () => {
    expect(
      await caseFileErrorOf([
        '  - id: greet',
        '    input: hi',
        '    expect: { similar: { value: hi, threshold: 1.5 } }',
      ]),
    ).toBe('checks.yaml:6:48: cases[0].expect.similar.threshold: Too big: expected number to be <=1')
  })
})

describe('`openai:` embeddings through the real SDK', () => {
  let server: MockLlmServer

  beforeAll(async () => {
    server = await startMockLlmServer({ apiKey: 'sk-test' })
    vi.stubEnv('OPENAI_API_KEY', 'sk-test')
    vi.stubEnv('OPENAI_BASE_URL', server.openaiBaseURL)
  })

  afterAll(async () => {
    vi.unstubAllEnvs()
    await server.close()
  })

  test('sends one embeddings request per case and grades with the vectors it returns', async () => {
    const before = server.journal.length
    const verdict = await assertCheck(
      { kind: 'similar', value: 'your refund was issued', model: 'openai:text-embedding-3-small' },
      transcriptOf({ output: 'Your refund was issued.' }),
    )
    expect(verdict).toEqual({
      pass: true,
      score: expect.closeTo(1, 6) as unknown,
      reason:
        'cosine similarity 1.00 to "your refund was issued" (`openai:text-embedding-3-small`), at least 0.75',
    })
    const requests = server.journal.slice(before)
    expect(requests.map((request) => [request.path, request.body])).toEqual([
      [
        '/v1/embeddings',
        {
          model: 'text-embedding-3-small',
          input: ['Your refund was issued.', 'your refund was issued'],
          encoding_format: 'float',
        },
      ],
    ])
  })

  test('decodes the base64 vectors the mock sends when asked for them', async () => {
    const { default: OpenAI } = await import('openai')
    const client = new OpenAI({ apiKey: 'sk-test', baseURL: server.openaiBaseURL })
    const response = await client.embeddings.create({ model: 'm', input: 'hello world' })
    expect(response.data[0]?.embedding.length).toBe(512)
    expect(cosineSimilarity(response.data[0]?.embedding ?? [], localEmbedding('hello world'))).toBeCloseTo(
      1,
      6,
    )
  })

  test('an API error is a ProviderError naming the model', async () => {
    const model = new OpenAiEmbeddingModel({ model: 'text-embedding-3-small', apiKey: 'sk-wrong' })
    const error = await model.embed(['hi'], { signal }).catch((caught: unknown) => caught)
    expect(error).toBeInstanceOf(ProviderError)
    expect((error as ProviderError).message).toContain('openai:text-embedding-3-small')
    expect((error as ProviderError).message).not.toContain('sk-wrong')
  })

  test('a missing API key is a ConfigError naming the variable', () => {
    vi.stubEnv('OPENAI_API_KEY', undefined)
    expect(() => resolveEmbeddingModel('openai:text-embedding-3-small')).toThrow(
      'No API key for the embedding model `openai:text-embedding-3-small`: set the OPENAI_API_KEY environment variable.',
    )
    vi.stubEnv('OPENAI_API_KEY', 'sk-test')
  })
})

test('an unknown embedding model or a missing API key fails the cases that use it with the ConfigError', async () => {
  vi.stubEnv('OPENAI_API_KEY', undefined)
  try {
    await expect(
      expectCheck('similar', { value: 'hi', model: 'openai:text-embedding-3-small' }, transcriptOf()),
    ).rejects.toThrow(
      new ConfigError(
        'No API key for the embedding model `openai:text-embedding-3-small`: set the OPENAI_API_KEY environment variable.',
      ),
    )
  } finally {
    vi.unstubAllEnvs()
  }
  await expect(assertCheck({ kind: 'similar', value: 'hi', model: 'loca' }, transcriptOf())).rejects.toThrow(
    'Unknown embedding model `loca`. Did you mean `local`?',
  )
})

test('a registered embedding model is used by its prefix, and a wrong count of vectors is an error', async () => {
  const calls: string[][] = []
  registerEmbeddingModel('fixed', (name) => ({
    id: `fixed:${name}`,
    embed: (texts) => {
      calls.push([...texts])
      return Promise.resolve(
        name === 'short' ? [[1, 0]] : texts.map((text) => (text === 'yes' ? [1, 0] : [0.6, 0.8])),
      )
    },
  }))
  expect(
    await assertCheck(
      { kind: 'similar', value: 'yes', model: 'fixed:v1' },
      transcriptOf({ output: 'something' }),
    ),
  ).toEqual({
    pass: false,
    score: expect.closeTo(0.6, 12) as unknown,
    reason: 'cosine similarity 0.60 to "yes" (`fixed:v1`), expected at least 0.75: "something"',
  })
  expect(calls).toEqual([['something', 'yes']])
  await expect(
    assertCheck({ kind: 'similar', value: 'yes', model: 'fixed:short' }, transcriptOf({ output: 'x' })),
  ).rejects.toThrow('`fixed:short` returned 1 embeddings for 2 texts')
})
