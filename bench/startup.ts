/**
 * Start-up (`npm run bench:startup`, after `npm run build`): whole-process wall time of the built bin, the median
 * of 10 runs after one warm-up, for the commands a user types first, on the Node running this script (20 on our
 * machines) and on Node 24 (what users run; installed once from npm). Each run is spawned and timed from outside,
 * so Node's own start, module loading and the user's TypeScript are all in the figure. The first row of each
 * Node, Node starting and doing nothing, is the floor under the others. On Node >= 22.1 the bin turns on Node's
 * module compile cache; the warm-up run fills it (in a fresh folder, so earlier runs do not count), as a user's
 * first run does. Goals (issue 32, Node 24): --version <= Node's start + 30 ms, function.yaml <= 300 ms,
 * quickstart.yaml <= 450 ms; Node 20 no slower than before.
 */
import { spawn } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { majorOf, node24 } from './node-versions.ts'

const RUNS = Number(process.env.RUNS ?? 10)
const root = dirname(dirname(fileURLToPath(import.meta.url)))
const bin = join(root, 'bin', 'evals.js')
const out = mkdtempSync(join(tmpdir(), 'evals-bench-startup-'))

/** `args` are Node's: the bin and its arguments, or none of ours for the floor */
/** `goalMs` is for Node 24; a function of the floor where the goal is relative to Node's own start */
const commands: { label: string; args: string[]; goalMs?: (floorMs: number) => number }[] = [
  { label: 'node -e 0 (Node itself)', args: ['-e', '0'] },
  { label: 'evals --version', args: [bin, '--version'], goalMs: (floor) => floor + 30 },
  {
    label: 'evals run cases/function.yaml',
    args: [bin, 'run', 'cases/function.yaml', '--out', out],
    goalMs: () => 300,
  },
  {
    label: 'evals run cases/quickstart.yaml',
    args: [bin, 'run', 'cases/quickstart.yaml', '--out', out],
    goalMs: () => 450,
  },
]

/** One whole process: spawn to exit, in milliseconds; throws when the command fails. */
function timeOnce(node: string, args: readonly string[], env: NodeJS.ProcessEnv): Promise<number> {
  return new Promise((resolve, reject) => {
    const started = performance.now()
    const child = spawn(node, args, { cwd: root, env, stdio: ['ignore', 'ignore', 'pipe'] })
    let stderr = ''
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
    child.on('error', reject)
    child.on('close', (code) => {
      const ms = performance.now() - started
      if (code === 0) resolve(ms)
      else reject(new Error(`node ${args.join(' ')} exited with ${String(code)}:\n${stderr}`))
    })
  })
}

const median = (sorted: readonly number[]): number => {
  const middle = Math.floor(sorted.length / 2)
  return sorted.length % 2 === 1
    ? (sorted[middle] ?? 0)
    : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2
}

async function timeNode(node: string): Promise<void> {
  const major = majorOf(node)
  const cache = mkdtempSync(join(tmpdir(), 'evals-bench-compile-cache-'))
  const env = { ...process.env, NODE_COMPILE_CACHE: cache }
  process.stdout.write(`\nNode ${major}${major >= 22 ? ' (module compile cache on)' : ''}\n`)
  let floor = 0
  for (const { label, args, goalMs } of commands) {
    await timeOnce(node, args, env)
    const times: number[] = []
    for (let i = 0; i < RUNS; i++) times.push(await timeOnce(node, args, env))
    times.sort((a, b) => a - b)
    const med = median(times)
    if (goalMs === undefined) floor = med
    const spread = `${(times[0] ?? 0).toFixed(0)}–${(times.at(-1) ?? 0).toFixed(0)} ms`
    const goal = major >= 24 ? goalMs?.(floor) : undefined
    const verdict =
      goal === undefined ? '' : `  goal <= ${goal.toFixed(0)} ms ${med <= goal ? 'met' : 'MISSED'}`
    process.stdout.write(`${label.padEnd(34)} ${`${med.toFixed(0)} ms`.padStart(8)}  (${spread})${verdict}\n`)
  }
  rmSync(cache, { recursive: true, force: true })
}

process.stdout.write(`start-up, whole process, median of ${RUNS} runs (min–max)\n`)
await timeNode(process.execPath)
await timeNode(node24())
rmSync(out, { recursive: true, force: true })
