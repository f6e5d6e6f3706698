// The provider for bench/rate-limit.ts, in its own process as a real API would be: the mock LLM server enforcing a
// rate limit (argv[2], JSON: a MockRateLimit) after a fixed latency (argv[3], ms). Sends its URL over IPC, and its
// counts (requests, 429s) whenever asked.
import { startMockLlmServer, type MockRateLimit } from '../src/testing/index.ts'

const rateLimit = JSON.parse(process.argv[2] ?? '{}') as MockRateLimit
let requests = 0
const server = await startMockLlmServer({
  handler: () => {
    requests++
    return { text: 'ok' }
  },
  latencyMs: Number(process.argv[3] ?? '60'),
  journal: false,
  rateLimit,
})
process.send?.({ url: server.url })
process.on('message', () => {
  process.send?.({ requests: requests + server.rateLimited, rateLimited: server.rateLimited })
})
process.on('disconnect', () => {
  void server.close().then(() => process.exit(0))
})
