/**
 * Peak RSS and wall time of whole `evals run` processes at 10,000 and 100,000 cases (`npm run bench:reports-memory`),
 * with only `console,json` and with the default reporters (console, json, junit, html): whether the reports keep
 * a large run in flat memory (issue 15's goal: peak RSS at 100k <= 1.5x that at 10k). An instant function target,
 * three checks per case.
 *
 *   npm run bench:reports-memory                  # JSON case files, median of 3 runs each
 *   npm run bench:reports-memory -- --yaml --runs 1
 *
 * JSON case files by default, so case-file parsing does not hide what the reporters hold; `--yaml` writes YAML
 * with `vars` templated into the input, as users write. Peak RSS from /usr/bin/time -v when present, else from
 * polling /proc. Run `npm run build` first: the benchmark spawns bin/evals.js.
 */
import { spawn, spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { parseArgs } from 'node:util'

const { values: flags } = parseArgs({
  options: {
    yaml: { type: 'boolean', default: false },
    runs: { type: 'string', default: '3' },
    sizes: { type: 'string', default: '10000,100000' },
  },
})
const RUNS = Number(flags.runs)
const SIZES = flags.sizes.split(',').map(Number)
const REPORTERS = ['console,json', 'console,json,junit,html']
const repo = resolve(import.meta.dirname, '..')
const work = join(tmpdir(), 'evals-bench-reports-memory')

interface Measure {
  wallS: number
  peakRssMiB: number
}

function generate(n: number): string {
  const dir = join(work, `cases-${n}`)
  mkdirSync(dir, { recursive: true })
  // a project as `evals init` makes it: an ES-module package
  writeFileSync(join(dir, 'package.json'), '{ "type": "module" }\n')
  writeFileSync(join(dir, 'echo.ts'), 'export const echo = (input: string): string => input\n')
  writeFileSync(
    join(dir, 'checks.ts'),
    'export const longEnough = (t: { output: string }): boolean => t.output.length > 3\n',
  )
  const header = { suite: `bench-${n}`, target: { function: './echo.ts#echo' } }
  if (!flags.yaml) {
    const cases = Array.from({ length: n }, (_, i) => ({
      id: `case-${i}`,
      input: `hello ${i}`,
      expect: { contains: `HELLO ${i}`, output_regex: '^hello \\d+$', custom: './checks.ts#longEnough' },
    }))
    writeFileSync(join(dir, 'cases.json'), JSON.stringify({ ...header, cases }))
    return join(dir, 'cases.json')
  }
  const lines = [`suite: ${header.suite}`, 'target: { function: ./echo.ts#echo }', 'cases:']
  for (let i = 0; i < n; i++) {
    lines.push(
      `  - id: case-${i}`,
      `    input: "hello {{n}}"`,
      `    vars: { n: "${i}" }`,
      '    expect:',
      `      contains: HELLO ${i}`,
      `      output_regex: '^hello \\d+$'`,
      '      custom: ./checks.ts#longEnough',
    )
  }
  writeFileSync(join(dir, 'cases.yaml'), `${lines.join('\n')}\n`)
  return join(dir, 'cases.yaml')
}

async function measureRun(file: string, reporters: string): Promise<Measure> {
  const out = join(work, 'reports')
  const timeFile = join(work, 'time.txt')
  const args = [join(repo, 'bin', 'evals.js'), 'run', file, '--out', out, '--reporter', reporters]
  const gnuTime = existsSync('/usr/bin/time')
  const [command, argv] = gnuTime
    ? ['/usr/bin/time', ['-v', '-o', timeFile, process.execPath, ...args]]
    : [process.execPath, args]
  const started = performance.now()
  const child = spawn(command, argv, { cwd: repo, stdio: 'ignore' })
  let polledKb = 0
  const poll = setInterval(() => {
    try {
      const status = readFileSync(`/proc/${String(child.pid)}/status`, 'utf8')
      polledKb = Math.max(polledKb, Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? 0))
    } catch {
      // exited
    }
  }, 20)
  const code = await new Promise<number | null>((done) => child.on('close', done))
  const wallS = (performance.now() - started) / 1000
  clearInterval(poll)
  if (code !== 0) throw new Error(`evals run ${file} --reporter ${reporters} exited ${String(code)}`)
  const kb = gnuTime
    ? Number(/Maximum resident set size \(kbytes\): (\d+)/.exec(readFileSync(timeFile, 'utf8'))?.[1] ?? 0)
    : polledKb
  // outside the timing: the next run is not throttled by this one's writeback
  rmSync(out, { recursive: true, force: true })
  spawnSync('sync')
  return { wallS, peakRssMiB: kb / 1024 }
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  const middle = Math.floor(sorted.length / 2)
  return sorted.length % 2 === 1
    ? (sorted[middle] ?? 0)
    : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2
}

if (!existsSync(join(repo, 'dist', 'bundle', 'main.js'))) throw new Error('run `npm run build` first')
const peaks = new Map<string, number[]>()
console.log(`${flags.yaml ? 'YAML with vars' : 'JSON'} case files, median of ${String(RUNS)} runs`)
for (const n of SIZES) {
  const file = generate(n)
  for (const reporters of REPORTERS) {
    const runs: Measure[] = []
    for (let i = 0; i < RUNS; i++) runs.push(await measureRun(file, reporters))
    const wallS = median(runs.map((run) => run.wallS))
    const peak = median(runs.map((run) => run.peakRssMiB))
    peaks.set(reporters, [...(peaks.get(reporters) ?? []), peak])
    console.log(
      `${n.toLocaleString('en-US').padStart(8)} cases  ${reporters.padEnd(24)} ${wallS.toFixed(2).padStart(7)} s ${peak.toFixed(0).padStart(6)} MiB`,
    )
  }
}
for (const [reporters, [small, large]] of peaks) {
  if (small === undefined || large === undefined) continue
  const growth = large / small
  console.log(
    `${reporters}: peak RSS at ${String(SIZES[1])} is ${growth.toFixed(2)}x that at ${String(SIZES[0])} ` +
      `(goal <= 1.5x: ${growth <= 1.5 ? 'met' : 'MISSED'})`,
  )
}
