import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { gunzipSync } from 'node:zlib'
import { ConfigError } from '../errors.ts'
import { spansOfOtlpJson } from './otlp-json.ts'
import type { CapturedSpan } from './span.ts'

/** An OTLP/HTTP traces endpoint on loopback, for targets in another process. */
export interface OtlpReceiver {
  /** `http://127.0.0.1:<port>`: what `OTEL_EXPORTER_OTLP_ENDPOINT` is set to */
  endpoint: string
  /** `<endpoint>/v1/traces`: what `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT` is set to */
  tracesUrl: string
  close(): Promise<void>
}

/** Largest request body accepted, as the OpenTelemetry collector's default. */
const MAX_BODY_BYTES = 20 * 1024 * 1024

/**
 * Starts an OTLP/HTTP receiver on 127.0.0.1 (`port`, else a free one) that hands each span it gets to `accept`. It
 * speaks the `http/json` encoding; a protobuf request is answered 415 with a message naming `http/json`. Throws a
 * ConfigError when the port is taken.
 */
export async function startOtlpReceiver(
  accept: (span: CapturedSpan) => void,
  port = 0,
): Promise<OtlpReceiver> {
  const server = createServer((request, response) => {
    void handle(request, response, accept)
  })
  await new Promise<void>((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) => {
      reject(
        error.code === 'EADDRINUSE'
          ? new ConfigError(
              `Trace capture: port ${String(port)} of 127.0.0.1 is taken, so the OTLP receiver cannot start there; stop what listens on it, or give another \`trace: { port }\`.`,
            )
          : error,
      )
    })
    server.listen(port, '127.0.0.1', resolve)
  })
  const endpoint = `http://127.0.0.1:${String((server.address() as AddressInfo).port)}`
  return {
    endpoint,
    tracesUrl: `${endpoint}/v1/traces`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => {
          resolve()
        })
      }),
  }
}

async function handle(
  request: IncomingMessage,
  response: ServerResponse,
  accept: (span: CapturedSpan) => void,
): Promise<void> {
  const reply = (status: number, message?: string) => {
    response.writeHead(status, { 'content-type': 'application/json' })
    response.end(JSON.stringify(message === undefined ? {} : { code: status, message }))
  }
  if (request.method !== 'POST' || request.url?.split('?')[0] !== '/v1/traces') {
    reply(404, 'this OTLP receiver takes traces only: POST /v1/traces')
    return
  }
  const type = request.headers['content-type'] ?? ''
  if (!type.includes('json')) {
    reply(
      415,
      `this OTLP receiver speaks http/json, not ${type || 'an unnamed encoding'}: set OTEL_EXPORTER_OTLP_PROTOCOL=http/json (or OTEL_EXPORTER_OTLP_TRACES_PROTOCOL)`,
    )
    return
  }
  try {
    const chunks: Buffer[] = []
    let size = 0
    for await (const chunk of request as AsyncIterable<Buffer>) {
      size += chunk.length
      if (size > MAX_BODY_BYTES) {
        reply(413, 'the request is larger than 20 MiB')
        return
      }
      chunks.push(chunk)
    }
    let body = Buffer.concat(chunks)
    if (request.headers['content-encoding'] === 'gzip') body = gunzipSync(body)
    for (const span of spansOfOtlpJson(JSON.parse(body.toString('utf8')))) accept(span)
    reply(200)
  } catch (error) {
    reply(400, `not an OTLP/JSON traces request: ${error instanceof Error ? error.message : String(error)}`)
  }
}
