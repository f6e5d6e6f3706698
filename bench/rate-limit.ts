/**
 * Rate-limited provider (`npm run bench:ratelimit`, after `npm run build`): 600 one-call cases against a provider
 * that allows 40 requests a second (a burst of 10) and answers after 60 ms, at concurrency 32, side by side with
 * promptfoo 0.123.1 on the same cases and the same server; then the same under a tokens-per-minute limit. For each
 * tool: wall time against the limit's floor (the calls over the allowed rate), requests answered 429, and cases
 * errored. The provider is our mock server in its own process, speaking OpenAI's wire format with its
 * `x-ratelimit-*` headers; both tools reach it through OpenAI's SDK (OPENAI_BASE_URL / `apiBaseUrl`).
 *
 *   npm run bench:ratelimit                      # both limits, both tools, evals on Node 24 and on this Node
 *   npm run bench:ratelimit -- --n 200 --no-promptfoo
 *   npm run bench:ratelimit -- --silent          # the provider sends no rate-limit headers (AIMD on 429s)
 *
 * Goal (issue 32): evals <= 1.10x the floor, <= 5% of requests answered 429, 0 errored, under both limits.
 */
import { fork, spawn } from 'node:child_process'
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { parseArgs } from 'node:util'
import type { MockRateLimit } from '../src/testing/index.ts'
import { benchCache, installInto, majorOf, node24 } from './node-versions.ts'

const { values: flags } = parseArgs({
  options: {
    n: { type: 'string', default: '600' },
    concurrency: { type: 'string', default: '32' },
    'latency-ms': { type: 'string', default: '60' },
    'no-promptfoo': { type: 'boolean', default: false },
    silent: { type: 'boolean', default: false },
  },
})
const N = Number(flags.n)
const CONCURRENCY = Number(flags.concurrency)
const LATENCY_MS = Number(flags['latency-ms'])
const repo = resolve(import.meta.dirname, '..')
const work = join(tmpdir(), 'evals-bench-ratelimit')
// every prompt is 40 characters: 10 tokens to the server's count (4 characters a token), for both tools
const prompt = (i: number): string =>
  `Question ${String(i).padStart(6, '0')}: what is two plus two?`.padEnd(40, '.')
const TOKENS_PER_CALL = 10

interface Scenario {
  name: string
  limit: MockRateLimit
  floorS: number
}
const scenarios: Scenario[] = [
  {
    name: '40 requests/s (burst 10)',
    limit: { requestsPerSecond: 40, requestBurst: 10, silent: flags.silent },
    floorS: N / 40,
  },
  {
    name: '24,000 tokens/min (burst 100)',
    limit: { requestsPerSecond: 1000, tokensPerMinute: 24_000, tokenBurst: 100, silent: flags.silent },
    floorS: (N * TOKENS_PER_CALL) / (24_000 / 60),
  },
]

interface Outcome {
  wallS: number
  /** the run's own time, without the process's start-up */
  runS?: number
  requests: number
  rateLimited: number
  errored: number | string
}

interface Provider {
  url: string
  counts: () => Promise<{ requests: number; rateLimited: number }>
  stop: () => void
}

async function startProvider(limit: MockRateLimit): Promise<Provider> {
  const child = fork(
    join(import.meta.dirname, 'rate-limited-server.ts'),
    [JSON.stringify(limit), String(LATENCY_MS)],
    {
      execArgv: ['--import', 'tsx'],
    },
  )
  const next = <T>(): Promise<T> =>
    new Promise((done) =>
      child.once('message', (message) => {
        done(message as T)
      }),
    )
  const { url } = await next<{ url: string }>()
  return {
    url,
    counts: () => {
      const reply = next<{ requests: number; rateLimited: number }>()
      child.send('counts')
      return reply
    },
    stop: () => {
      child.disconnect()
    },
  }
}

/** A tool's run gets at most this many times the floor: promptfoo once backed off for 24 minutes under TPM. */
const MAX_FLOORS = 10

/** Runs a command to its end, or stops it after `limitS`; its wall time in seconds, and whether it was stopped. */
function run(
  command: string,
  args: string[],
  cwd: string,
  env: NodeJS.ProcessEnv,
  limitS = Infinity,
): Promise<{ wallS: number; stopped: boolean }> {
  return new Promise((done, fail) => {
    const started = performance.now()
    const child = spawn(command, args, { cwd, env, stdio: ['ignore', 'ignore', 'pipe'] })
    let stopped = false
    const timer = Number.isFinite(limitS)
      ? setTimeout(() => {
          stopped = true
          child.kill('SIGKILL')
        }, limitS * 1000)
      : undefined
    let stderr = ''
    child.stderr.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-4000)))
    child.on('error', fail)
    child.on('close', (code) => {
      clearTimeout(timer)
      if (!stopped && code !== 0 && code !== 1 && code !== 100)
        process.stderr.write(`${command} exited ${code}:\n${stderr}\n`)
      done({ wallS: (performance.now() - started) / 1000, stopped })
    })
  })
}

/** An ES-module project with an agent that makes one model call, importing this repository as `agent-evals`. */
function evalsProject(): string {
  const dir = join(work, 'evals')
  mkdirSync(join(dir, 'node_modules'), { recursive: true })
  if (!existsSync(join(dir, 'node_modules', 'agent-evals')))
    symlinkSync(repo, join(dir, 'node_modules', 'agent-evals'))
  writeFileSync(join(dir, 'package.json'), '{ "type": "module" }\n')
  writeFileSync(
    join(dir, 'agent.js'),
    "import { Agent } from 'agent-evals'\nexport default new Agent({ name: 'bench', model: 'openai:gpt-4.1-mini' })\n",
  )
  const lines = ['suite: ratelimit', 'target:', '  agent: ./agent.js', 'cases:']
  for (let i = 0; i < N; i++)
    lines.push(`  - id: q${i}`, `    input: "${prompt(i)}"`, '    expect: { contains: ok }')
  writeFileSync(join(dir, 'cases.yaml'), `${lines.join('\n')}\n`)
  return dir
}

async function runEvals(node: string, provider: Provider, floorS: number): Promise<Outcome> {
  const dir = evalsProject()
  const out = join(work, 'reports')
  rmSync(out, { recursive: true, force: true })
  const env = { ...process.env, OPENAI_API_KEY: 'k', OPENAI_BASE_URL: `${provider.url}/v1` }
  const before = await provider.counts()
  const args = [
    join(repo, 'bin', 'evals.js'),
    'run',
    'cases.yaml',
    '--concurrency',
    String(CONCURRENCY),
    '--out',
    out,
  ]
  const { wallS, stopped } = await run(node, args, dir, env, MAX_FLOORS * floorS)
  const after = await provider.counts()
  if (stopped) return stoppedOutcome(wallS, before, after)
  const [runDir] = readdirSync(out)
  const summary = JSON.parse(readFileSync(join(out, runDir ?? '', 'summary.json'), 'utf8')) as {
    counts?: { errored?: number }
    durationMs?: number
  }
  return {
    wallS,
    requests: after.requests - before.requests,
    rateLimited: after.rateLimited - before.rateLimited,
    errored: summary.counts?.errored ?? 'unknown',
    ...(summary.durationMs === undefined ? {} : { runS: summary.durationMs / 1000 }),
  }
}

function promptfooProject(url: string): string {
  const dir = join(work, 'promptfoo')
  mkdirSync(dir, { recursive: true })
  const tests = Array.from({ length: N }, (_, i) => ({
    vars: { input: prompt(i) },
    assert: [{ type: 'icontains', value: 'ok' }],
  }))
  const provider = { id: 'openai:chat:gpt-4.1-mini', config: { apiBaseUrl: `${url}/v1`, apiKey: 'k' } }
  writeFileSync(
    join(dir, 'promptfooconfig.yaml'),
    JSON.stringify({ prompts: ['{{input}}'], providers: [provider], tests }),
  )
  return dir
}

async function runPromptfoo(provider: Provider, floorS: number): Promise<Outcome> {
  const node = node24()
  const main = join(benchCache, 'promptfoo', 'node_modules', 'promptfoo', 'dist', 'src', 'main.js')
  if (!existsSync(main)) installInto(join(benchCache, 'promptfoo'), 'promptfoo@0.123.1', node)
  const dir = promptfooProject(provider.url)
  const env = {
    ...process.env,
    PROMPTFOO_DISABLE_TELEMETRY: '1',
    PROMPTFOO_DISABLE_UPDATE: '1',
    PROMPTFOO_CONFIG_DIR: join(work, 'promptfoo-home'),
    PROMPTFOO_CACHE_ENABLED: 'false',
  }
  const before = await provider.counts()
  const args = [
    main,
    'eval',
    '-c',
    'promptfooconfig.yaml',
    '-o',
    'out.json',
    '--no-cache',
    '-j',
    String(CONCURRENCY),
  ]
  const { wallS, stopped } = await run(
    node,
    [...args, '--no-progress-bar', '--no-table'],
    dir,
    env,
    MAX_FLOORS * floorS,
  )
  const after = await provider.counts()
  if (stopped) return stoppedOutcome(wallS, before, after)
  const output = JSON.parse(readFileSync(join(dir, 'out.json'), 'utf8')) as {
    results?: { stats?: { errors?: number } }
  }
  return {
    wallS,
    requests: after.requests - before.requests,
    rateLimited: after.rateLimited - before.rateLimited,
    errored: output.results?.stats?.errors ?? 'unknown',
  }
}

/** A run stopped at its limit: what the provider saw of it. */
function stoppedOutcome(
  wallS: number,
  before: { requests: number; rateLimited: number },
  after: { requests: number; rateLimited: number },
): Outcome {
  return {
    wallS,
    requests: after.requests - before.requests,
    rateLimited: after.rateLimited - before.rateLimited,
    errored: `? (stopped unfinished after ${String(MAX_FLOORS)}x the floor)`,
  }
}

function line(tool: string, outcome: Outcome, floorS: number): string {
  const ratio = outcome.wallS / floorS
  const share = outcome.requests === 0 ? 0 : (100 * outcome.rateLimited) / outcome.requests
  return (
    `  ${tool.padEnd(22)} ${outcome.wallS.toFixed(1).padStart(6)} s = ${ratio.toFixed(2)}x the floor  ` +
    `${String(outcome.rateLimited).padStart(4)} of ${String(outcome.requests).padStart(4)} requests answered 429 ` +
    `(${share.toFixed(1)}%)  errored ${outcome.errored}` +
    (outcome.runS === undefined ? '' : `  (the run itself ${outcome.runS.toFixed(1)} s)`)
  )
}

if (!existsSync(join(repo, 'dist', 'bundle', 'main.js'))) throw new Error('run `npm run build` first')
mkdirSync(work, { recursive: true })
console.log(
  `${N} one-call cases, concurrency ${CONCURRENCY}, provider latency ${LATENCY_MS} ms` +
    (flags.silent ? ', no rate-limit headers' : ''),
)
for (const scenario of scenarios) {
  console.log(`\n${scenario.name}: floor ${scenario.floorS.toFixed(1)} s`)
  for (const node of [node24(), process.execPath]) {
    const provider = await startProvider(scenario.limit)
    const outcome = await runEvals(node, provider, scenario.floorS)
    provider.stop()
    console.log(line(`evals (Node ${majorOf(node)})`, outcome, scenario.floorS))
  }
  if (!flags['no-promptfoo']) {
    const provider = await startProvider(scenario.limit)
    const outcome = await runPromptfoo(provider, scenario.floorS)
    provider.stop()
    console.log(line('promptfoo 0.123.1', outcome, scenario.floorS))
  }
}
rmSync(work, { recursive: true, force: true })
