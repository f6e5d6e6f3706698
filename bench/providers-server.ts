// The mock LLM server for bench/providers.ts, in its own process as a real remote API would be.
// Answers a tool call first, then text once the conversation holds a tool result; sends its URL over IPC, and its
// CPU time (µs) whenever asked.
import { startMockLlmServer, type MockReply, type MockRequest } from '../src/testing/index.ts'

function reply(request: MockRequest): MockReply {
  const body = JSON.stringify(request.body)
  const hasResult = body.includes('"role":"tool"') || body.includes('"type":"tool_result"')
  return hasResult
    ? { text: 'It is 21°C in Paris.' }
    : { toolCalls: [{ name: 'get_weather', args: { city: 'Paris' } }] }
}

const server = await startMockLlmServer({
  handler: reply,
  latencyMs: Number(process.argv[2] ?? '20'),
  journal: false,
})
process.send?.(server.url)
// the bench asks for the server's CPU time before and after each measurement
process.on('message', () => {
  const { user, system } = process.cpuUsage()
  process.send?.(user + system)
})
process.on('disconnect', () => {
  void server.close().then(() => process.exit(0))
})
