import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { beforeAll, describe, expect, test } from 'vitest'
import { ensureBuilt, runCli } from './helpers.ts'

const fixtures = join(import.meta.dirname, 'fixtures')
const out = (): string => mkdtempSync(join(tmpdir(), 'evals-e2e-'))
const ANSI = new RegExp(String.fromCharCode(27) + '\\[')

beforeAll(() => {
  ensureBuilt()
}, 120_000)

describe('evals (built bin)', () => {
  test('prints the version quickly', async () => {
    const run = await runCli(['--version'])
    expect(run).toMatchObject({
      code: 0,
      stdout: `${(JSON.parse(readFileSync('package.json', 'utf8')) as { version: string }).version}\n`,
    })
  })

  test('prints help with the commands and exit codes', async () => {
    const run = await runCli(['--help'])
    expect(run.code).toBe(0)
    expect(run.stdout).toContain('evals run <cases.yaml|glob…> [options]')
    expect(run.stdout).toContain(
      'Exit codes: 0 all passed (gate warnings included); 1 the gate failed, or a case failed (with the default\n' +
        '`--fail-on failure`; `expect_fail` cases aside); 2 the run could not happen, or cases only errored — an\n' +
        'infrastructure failure (target crashed or timed out, a check threw, a broken baseline), not a quality failure;\n' +
        '130 interrupted. The `Outcome` line says which happened.\n',
    )
  })

  test('rejects an unknown flag with exit code 2 and a did-you-mean', async () => {
    const run = await runCli(['run', 'cases/quickstart.yaml', '--concurency', '2'])
    expect(run.code).toBe(2)
    expect(run.stderr).toBe(
      'evals run: unknown option `--concurency`. Did you mean `--concurrency`? Run `evals run --help` for the options.\n',
    )
  })

  test('runs the quickstart offline: every case passes, exit code 0, plain text when not a TTY', async () => {
    const dir = out()
    const run = await runCli(['run', 'cases/quickstart.yaml', '--out', dir])
    expect(run.stderr).toBe('')
    // the run's own lines say which check failed
    expect(run.code, run.stdout).toBe(0)
    expect(run.stdout).toMatch(/Cases {5}10 passed · 0 failed · 0 errored · 0 skipped/)
    expect(run.stdout).toContain('Accuracy  100.0% weighted')
    expect(run.stdout).toMatch(/Latency {3}p50 \S+ · p95 \S+ · p99 \S+/)
    expect(run.stdout).not.toMatch(ANSI)
    const [runId] = readdirSync(dir)
    const lines = readFileSync(join(dir, runId ?? '', 'results.jsonl'), 'utf8')
      .trim()
      .split('\n')
    expect(lines).toHaveLength(10)
    expect(JSON.parse(readFileSync(join(dir, runId ?? '', 'summary.json'), 'utf8'))).toMatchObject({
      counts: { passed: 10 },
    })
  })

  test('exits 1 on the failing example and lists each failing case with the evaluator and why', async () => {
    const run = await runCli(['run', 'cases/failing/failing-example.yaml', '--out', out()])
    expect(run.code).toBe(1)
    expect(run.stdout).toContain(
      '✗ failing-example › paraphrased-refund\n      tool: expected tool `refund_payment`, agent called `order_status`',
    )
    expect(run.stdout).toContain(
      '✗ failing-example › echoes-injection\n      no_injection: output contains a prompt injection',
    )
    expect(run.stdout).toMatch(/1 passed · 2 failed/)
  })

  test('selects cases with --tag and --filter', async () => {
    const byTag = await runCli(['run', 'cases/quickstart.yaml', '--tag', 'billing', '--out', out()])
    expect(byTag.stdout).toMatch(/2 passed · 0 failed/)
    const byId = await runCli(['run', 'cases/quickstart.yaml', '--filter', 'order*', '--out', out()])
    expect(byId.stdout).toMatch(/1 passed · 0 failed/)
  })

  test('prints every case-file issue, runs nothing and exits 2', async () => {
    const dir = out()
    const run = await runCli(['run', join(fixtures, 'bad.yaml'), '--out', dir])
    expect(run.code).toBe(2)
    expect(run.stderr).toMatch(/bad\.yaml:8:7: cases\[0\]\.expect\.tol: .*`tool`/)
    expect(run.stderr).toMatch(/bad\.yaml:\d+:\d+: cases\[1\]\.id: .*one/)
    expect(run.stderr).toMatch(/bad\.yaml:10:\d+: cases\[1\]\.input/)
    expect(run.stderr).toMatch(/\d+ problems in the case files; nothing ran\./)
    expect(readdirSync(dir)).toEqual([])
  })

  test.each([
    [
      'a YAML alias bomb',
      [
        'a: &a [x, x, x, x, x, x, x, x, x]',
        'b: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a]',
        'c: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b]',
        'd: &d [*c, *c, *c, *c, *c, *c, *c, *c, *c]',
        'e: [*d, *d, *d, *d, *d, *d, *d, *d, *d]',
      ],
      /^.*bomb\.yaml:2:8: the aliases expand to more than 1000 nodes/,
    ],
    ['a bad merge', ['suite: s', 'defaults:', '  <<: 1'], /^.*bomb\.yaml:3:3: Merge sources must be maps/],
  ])('prints %s as one located line, without a stack, and exits 2', async (_, lines, message) => {
    const dir = out()
    const file = join(dir, 'bomb.yaml')
    writeFileSync(file, `${lines.join('\n')}\n`)
    const run = await runCli(['run', file, '--out', dir])
    expect(run.code).toBe(2)
    expect(run.stderr).toMatch(message)
    expect(run.stderr).not.toMatch(/^\s+at /m)
  })

  test('exits 2 before any case runs when the model needs an API key that is not set', async () => {
    const dir = out()
    const run = await runCli(['run', join(fixtures, 'needs-key.yaml'), '--out', dir], {
      env: { OPENAI_API_KEY: '' },
    })
    expect(run.code).toBe(2)
    expect(run.stderr).toContain('OPENAI_API_KEY')
    expect(readdirSync(dir)).toEqual([])
  })

  test('marks a hung target errored after --timeout, finishes the other cases and exits 2 (infrastructure, not quality)', async () => {
    const run = await runCli(['run', join(fixtures, 'hang.yaml'), '--timeout', '300', '--out', out()])
    expect(run.code).toBe(2)
    expect(run.stdout).toMatch(/1 passed · 0 failed · 1 errored/)
    expect(run.stdout).toContain('Errored   infrastructure failures only')
    expect(run.stdout).toContain('error: TimeoutError: case `hangs` took longer than 300ms')
    // not waiting on the hung case: without the timeout the run would last the test's 60 s; a loaded CI machine
    // takes 6 s to start, compile the fixture and run the rest
    expect(run.ms).toBeLessThan(15_000)
  })

  test('on Ctrl-C stops starting cases, writes what finished, exits 130 and says how to resume with the same concurrency', async () => {
    const dir = out()
    const run = await runCli(['run', join(fixtures, 'slow.yaml'), '--concurrency', '2', '--out', dir], {
      onStart: (child) => {
        child.stdout?.once('data', () => {
          setTimeout(() => child.kill('SIGINT'), 400)
        })
      },
    })
    expect(run.code).toBe(130)
    expect(run.stderr).toContain('Interrupted')
    expect(run.stdout).toMatch(/Not run {3}\d \(interrupted\)/)
    const [runId] = readdirSync(dir)
    const results = readFileSync(join(dir, runId ?? '', 'results.jsonl'), 'utf8')
      .trim()
      .split('\n')
    expect(results.length).toBeGreaterThan(0)
    expect(results.length).toBeLessThan(8)
    const runDir = join(dir, runId ?? '')
    const notRun = Number(/Not run {3}(\d+)/.exec(run.stdout)?.[1])
    expect(run.stderr).toContain(
      `Interrupted: ${notRun} case run${notRun === 1 ? '' : 's'} did not finish. Finish them with \`evals run --resume ${runDir}\`.\n`,
    )
    const resumed = await runCli(['run', '--resume', runDir])
    expect(resumed.code).toBe(0)
    expect(resumed.stdout).toContain(
      `resuming: running the ${8 - results.length} missing of 8 case runs, 2 at a time\n`,
    )
  })

  test('prints the case-file JSON Schema', async () => {
    const run = await runCli(['schema'])
    expect(run.code).toBe(0)
    const schema = JSON.parse(run.stdout) as { properties: Record<string, unknown> }
    expect(Object.keys(schema.properties)).toEqual(expect.arrayContaining(['suite', 'target', 'cases']))
  })

  test('suggests the closest command for a typo', async () => {
    const run = await runCli(['rn'])
    expect(run.code).toBe(2)
    expect(run.stderr).toContain('unknown command `rn`. Did you mean `run`?')
    expect(existsSync('reports/rn')).toBe(false)
  })
})
