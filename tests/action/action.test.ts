import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test, vi } from 'vitest'
import { buildAction } from '../../action/build.ts'
import { COMMENT_MARKER } from '../../action/comment.ts'
import { loadSuites } from '../../src/cases/load.ts'
import { runSuites } from '../../src/runner/run-suite.ts'
import { actionBundle, MockGitHub, OWNER, PR, REPO, runAction, type RunActionOptions } from './harness.ts'

const root = resolve(import.meta.dirname, '../..')
const fixtures = 'tests/action/fixtures'
let tmp: string
let entry: string
let github: MockGitHub

// each test spawns the bundle once or twice; leave room for a loaded CI machine
vi.setConfig({ testTimeout: 60_000 })

beforeAll(async () => {
  tmp = await mkdtemp(join(tmpdir(), 'evals-action-test-'))
  entry = await actionBundle()
}, 60_000)

afterAll(async () => {
  await rm(tmp, { recursive: true, force: true })
})

beforeEach(async () => {
  github = await MockGitHub.start()
})

afterEach(async () => {
  await github.close()
})

function run(inputs: RunActionOptions['inputs'], options: Partial<RunActionOptions> = {}) {
  return runAction({
    entry,
    workspace: root,
    api: github.url,
    inputs: { 'out-dir': join(tmp, 'reports'), ...inputs },
    ...options,
  })
}

const commentsPath = `/repos/${OWNER}/${REPO}/issues/${PR}/comments`

describe('the sticky PR comment', () => {
  test('the first run creates one comment, the second updates it in place', async () => {
    const first = await run({ cases: 'cases/quickstart.yaml' })
    expect(first.code, first.stderr).toBe(0)
    expect(github.writes().map((call) => `${call.method} ${call.path}`)).toEqual([`POST ${commentsPath}`])
    expect(github.comments).toHaveLength(1)
    const [comment] = github.comments
    expect(comment!.body.startsWith(`${COMMENT_MARKER}\n## evals · quickstart`)).toBe(true)
    expect(first.stdout).toContain('PR comment created')

    const second = await run({ cases: 'cases/quickstart.yaml' })
    expect(second.code, second.stderr).toBe(0)
    expect(github.writes().map((call) => call.method)).toEqual(['POST', 'PATCH'])
    expect(github.writes()[1]!.path).toBe(`/repos/${OWNER}/${REPO}/issues/comments/${comment!.id}`)
    expect(github.comments).toHaveLength(1)
    expect(second.stdout).toContain('PR comment updated')
  })

  test('finds its comment on a later page of a long thread', async () => {
    for (let i = 0; i < 130; i++) github.addComment(`comment ${i}`)
    const own = github.addComment(`${COMMENT_MARKER}\nold report`, 'github-actions[bot]')
    for (let i = 0; i < 80; i++) github.addComment(`later ${i}`)
    const result = await run({ cases: 'cases/function.yaml' })
    expect(result.code, result.stderr).toBe(0)
    expect(github.calls.filter((call) => call.method === 'GET').map((call) => call.path)).toEqual([
      `${commentsPath}?per_page=100`,
      `${commentsPath}?per_page=100&page=2`,
    ])
    expect(github.writes().map((call) => `${call.method} ${call.path}`)).toEqual([
      `PATCH /repos/${OWNER}/${REPO}/issues/comments/${own.id}`,
    ])
    expect(own.body).toContain('## evals · faq-function')
  })

  test('a 403 (a fork’s read-only token) is a notice; summary, outputs and exit status are unaffected', async () => {
    github.forbidWrites = true
    const result = await run({ cases: 'cases/function.yaml' })
    expect(result.code, result.stderr).toBe(0)
    expect(result.stdout).toMatch(/::notice::evals: PR comment not posted: GitHub answered 403 .*job summary/)
    expect(result.summary).toContain('## evals · faq-function')
    expect(result.outputs).toMatchObject({ status: 'passed', passed: '4', partial: '0', failed: '0' })
  })

  test('comment: false and events without a pull request post nothing', async () => {
    const off = await run({ cases: 'cases/function.yaml', comment: 'false' })
    const push = await run(
      { cases: 'cases/function.yaml' },
      { event: { name: 'push', payload: { ref: 'refs/heads/main' } } },
    )
    expect([off.code, push.code]).toEqual([0, 0])
    expect(github.calls).toEqual([])
    expect(push.summary).toContain('## evals · faq-function')
  })
})

describe('outputs, summary and annotations', () => {
  test('a passing run', async () => {
    const result = await run({ cases: 'cases/quickstart.yaml' })
    expect(result.code, result.stderr).toBe(0)
    expect(result.outputs).toMatchObject({
      status: 'passed',
      accuracy: '1',
      passed: '10',
      failed: '0',
      errored: '0',
      regressions: '0',
      gate: 'none',
    })
    expect(result.outputs['report-path']).toMatch(/report\.json$/)
    const report = JSON.parse(await readFile(result.outputs['report-path']!, 'utf8')) as { cases: unknown[] }
    expect(report.cases).toHaveLength(10)
    expect(await readFile(join(result.outputs['report-dir']!, 'report.md'), 'utf8')).toBe(result.summary)
    expect(result.summary).toContain('Every case passed.')
    expect(result.stdout).not.toContain('::error')
  })

  test('a failing case gets an error annotation at its line, and the comment goes out before the job fails', async () => {
    const result = await run({ cases: 'cases/failing/failing-example.yaml', 'fail-on': 'failure' })
    expect(result.code).toBe(1)
    expect(result.stdout).toContain(
      '::error title=evals%3A failing-example › paraphrased-refund failed,file=cases/failing/failing-example.yaml,line=17::tool: expected tool `refund_payment`',
    )
    expect(result.stdout).toMatch(
      /::error title=evals%3A failing-example › echoes-injection failed,file=cases\/failing\/failing-example.yaml,line=23::/,
    )
    expect(result.outputs).toMatchObject({ status: 'failed', passed: '1', failed: '2', errored: '0' })
    expect(result.summary).toContain('paraphrased-refund')
    expect(github.comments).toHaveLength(1)
    const posted = result.stdout.indexOf('PR comment created')
    expect(posted).toBeGreaterThan(-1)
    expect(result.stdout.indexOf('::error::evals: 2 case runs failed.')).toBeGreaterThan(posted)
  })

  test('globs and several lines of cases', async () => {
    const result = await run({
      cases: 'cases/function.yaml\ncases/failing/*.yaml',
      'fail-on': 'never',
      reporters: 'console, junit',
    })
    expect(result.code, result.stderr).toBe(0)
    expect(result.outputs).toMatchObject({ status: 'failed', passed: '5', failed: '2' })
    expect(await readdir(result.outputs['report-dir']!)).toEqual(
      expect.arrayContaining(['report.json', 'report.md', 'report.junit.xml']),
    )
  })
})

describe('fail-on', () => {
  test.each([
    ['failure', 1],
    ['regression', 0],
    ['never', 0],
  ])('failed cases without a baseline, fail-on %s: exit %i', async (failOn, code) => {
    const result = await run({ cases: 'cases/failing/failing-example.yaml', 'fail-on': failOn })
    expect(result.code).toBe(code)
    expect(result.outputs.status).toBe('failed')
  })

  describe('against a baseline', () => {
    let baselineDir: string
    beforeAll(async () => {
      baselineDir = join(tmp, 'baselines')
      const suites = await loadSuites([join(root, fixtures, 'regress.yaml')])
      await runSuites(suites, {
        outDir: join(tmp, 'reports'),
        updateBaseline: { dir: baselineDir, force: true },
      })
      // the baseline remembers the critical case as passing, so this run regresses it
      const file = join(baselineDir, 'action-regress.json')
      const baseline = JSON.parse(await readFile(file, 'utf8')) as {
        cases: { id: string; status: string; passes: number; trials: number }[]
      }
      for (const entry of baseline.cases) {
        if (entry.id !== 'paraphrased-refund') continue
        entry.status = 'passed'
        entry.passes = entry.trials
      }
      await writeFile(file, JSON.stringify(baseline, null, 2))
    })

    test.each([
      ['regression', 1],
      ['failure', 1],
      ['never', 0],
    ])('a regressed critical case, fail-on %s: exit %i', async (failOn, code) => {
      const result = await run({
        cases: `${fixtures}/regress.yaml`,
        'baseline-dir': baselineDir,
        'fail-on': failOn,
      })
      expect(result.code).toBe(code)
      expect(result.outputs).toMatchObject({
        status: 'regressed',
        gate: 'fail',
        regressions: '1',
        failed: '4',
      })
      expect(result.stdout).toContain(
        `::error title=evals%3A action-regress › paraphrased-refund regressed against the baseline,file=${fixtures}/regress.yaml,line=9::`,
      )
      expect(result.summary).toContain('**Gate: ❌ fail**')
      if (code === 1) expect(result.stdout).toMatch(/::error::evals: the gate failed: /)
    })

    test('a missing baseline leaves its suite ungated, with a warning, unless baseline-missing is error', async () => {
      const empty = join(tmp, 'no-baselines')
      await mkdir(empty, { recursive: true })
      const lenient = await run({
        cases: 'cases/function.yaml',
        'baseline-dir': empty,
        'fail-on': 'regression',
      })
      expect(lenient.code, lenient.stderr).toBe(0)
      expect(lenient.outputs).toMatchObject({ status: 'passed', regressions: '0', gate: 'warn' })
      const strict = await run({
        cases: 'cases/function.yaml',
        'baseline-dir': empty,
        'baseline-missing': 'error',
        'fail-on': 'never',
      })
      expect(strict.code).toBe(1)
      expect(strict.outputs.status).toBe('could-not-run')
    })
  })

  test.each([
    ['regression', 1],
    ['failure', 1],
    ['never', 0],
  ])('errored cases are infrastructure, not regressions; fail-on %s: exit %i', async (failOn, code) => {
    const result = await run({ cases: `${fixtures}/errored.yaml`, 'fail-on': failOn })
    expect(result.code).toBe(code)
    expect(result.outputs).toMatchObject({ status: 'errored', errored: '1', failed: '0', regressions: '0' })
    expect(result.stdout).toContain(
      `::error title=evals%3A action-errored › target-throws errored (infrastructure%2C not a quality result),file=${fixtures}/errored.yaml,line=6::`,
    )
    expect(result.stdout).toMatch(/evals: 1 case run errored \(infrastructure/)
  })

  test('a run that cannot start fails whatever fail-on says, after its summary and comment', async () => {
    const result = await run({ cases: 'cases/does-not-exist/*.yaml', 'fail-on': 'never' })
    expect(result.code).toBe(1)
    expect(result.outputs).toEqual({ status: 'could-not-run' })
    expect(result.summary).toContain('## evals · could not run')
    expect(github.comments[0]?.body).toContain('could not run')
    expect(result.stdout).toMatch(/::error::evals could not run: /)
  })

  test('`cassettes: record` whose cases call no model says it recorded nothing, as one warning', async () => {
    // the cassette goes beside the case file: a workspace of the test's own
    const workspace = await mkdtemp(join(tmp, 'recording-'))
    await writeFile(join(workspace, 'echo.mjs'), 'export const echo = (input) => `You said: ${input}`\n')
    await writeFile(
      join(workspace, 'quiet.yaml'),
      'suite: quiet\ntarget: { function: ./echo.mjs#echo }\ncases:\n  - id: hi\n    input: hi\n    expect: { contains: hi }\n',
    )
    const result = await run({ cases: 'quiet.yaml', cassettes: 'record', comment: 'false' }, { workspace })

    expect(result.code, result.stderr).toBe(0)
    expect(result.outputs.status).toBe('passed')
    expect(result.stdout.split('\n').filter((line) => line.includes('recorded nothing'))).toEqual([
      `::warning::Input \`cassettes: record\` recorded nothing into ${join('__cassettes__', 'quiet.jsonl')}: no case made a model call through the engine, an SDK in this process, or the recording proxy a command target's \`OPENAI_BASE_URL\` / \`ANTHROPIC_BASE_URL\` point at (an http: target's calls happen in its own service).`,
    ])
  })

  test('a bad `cassettes` input says what it takes', async () => {
    const result = await run({ cases: 'cases/function.yaml', cassettes: 'save' })
    expect(result.code).toBe(1)
    expect(result.stdout).toContain(
      'Input `cassettes` must be one of record, replay, auto, or empty for live calls; got "save".',
    )
  })

  test('a bad input is reported as such', async () => {
    const result = await run({ cases: 'cases/function.yaml', 'fail-on': 'sometimes' })
    expect(result.code).toBe(1)
    expect(result.stdout).toContain(
      'Input `fail-on` must be one of failure, regression, never; got "sometimes".',
    )
  })
})

test('the bundle is reproducible: a second build is byte-for-byte the same', async () => {
  const again = join(tmp, 'again')
  await buildAction(again)
  const first = dirname(entry)
  const files = (await readdir(first)).sort()
  expect((await readdir(again)).sort()).toEqual(files)
  for (const file of files) {
    expect(await readFile(join(again, file), 'utf8'), file).toBe(await readFile(join(first, file), 'utf8'))
  }
}, 60_000)
