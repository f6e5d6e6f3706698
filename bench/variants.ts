/**
 * Whole-process benchmark of `evals run` on 10,000 generated cases (an instant echo function target, three checks
 * each), once plainly and once with two variants: the bar is that two variants take at most 2.2× the time of
 * one. Runs the built bin (`npm run build` first); prints the median wall time of each over a few alternating runs.
 *   npm run bench:variants -- [cases] [repeats]
 */
import { spawnSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

const cases = Number(process.argv[2] ?? 10_000)
const repeats = Number(process.argv[3] ?? 3)
const bin = join(import.meta.dirname, '..', 'bin', 'evals.js')
const work = mkdtempSync(join(tmpdir(), 'evals-bench-variants-'))

function generate(name: string, variants: Record<string, unknown>): string {
  const dir = join(work, name)
  mkdirSync(dir, { recursive: true })
  // a project as `evals init` makes it: an ES-module package
  writeFileSync(join(dir, 'package.json'), '{ "type": "module" }\n')
  writeFileSync(join(dir, 'echo.ts'), 'export const echo = (input: string): string => input\n')
  writeFileSync(
    join(dir, 'checks.ts'),
    'export const longEnough = (transcript: { output: string }): boolean => transcript.output.length > 3\n',
  )
  const entries = Array.from({ length: cases }, (_, i) => ({
    id: `case-${i}`,
    input: `hello ${i}`,
    expect: { contains: `HELLO ${i}`, output_regex: '^hello \\d+$', custom: './checks.ts#longEnough' },
  }))
  const file = join(dir, 'cases.json')
  const suite = { suite: 'bench', target: { function: './echo.ts#echo' }, ...variants, cases: entries }
  writeFileSync(file, JSON.stringify(suite))
  return file
}

function wallSeconds(file: string): number {
  const started = performance.now()
  const run = spawnSync(
    process.execPath,
    [bin, 'run', file, '--reporter', 'json', '--out', join(work, 'out')],
    {
      stdio: 'ignore',
    },
  )
  if (run.status !== 0) throw new Error(`evals run ${file} exited ${String(run.status)}`)
  return (performance.now() - started) / 1000
}

const median = (values: number[]): number =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0

const one = generate('one', {})
const two = generate('two', { variants: [{ name: 'a' }, { name: 'b', vars: { version: 2 } }] })
const times = { one: [] as number[], two: [] as number[] }
for (let i = 0; i < repeats; i++) {
  times.one.push(wallSeconds(one))
  times.two.push(wallSeconds(two))
}
const [a, b] = [median(times.one), median(times.two)]
console.log(
  `${cases} cases: one variant ${a.toFixed(2)} s, two variants ${b.toFixed(2)} s, ratio ${(b / a).toFixed(2)}× (bar ≤ 2.2×)`,
)
rmSync(work, { recursive: true, force: true })
