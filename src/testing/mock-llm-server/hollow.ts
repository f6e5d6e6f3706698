import type { ServerResponse } from 'node:http'
import type { MockRequest } from './types.ts'
import { requestIdHeader, sse } from './wires.ts'

export type HollowFault = 'empty-choices' | 'null-message'

/** HTTP 200 and well-formed JSON, but no message in it: what a broken gateway sends. */
export function sendHollow(
  res: ServerResponse,
  request: MockRequest,
  fault: HollowFault,
  whole: unknown,
): void {
  const body = whole as Record<string, unknown>
  const empty = fault === 'empty-choices'
  if (!request.stream) {
    if (request.api === 'openai-responses') {
      sendJson(res, 200, { ...body, output: empty ? [] : null })
    } else if (request.api === 'openai') {
      const [choice] = body['choices'] as Record<string, unknown>[]
      sendJson(res, 200, { ...body, choices: empty ? [] : [{ ...choice, message: null }] })
    } else sendJson(res, 200, { ...body, content: empty ? undefined : null })
    return
  }
  res.writeHead(200, { 'content-type': 'text/event-stream', ...requestIdHeader(request) })
  if (request.api === 'openai-responses') {
    const response = { ...body, output: empty ? [] : null }
    res.end(
      sse({
        event: 'response.completed',
        data: { type: 'response.completed', response, sequence_number: 0 },
      }),
    )
  } else if (request.api === 'openai') {
    const chunk = { id: `chatcmpl-mock-${request.index}`, object: 'chat.completion.chunk', created: 0 }
    const choices = empty ? [] : [{ index: 0, delta: null, finish_reason: null }]
    res.end(`${sse({ data: { ...chunk, model: body['model'], choices } })}data: [DONE]\n\n`)
  } else if (empty) {
    const message = { ...body, content: [], stop_reason: null }
    res.end(
      sse({ event: 'message_start', data: { type: 'message_start', message } }) +
        sse({ event: 'message_stop', data: { type: 'message_stop' } }),
    )
  } else res.end(sse({ event: 'message_start', data: { type: 'message_start', message: null } }))
}

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' })
  res.end(JSON.stringify(body))
}
