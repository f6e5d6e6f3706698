import { anthropicErrorBody, anthropicEvents, anthropicMessage, type SseFrame } from './anthropic-wire.ts'
import { openAiChunks, openAiCompletion, openAiErrorBody } from './openai-wire.ts'
import type { RenderedReply } from './reply.ts'
import { openAiResponse, openAiResponseErrorEvent, openAiResponseEvents } from './responses-wire.ts'
import type { MockRequest } from './types.ts'

type Api = MockRequest['api']

/** Which API each route speaks. */
export const routes: Record<string, Api | undefined> = {
  '/v1/chat/completions': 'openai',
  '/v1/responses': 'openai-responses',
  '/v1/messages': 'anthropic',
  '/v1/embeddings': 'openai',
}

/** The JSON body of a successful non-streaming reply. */
export function replyBody(request: MockRequest, reply: RenderedReply): unknown {
  if (request.api === 'openai') return openAiCompletion(reply)
  if (request.api === 'openai-responses') return openAiResponse(reply, request.body)
  return anthropicMessage(reply)
}

/** The SSE frames of a streamed reply, as text. */
export function replyFrames(request: MockRequest, reply: RenderedReply): string[] {
  if (request.api === 'anthropic') return anthropicEvents(reply).map(sse)
  if (request.api === 'openai-responses') return openAiResponseEvents(reply, request.body).map(sse)
  const includeUsage = (request.body as { stream_options?: { include_usage?: unknown } }).stream_options
    ?.include_usage
  return [...openAiChunks(reply, includeUsage === true).map((data) => sse({ data })), 'data: [DONE]\n\n']
}

/** A frame that is not JSON, named as each API names its frames. */
export function malformedFrame(api: Api): string {
  const event = {
    anthropic: 'event: content_block_delta\n',
    'openai-responses': 'event: response.output_text.delta\n',
  }
  return `${api === 'openai' ? '' : event[api]}data: {"choices": [oops\n\n`
}

export function streamErrorFrame(api: Api): string {
  if (api === 'openai') {
    return sse({ data: { error: { message: 'The server had an error mid-stream', type: 'server_error' } } })
  }
  if (api === 'openai-responses') return sse(openAiResponseErrorEvent())
  return sse({
    event: 'error',
    data: { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } },
  })
}

export function errorBody(api: Api, status: number, message: string, requestId: string): unknown {
  return api === 'anthropic'
    ? anthropicErrorBody(status, message, requestId)
    : openAiErrorBody(status, message)
}

export function requestIdHeader(request: MockRequest): Record<string, string> {
  return request.api === 'anthropic'
    ? { 'request-id': `req_mock_${request.index}` }
    : { 'x-request-id': `req_mock_${request.index}` }
}

/** The prefix of generated tool-call ids: OpenAI's `call_…`, Anthropic's `toolu_…`. */
export function idPrefix(api: Api): string {
  return api === 'anthropic' ? 'toolu' : 'call'
}

export function sse(frame: SseFrame): string {
  return `${frame.event ? `event: ${frame.event}\n` : ''}data: ${JSON.stringify(frame.data)}\n\n`
}
