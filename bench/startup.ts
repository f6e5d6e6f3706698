/**
 * Start-up (`npm run bench:startup`, after `npm run build`): whole-process wall time of the built bin, the median
 * of 10 runs after one warm-up, for the commands a user types first. Each run is spawned and timed from outside,
 * so Node's own start, module loading and the user's TypeScript are all in the figure. The goals are issue 15's;
 * the first row, Node starting and doing nothing, is the floor under all of them on this machine.
 */
import { spawn } from 'node:child_process'
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

const RUNS = Number(process.env.RUNS ?? 10)
const root = dirname(dirname(fileURLToPath(import.meta.url)))
const bin = join(root, 'bin', 'evals.js')
const out = mkdtempSync(join(tmpdir(), 'evals-bench-startup-'))

/** `args` are Node's: the bin and its arguments, or none of ours for the floor */
const commands: { label: string; args: string[]; goalMs?: number }[] = [
  { label: 'node -e 0 (Node itself)', args: ['-e', '0'] },
  { label: 'evals --version', args: [bin, '--version'], goalMs: 150 },
  {
    label: 'evals run cases/function.yaml',
    args: [bin, 'run', 'cases/function.yaml', '--out', out],
    goalMs: 350,
  },
  {
    label: 'evals run cases/quickstart.yaml',
    args: [bin, 'run', 'cases/quickstart.yaml', '--out', out],
    goalMs: 500,
  },
]

/** One whole process: spawn to exit, in milliseconds; throws when the command fails. */
function timeOnce(args: readonly string[]): Promise<number> {
  return new Promise((resolve, reject) => {
    const started = performance.now()
    const child = spawn(process.execPath, args, { cwd: root, stdio: ['ignore', 'ignore', 'pipe'] })
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

process.stdout.write(`start-up, whole process, median of ${RUNS} runs (min–max)\n\n`)
for (const { label, args, goalMs } of commands) {
  await timeOnce(args)
  const times: number[] = []
  for (let i = 0; i < RUNS; i++) times.push(await timeOnce(args))
  times.sort((a, b) => a - b)
  const med = median(times)
  const spread = `${(times[0] ?? 0).toFixed(0)}–${(times.at(-1) ?? 0).toFixed(0)} ms`
  const verdict = goalMs === undefined ? '' : `  goal ≤ ${goalMs} ms ${med <= goalMs ? 'met' : 'MISSED'}`
  process.stdout.write(`${label.padEnd(34)} ${`${med.toFixed(0)} ms`.padStart(8)}  (${spread})${verdict}\n`)
}
