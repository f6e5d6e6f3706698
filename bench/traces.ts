/**
 * Whole-process benchmark of trace capture: `evals run` on 1,000 generated cases of an in-process function target
 * that emits three GenAI spans per case through the global tracer (an agent's model call and tool call, without a
 * model's latency, so what is measured is capture's own cost), with `--trace` and without, alternating. The issue's
 * bar: capture adds at most 5%. Runs the built bin (`npm run build` first); prints the median wall time of each.
 * `latencyMs` gives each case a model's wait (an agent's real time), against which capture's cost is set.
 *   npm run bench:traces -- [cases] [repeats] [latencyMs]
 */
import { spawnSync } from 'node:child_process'
import { mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

const cases = Number(process.argv[2] ?? 1000)
const repeats = Number(process.argv[3] ?? 5)
const latencyMs = Number(process.argv[4] ?? 0)
const repo = join(import.meta.dirname, '..')
const bin = join(repo, 'bin', 'evals.js')
const work = mkdtempSync(join(tmpdir(), 'evals-bench-traces-'))

// the agent module imports @opentelemetry/api as a user's would: from the project's node_modules
symlinkSync(join(repo, 'node_modules'), join(work, 'node_modules'), 'dir')
writeFileSync(join(work, 'package.json'), '{ "type": "module" }\n')
writeFileSync(
  join(work, 'agent.ts'),
  `import { trace } from '@opentelemetry/api'
const tracer = trace.getTracer('bench-agent')
export const agent = async (input: string): Promise<string> =>
  tracer.startActiveSpan('invoke_agent bench', async (root) => {
    const chat = tracer.startSpan('chat gpt-4.1-mini', { attributes: {
      'gen_ai.operation.name': 'chat', 'gen_ai.provider.name': 'openai', 'gen_ai.request.model': 'gpt-4.1-mini',
      'gen_ai.usage.input_tokens': 100, 'gen_ai.usage.output_tokens': 20 } })
    await new Promise((resolve) => setTimeout(resolve, ${String(latencyMs)}))
    chat.end()
    const tool = tracer.startSpan('execute_tool lookup', { attributes: {
      'gen_ai.operation.name': 'execute_tool', 'gen_ai.tool.name': 'lookup', 'gen_ai.tool.call.arguments': '{"q":1}' } })
    tool.end()
    root.end()
    return input
  })
`,
)
const file = join(work, 'cases.json')
writeFileSync(
  file,
  JSON.stringify({
    suite: 'bench-traces',
    target: { function: './agent.ts#agent' },
    cases: Array.from({ length: cases }, (_, i) => ({
      id: `case-${i}`,
      input: `hello ${i}`,
      expect: { contains: 'hello' },
    })),
  }),
)

function wallSeconds(traced: boolean): number {
  const started = performance.now()
  const run = spawnSync(
    process.execPath,
    [bin, 'run', file, '--reporter', 'json', '--out', join(work, 'out'), ...(traced ? ['--trace'] : [])],
    { stdio: 'ignore' },
  )
  if (run.status !== 0) throw new Error(`evals run${traced ? ' --trace' : ''} exited ${String(run.status)}`)
  return (performance.now() - started) / 1000
}

const median = (values: number[]): number =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0

const times = { off: [] as number[], on: [] as number[] }
wallSeconds(true) // compiles the agent module once, so neither side pays for it
for (let i = 0; i < repeats; i++) {
  times.off.push(wallSeconds(false))
  times.on.push(wallSeconds(true))
}
const [off, on] = [median(times.off), median(times.on)]
console.log(
  `${String(cases)} cases of ${String(latencyMs)} ms, median of ${String(repeats)} alternating runs (Node ${process.version})`,
)
console.log(`  trace capture off: ${off.toFixed(2)} s`)
console.log(`  trace capture on:  ${on.toFixed(2)} s  (${(((on - off) / off) * 100).toFixed(1)}% over off)`)
if (!process.env.KEEP) rmSync(work, { recursive: true, force: true })
else console.log(work)
