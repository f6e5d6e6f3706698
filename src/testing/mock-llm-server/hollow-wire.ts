import type { ServerResponse } from 'node:http'
import type { MockRequest } from './types.ts'
import { requestIdHeader, sse } from './wires.ts'

export type HollowFault = 'empty-choices' | 'null-message'

/**
 * HTTP 200 and well-formed JSON, but no message in it: what a broken gateway sends. `whole` is the reply's body as
 * it would have been; the Responses API gets `output: []` (`empty-choices`) or a message item with no content.
 */
export function sendHollow(
  res: ServerResponse,
  request: MockRequest,
  fault: HollowFault,
  whole: unknown,
): void {
  const body = whole as Record<string, unknown>
  const empty = fault === 'empty-choices'
  if (!request.stream) {
    res.writeHead(200, { 'content-type': 'application/json', ...requestIdHeader(request) })
    res.end(JSON.stringify(hollowBody(request, body, empty)))
    return
  }
  res.writeHead(200, { 'content-type': 'text/event-stream', ...requestIdHeader(request) })
  res.end(hollowFrames(request, body, empty).join(''))
}

function hollowBody(request: MockRequest, body: Record<string, unknown>, empty: boolean): unknown {
  if (request.api === 'openai') {
    const [choice] = body['choices'] as Record<string, unknown>[]
    return { ...body, choices: empty ? [] : [{ ...choice, message: null }] }
  }
  if (request.api === 'openai-responses') return { ...body, output: hollowOutput(body, empty) }
  return { ...body, content: empty ? undefined : null }
}

function hollowFrames(request: MockRequest, body: Record<string, unknown>, empty: boolean): string[] {
  if (request.api === 'openai') {
    const chunk = { id: `chatcmpl-mock-${request.index}`, object: 'chat.completion.chunk', created: 0 }
    const choices = empty ? [] : [{ index: 0, delta: null, finish_reason: null }]
    return [sse({ data: { ...chunk, model: body['model'], choices } }), 'data: [DONE]\n\n']
  }
  if (request.api === 'openai-responses') {
    const response = { ...body, output: hollowOutput(body, empty) }
    const type = 'response.completed'
    return [sse({ event: type, data: { type, sequence_number: 0, response } })]
  }
  if (!empty) return [sse({ event: 'message_start', data: { type: 'message_start', message: null } })]
  const message = { ...body, content: [], stop_reason: null }
  return [
    sse({ event: 'message_start', data: { type: 'message_start', message } }),
    sse({ event: 'message_stop', data: { type: 'message_stop' } }),
  ]
}

function hollowOutput(body: Record<string, unknown>, empty: boolean): unknown[] {
  if (empty) return []
  const items = body['output'] as Record<string, unknown>[]
  return items.map((item) => (item['type'] === 'message' ? { ...item, content: null } : item))
}
