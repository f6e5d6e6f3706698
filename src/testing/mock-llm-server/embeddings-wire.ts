import { localEmbedding } from '../../providers/local-embedding.ts'

/**
 * The body of an OpenAI `POST /v1/embeddings` response: each input embedded by the `local` bag-of-words model, so
 * tests know the vectors, as floats or as base64 little-endian float32 when `encoding_format: base64` is asked.
 */
export function openAiEmbeddings(body: unknown): unknown {
  const request = (typeof body === 'object' && body !== null ? body : {}) as {
    input?: unknown
    model?: unknown
    encoding_format?: unknown
  }
  const inputs = (Array.isArray(request.input) ? request.input : [request.input]).map((input) =>
    typeof input === 'string' ? input : JSON.stringify(input ?? ''),
  )
  const base64 = request.encoding_format === 'base64'
  const data = inputs.map((text, index) => {
    const vector = localEmbedding(text)
    return {
      object: 'embedding',
      index,
      embedding: base64 ? Buffer.from(new Float32Array(vector).buffer).toString('base64') : vector,
    }
  })
  const tokens = inputs.reduce((sum, text) => sum + Math.ceil(text.length / 4), 0)
  return {
    object: 'list',
    data,
    model: typeof request.model === 'string' ? request.model : 'mock-embedding',
    usage: { prompt_tokens: tokens, total_tokens: tokens },
  }
}
