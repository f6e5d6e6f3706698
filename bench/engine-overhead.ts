// Framework overhead per agent run, ours against the Vercel AI SDK (`ai@6` generateText with its mock model).
// Each sample is a fresh process; samples alternate between frameworks; the figure is the median of the samples.
// Usage: npm run bench:engine [-- --runs 5000 --samples 5]
import { execFileSync } from 'node:child_process'
import { parseArgs } from 'node:util'

const { values } = parseArgs({
  options: { runs: { type: 'string', default: '5000' }, samples: { type: 'string', default: '5' } },
})
const frameworks = ['evals', 'ai-sdk'] as const
const samples: Record<(typeof frameworks)[number], number[]> = { evals: [], 'ai-sdk': [] }
const worker = new URL('./engine-overhead-worker.ts', import.meta.url).pathname

for (let sample = 0; sample < Number(values.samples); sample++) {
  for (const framework of frameworks) {
    const output = execFileSync(process.execPath, ['--import', 'tsx', worker, framework, values.runs], {
      encoding: 'utf8',
    })
    const { usPerRun } = JSON.parse(output.trim().split('\n').at(-1) ?? '{}') as { usPerRun: number }
    samples[framework].push(usPerRun)
    process.stderr.write(`  sample ${sample + 1} ${framework}: ${usPerRun.toFixed(1)} µs/run\n`)
  }
}

const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b)
  const middle = Math.floor(sorted.length / 2)
  return sorted.length % 2 ? (sorted[middle] ?? 0) : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2
}
const ours = median(samples.evals)
const theirs = median(samples['ai-sdk'])
console.log(
  `engine overhead per run (one tool turn + final answer, zero-latency model), ${values.runs} runs × ${values.samples} processes`,
)
console.log(`  evals   median ${ours.toFixed(1)} µs/run`)
console.log(`  ai@6    median ${theirs.toFixed(1)} µs/run`)
const TARGET = 0.3
const pass = ours <= TARGET * theirs
console.log(
  `  ratio   evals/ai = ${(ours / theirs).toFixed(2)} (target ≤ ${TARGET.toFixed(2)}, issue 31) ${pass ? 'PASS' : 'FAIL'}`,
)
process.exitCode = pass ? 0 : 1
