/** The example server for cases/http/faq.yaml: POST /ask { question } → { answer }. Port: $PORT or 8787. */
import { createServer } from 'node:http'
import { answer } from '../fns/faq.ts'

const port = Number(process.env.PORT ?? 8787)

createServer((request, response) => {
  let body = ''
  request.on('data', (chunk: Buffer) => (body += chunk.toString()))
  request.on('end', () => {
    if (request.method !== 'POST' || request.url !== '/ask') {
      response.writeHead(404, { 'content-type': 'application/json' }).end('{"error":"POST /ask"}')
      return
    }
    const { question = '' } = JSON.parse(body || '{}') as { question?: string }
    response
      .writeHead(200, { 'content-type': 'application/json' })
      .end(JSON.stringify({ answer: answer(question) }))
  })
}).listen(port, '127.0.0.1', () => {
  process.stdout.write(`faq server on http://127.0.0.1:${port}/ask\n`)
})
