/**
 * Every input of the fuzz corpus (tests/fixtures/fuzz) through the built bin: a clear message, no stack, no hang, no
 * crash, exit 2, and a peak resident set under 500 MB. They run a few at a time, to stay quick on two cores.
 */
import { spawn } from 'node:child_process'
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import pLimit from 'p-limit'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { bin, ensureBuilt } from './helpers.ts'

const corpus = join(import.meta.dirname, '..', 'fixtures', 'fuzz')
const dir = mkdtempSync(join(tmpdir(), 'evals-fuzz-'))
const out = join(dir, 'reports')

interface Input {
  name: string
  args: string[]
  says: RegExp
}

const inputs: Input[] = [
  {
    name: 'trials: 1e9',
    args: [join(corpus, 'trials-1e9.yaml')],
    says: /trials: at most 10,000 trials per case/,
  },
  {
    name: '--trials 1e9',
    args: [join(corpus, 'plain.yaml'), '--trials', '1000000000'],
    says: /at most 10,000/,
  },
  {
    name: 'a dataset that is a folder',
    args: [join(corpus, 'dataset-folder.yaml')],
    says: /a-folder` is a directory/,
  },
  { name: 'a dataset that is a device', args: [join(corpus, 'dataset-device.yaml')], says: /\/dev\/zero/ },
  {
    name: 'a case file that is a folder',
    args: [join(corpus, 'a-folder')],
    says: /is a directory, not a file/,
  },
  { name: 'a case file that is a device', args: ['/dev/zero'], says: /`\/dev\/zero` is a device/ },
  { name: 'a case file that is a FIFO', args: [join(dir, 'fifo.yaml')], says: /is a FIFO, not a file/ },
  { name: '130,000 problems', args: [join(dir, 'many-problems.yaml')], says: /… and [\d,]+ more/ },
  {
    name: 'JSON nested 100,000 deep',
    args: [join(dir, 'deep.json')],
    says: /nests values 100,\d+ levels deep/,
  },
  {
    name: 'a 241-character suite name as a baseline file name',
    args: [join(corpus, 'long-suite-name.yaml'), '--update-baseline'],
    says: /too long for the file system/,
  },
  {
    name: '--out on a device',
    args: [join(corpus, 'plain.yaml'), '--out', '/dev/full'],
    says: /is a file, not a folder/,
  },
  {
    name: '--out where no folder can be made',
    args: [join(corpus, 'plain.yaml'), '--out', '/proc/evals-out'],
    says: /`\/proc\/evals-out`/,
  },
  {
    name: 'a cassette path that is a folder',
    args: [join(dir, 'plain.yaml'), '--replay'],
    says: /cassette `.*plain\.jsonl` is a folder/,
  },
]

beforeAll(() => {
  ensureBuilt()
  const lines = ['suite: many', 'target: { function: ./fn.ts#answer }', 'cases:']
  for (let i = 0; i < 130_000; i++) lines.push(`  - { idd: x${String(i)} }`)
  writeFileSync(join(dir, 'many-problems.yaml'), `${lines.join('\n')}\n`)
  const vars = `${'['.repeat(100_000)}${']'.repeat(100_000)}`
  writeFileSync(
    join(dir, 'deep.json'),
    `{"suite":"deep","target":{"function":"./fn.ts#answer"},"cases":[{"id":"a","input":"hi","vars":${vars}}]}`,
  )
  copyFileSync(join(corpus, 'fn.ts'), join(dir, 'fn.ts'))
  copyFileSync(join(corpus, 'plain.yaml'), join(dir, 'plain.yaml'))
  mkdirSync(join(dir, '__cassettes__', 'plain.jsonl'), { recursive: true })
  const mkfifo = spawn('mkfifo', [join(dir, 'fifo.yaml')])
  return new Promise<void>((done) =>
    mkfifo.on('close', () => {
      done()
    }),
  )
}, 180_000)

afterAll(() => {
  rmSync(dir, { recursive: true, force: true })
})

interface Outcome {
  code: number | null
  signal: string | null
  stderr: string
  peakMb: number
}

/** The bin with `args` (cwd: the scratch folder), its peak RSS written by a preload at exit; killed after 60 s. */
function evals(args: readonly string[]): Promise<Outcome> {
  const rss = join(dir, `rss-${String(Math.random()).slice(2)}`)
  // one preload per child: rewritten while another child loads it, a shared one can be read empty
  const preload = `${rss}.cjs`
  writeFileSync(
    preload,
    "process.on('exit', () => require('node:fs').writeFileSync(process.env.EVALS_RSS_FILE, String(process.resourceUsage().maxRSS)))\n",
  )
  const child = spawn(
    process.execPath,
    ['--require', preload, bin, 'run', ...args, ...(args.includes('--out') ? [] : ['--out', out])],
    {
      cwd: dir,
      env: { ...process.env, EVALS_RSS_FILE: rss, NO_COLOR: '1' },
      stdio: ['ignore', 'ignore', 'pipe'],
    },
  )
  let stderr = ''
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
  const timer = setTimeout(() => child.kill('SIGKILL'), 60_000)
  return new Promise((done) => {
    child.on('close', (code, signal) => {
      clearTimeout(timer)
      let peakMb = Number.NaN
      try {
        peakMb = Number(readFileSync(rss, 'utf8')) / 1024
      } catch {
        // no exit handler ran: a crash or a kill, which the code and signal show
      }
      done({ code, signal, stderr, peakMb })
    })
  })
}

test('each input of the fuzz corpus gets a clear message and exit 2, no stack, no hang, under 500 MB', async () => {
  const limit = pLimit(3)
  const outcomes = await Promise.all(
    inputs.map((input) => limit(async () => [input, await evals(input.args)] as const)),
  )
  const wrong = outcomes.flatMap(([input, outcome]) => {
    const problems: string[] = []
    if (outcome.code !== 2) problems.push(`exit ${String(outcome.code)} (signal ${String(outcome.signal)})`)
    if (/^\s+at .+:\d+:\d+\)?$/m.test(outcome.stderr)) problems.push('a stack trace')
    if (!input.says.test(outcome.stderr)) problems.push(`no message matching ${String(input.says)}`)
    if (outcome.stderr.split('\n').length > 60)
      problems.push(`${String(outcome.stderr.split('\n').length)} lines`)
    if (!(outcome.peakMb < 500)) problems.push(`peak RSS ${outcome.peakMb.toFixed(0)} MB`)
    return problems.length === 0
      ? []
      : [`${input.name}: ${problems.join(', ')}\n${outcome.stderr.slice(0, 500)}`]
  })
  expect(wrong).toEqual([])
}, 240_000)
