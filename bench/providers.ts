// Agent runs per second through the real SDKs against the mock LLM server, against the ideal for the latency.
// Each run is two model calls (a tool call, then the answer); the server adds a fixed latency to every call.
// Ideal = concurrency / (latency × calls per run). Target: ≥ 90% of ideal.
// The server runs in a child process, as a remote API would, so its CPU time is not charged to the client.
// Usage: npm run bench:providers [-- --runs 2000 --concurrency 32 --latency 20 --api openai,anthropic --fetch http]
// `--fetch builtin` sends the SDKs' requests through Node's built-in fetch instead of the providers' default.
import { fork } from 'node:child_process'
import { once } from 'node:events'
import { parseArgs } from 'node:util'
import pLimit from 'p-limit'
import { z } from 'zod'
import { Agent } from '../src/engine/agent.ts'
import { AnthropicProvider } from '../src/providers/anthropic.ts'
import { OpenAiProvider } from '../src/providers/openai.ts'
import type { Provider } from '../src/providers/provider.ts'
import { tool } from '../src/tools/tool.ts'

const { values } = parseArgs({
  options: {
    runs: { type: 'string', default: '2000' },
    concurrency: { type: 'string', default: '32' },
    latency: { type: 'string', default: '20' },
    api: { type: 'string', default: 'openai,anthropic' },
    fetch: { type: 'string', default: 'http' },
  },
})
const runs = Number(values.runs)
const concurrency = Number(values.concurrency)
const latencyMs = Number(values.latency)
const callsPerRun = 2
const ideal = concurrency / ((latencyMs / 1000) * callsPerRun)

const getWeather = tool({
  name: 'get_weather',
  description: 'Current weather for a city',
  parameters: z.object({ city: z.string() }),
  execute: ({ city }) => ({ city, tempC: 21 }),
})

if (values.fetch !== 'http' && values.fetch !== 'builtin') {
  throw new Error(`Unknown --fetch "${values.fetch}". Known: http, builtin.`)
}
const fetchOption = values.fetch === 'builtin' ? { fetch: globalThis.fetch } : {}
const providers: Record<string, (url: string) => Provider> = {
  openai: (url) =>
    new OpenAiProvider({ model: 'gpt-test', apiKey: 'sk-bench', baseURL: `${url}/v1`, ...fetchOption }),
  anthropic: (url) =>
    new AnthropicProvider({ model: 'claude-test', apiKey: 'ant-bench', baseURL: url, ...fetchOption }),
}

interface Measurement {
  seconds: number
  failed: number
  /** client process CPU time per run (user + system), which other load on the machine does not inflate much */
  cpuMsPerRun: number
  /** the same for the server process, which shares the machine's cores */
  serverCpuMsPerRun: number
}

/** The server process's CPU time (user + system) in ms, asked over IPC. */
async function serverCpuMs(): Promise<number> {
  server.send('cpu')
  const [micros] = (await once(server, 'message')) as [number]
  return micros / 1000
}

async function measure(agent: Agent, count: number): Promise<Measurement> {
  const limit = pLimit(concurrency)
  let failed = 0
  const serverCpu = await serverCpuMs()
  const cpu = process.cpuUsage()
  const started = performance.now()
  await Promise.all(
    Array.from({ length: count }, () =>
      limit(async () => {
        const result = await agent.run('Weather in Paris?')
        if (result.stopReason !== 'final' || result.iterations !== callsPerRun) failed++
      }),
    ),
  )
  const seconds = (performance.now() - started) / 1000
  const { user, system } = process.cpuUsage(cpu)
  return {
    seconds,
    failed,
    cpuMsPerRun: (user + system) / 1000 / count,
    serverCpuMsPerRun: ((await serverCpuMs()) - serverCpu) / count,
  }
}

console.log(
  `provider throughput: ${runs} agent runs × ${callsPerRun} calls, ${latencyMs} ms added latency per call, concurrency ${concurrency}, ${values.fetch} fetch`,
)
console.log(`  ideal ${ideal.toFixed(1)} runs/s`)
const server = fork(new URL('./providers-server.ts', import.meta.url).pathname, [String(latencyMs)], {
  // `node --cpu-prof --cpu-prof-dir=… --import tsx bench/providers.ts` profiles the server as well
  execArgv: ['--import', 'tsx', ...process.execArgv.filter((arg) => arg.startsWith('--cpu-prof'))],
})
const [url] = (await once(server, 'message')) as [string]
let worst = Infinity
for (const api of values.api.split(',')) {
  const make = providers[api]
  if (!make) throw new Error(`Unknown --api "${api}". Known: ${Object.keys(providers).join(', ')}.`)
  const agent = new Agent({ model: make(url), tools: [getWeather] })
  await measure(agent, concurrency * 2)
  const { seconds, failed, cpuMsPerRun, serverCpuMsPerRun } = await measure(agent, runs)
  const achieved = runs / seconds
  const share = achieved / ideal
  worst = Math.min(worst, share)
  console.log(
    `  ${api.padEnd(9)} ${achieved.toFixed(1)} runs/s in ${seconds.toFixed(2)} s = ${(share * 100).toFixed(1)}% of ideal; client CPU ${cpuMsPerRun.toFixed(2)} ms/run (one core saturates at ${(1000 / cpuMsPerRun).toFixed(0)} runs/s), server CPU ${serverCpuMsPerRun.toFixed(2)} ms/run${failed ? `, ${failed} runs failed` : ''}`,
  )
  if (failed) process.exitCode = 1
}
server.disconnect()
console.log(`  target ≥ 90% of ideal: ${worst >= 0.9 ? 'PASS' : 'FAIL'}`)
if (worst < 0.9) process.exitCode = 1
