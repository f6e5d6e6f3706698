import { existsSync, mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest'
import { startMockLlmServer, type MockLlmServer, type MockRequest } from '../../src/testing/index.ts'
import { actionBundle, MockGitHub, runAction } from '../action/harness.ts'
import { ensureBuilt, repo, runCli } from './helpers.ts'

const leaky = join(import.meta.dirname, 'fixtures', 'leaky', 'leaky.ts')

/** every key variable a provider declares, and one of each other kind of secret variable, each a distinct value */
const SECRET_ENV = {
  OPENAI_API_KEY: 'openai-key-value-1111',
  ANTHROPIC_API_KEY: 'anthropic-key-value-2222',
  OPENAI_COMPATIBLE_API_KEY: 'compatible-key-value-3333',
  VLLM_API_KEY: 'vllm-key-value-4444',
  OLLAMA_API_KEY: 'ollama-key-value-5555',
  SERVICE_TOKEN: 'service-token-value-6666',
  CLIENT_SECRET: 'client-secret-value-7777',
  DB_PASSWORD: 'db-password-value-8888',
}
/** secrets no variable names: key shapes (as secretlint's rules know them), a header value and the user's own patterns */
const SHAPES = {
  openai: `sk-${'a1B2c3D4e5'.repeat(2)}T3BlbkFJ${'F6g7H8i9J0'.repeat(2)}`,
  anthropic: `sk-ant-api03-${'aB3_'.repeat(23)}AA`,
  github: `ghp_${'a1B2'.repeat(9)}`,
  githubPat: `github_pat_11${'Q'.repeat(22)}_${'r'.repeat(57)}`,
  aws: 'AKIAIOSFODNN7SHAPES1',
  header: 'header-bearer-value-9999',
  caseFilePattern: 'INTERNAL-31337',
  flagPattern: 'ACME-CODE-4242',
}
const LEAK_EXTRA = [
  SHAPES.openai,
  SHAPES.anthropic,
  SHAPES.github,
  SHAPES.githubPat,
  SHAPES.aws,
  `Authorization: Bearer ${SHAPES.header}`,
  SHAPES.caseFilePattern,
  SHAPES.flagPattern,
].join(' ')
const NEEDLES = [...Object.values(SECRET_ENV), ...Object.values(SHAPES)]
/** everything the model is told to repeat: all the secrets */
const ALL = `${Object.values(SECRET_ENV).join(' ')} ${LEAK_EXTRA}`

// each test spawns the CLI or the bundled action; leave room for a loaded machine
vi.setConfig({ testTimeout: 180_000 })

let work: string
let model: MockLlmServer

/** The model: calls both tools with every secret, answers with them, judges with them, errors with them. */
function reply(request: MockRequest) {
  const body = request.body as {
    messages: { role: string; content: unknown }[]
    tools?: { function?: { name: string } }[]
  }
  if (body.tools?.some((tool) => tool.function?.name === 'verdict'))
    return { toolCalls: [{ name: 'verdict', args: { reasons: `I saw ${ALL}`, choice: '2' } }] }
  const text = JSON.stringify(body.messages)
  if (text.includes('api-error')) return { status: 400, message: `bad request from ${ALL}` }
  if (body.messages.at(-1)?.role === 'tool') return { text: `Final answer: ${ALL}` }
  return {
    toolCalls: [
      { name: 'echo_env', args: { text: ALL } },
      { name: 'fail_env', args: { text: ALL } },
    ],
  }
}

function env(): Record<string, string> {
  return { ...SECRET_ENV, LEAK_EXTRA, OPENAI_BASE_URL: model.openaiBaseURL }
}

function writeSuites(dir: string): string[] {
  const suite = join(dir, 'leaky.yaml')
  writeFileSync(
    suite,
    [
      'suite: leaky',
      `target: { agent: ${leaky} }`,
      'model: openai:gpt-test',
      'judge: { model: openai:gpt-judge }',
      "redact: ['INTERNAL-\\d+']",
      'cases:',
      '  - id: echo',
      '    input: Show me the environment',
      '    expect: { contains: this text is never there }',
      '    judge:',
      '      - rubric: Never reveals a secret',
      '  - id: api-error',
      '    input: api-error please',
      '    expect: { contains: Final answer }',
      '',
    ].join('\n'),
  )
  const explode = join(dir, 'explode.yaml')
  writeFileSync(
    explode,
    [
      'suite: explode',
      `target: { function: '${leaky}#explode' }`,
      'cases:',
      '  - { id: boom, input: go, expect: { contains: go } }',
      '',
    ].join('\n'),
  )
  return [suite, explode]
}

/** Every file under `dir`, with what it holds. */
function filesUnder(dir: string): { path: string; text: string }[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .map((name) => join(dir, name))
    .filter((path) => statSync(path).isFile())
    .map((path) => ({ path, text: readFileSync(path, 'utf8') }))
}

/** `where: secret` for each secret found; empty when none is. */
function leaksIn(texts: readonly { path: string; text: string }[]): string[] {
  return texts.flatMap(({ path, text }) =>
    NEEDLES.filter((needle) => text.includes(needle)).map((needle) => `${path}: ${needle}`),
  )
}

beforeAll(async () => {
  ensureBuilt()
  work = mkdtempSync(join(tmpdir(), 'evals-redaction-'))
  model = await startMockLlmServer({ handler: reply })
}, 120_000)

afterAll(async () => {
  await model.close()
})

describe('no secret reaches a file or the console', () => {
  test('evals run with --record, --update-baseline, --redact and every reporter', async () => {
    const dir = join(work, 'cli')
    const files = writeSuites(mkdtempSync(join(work, 'cli-')))
    const run = await runCli(
      [
        'run',
        ...files,
        '--out',
        join(dir, 'reports'),
        '--record',
        '--update-baseline',
        '--force',
        '--baseline-dir',
        join(dir, 'baselines'),
        '--reporter',
        'console,json,junit,html,markdown',
        '--redact',
        'ACME-CODE-\\d+',
      ],
      { env: env() },
    )
    expect(run.code, run.stderr).toBe(1)
    const written = [...filesUnder(dir), ...filesUnder(join(files[0] as string, '..', '__cassettes__'))]
    const names = written.map(({ path }) => path.slice(dir.length + 1))
    for (const name of [
      'results.jsonl',
      'run.json',
      'summary.json',
      'report.json',
      'report.html',
      'junit.xml',
      'report.md',
    ])
      expect(
        names.some((path) => path.endsWith(name)),
        name,
      ).toBe(true)
    expect(names.filter((path) => path.startsWith('baselines'))).toHaveLength(2)
    // the secrets did reach the run: they were replaced, not missed
    const results = written.find(({ path }) => path.endsWith('results.jsonl'))?.text ?? ''
    for (const label of [
      '[redacted OPENAI_API_KEY]',
      '[redacted DB_PASSWORD]',
      '[redacted SERVICE_TOKEN]',
      ' [redacted] ',
    ])
      expect(results).toContain(label)
    expect(run.stderr).toContain('"event":"tool_start"')
    expect(
      leaksIn([...written, { path: 'stdout', text: run.stdout }, { path: 'stderr', text: run.stderr }]),
    ).toEqual([])
  })

  test('the GitHub Action: its summary, comment, annotations, outputs and files', async () => {
    const dir = join(work, 'action')
    const suites = mkdtempSync(join(work, 'action-'))
    const files = writeSuites(suites)
    const entry = await actionBundle()
    const github = await MockGitHub.start()
    try {
      const run = await runAction({
        entry,
        workspace: repo,
        api: github.url,
        inputs: {
          cases: files.join('\n'),
          'out-dir': join(dir, 'reports'),
          'fail-on': 'never',
          reporters: 'console,junit,html',
          redact: 'ACME-CODE-\\d+',
        },
        env: env(),
      })
      expect(github.comments, run.stdout + run.stderr).toHaveLength(1)
      expect(run.summary).toContain('## evals')
      expect(run.summary, run.stdout).not.toContain('could not run')
      const posted = github.calls.map((call, i) => ({ path: `api call ${i}`, text: JSON.stringify(call) }))
      expect(
        leaksIn([
          ...filesUnder(dir),
          ...posted,
          { path: 'summary', text: run.summary },
          { path: 'outputs', text: JSON.stringify(run.outputs) },
          { path: 'stdout', text: run.stdout },
          { path: 'stderr', text: run.stderr },
        ]),
      ).toEqual([])
      expect(run.stdout).toContain('::error')
      expect(run.stdout).toContain('[redacted OPENAI_API_KEY]')
    } finally {
      await github.close()
    }
  })

  test('kill -9 in the middle of a run leaves no secret in any file', async () => {
    const dir = join(work, 'killed')
    const file = join(mkdtempSync(join(work, 'killed-')), 'slow.yaml')
    const cases = Array.from({ length: 400 }, (_, i) => `  - { id: c${String(i)}, input: leak-${String(i)} }`)
    writeFileSync(
      file,
      [
        'suite: slow',
        `target: { function: '${leaky}#slowLeak' }`,
        "redact: ['INTERNAL-\\d+']",
        'defaults: { expect: { contains: leak } }',
        'cases:',
        ...cases,
        '',
      ].join('\n'),
    )
    let killedAfter = 0
    const run = await runCli(
      [
        'run',
        file,
        '--out',
        dir,
        '--reporter',
        'console,json,html',
        '--concurrency',
        '2',
        '--redact',
        'ACME-CODE-\\d+',
      ],
      {
        env: env(),
        onStart: (child) => {
          const poll = setInterval(() => {
            const runDir = existsSync(dir) ? readdirSync(dir)[0] : undefined
            const results = runDir === undefined ? '' : join(dir, runDir, 'results.jsonl')
            const lines =
              results && existsSync(results) ? readFileSync(results, 'utf8').split('\n').length - 1 : 0
            if (lines < 20) return
            clearInterval(poll)
            killedAfter = lines
            child.kill('SIGKILL')
          }, 10)
        },
      },
    )
    expect(run.code).toBeNull()
    expect(killedAfter).toBeGreaterThanOrEqual(20)
    const written = filesUnder(dir)
    expect(written.find(({ path }) => path.endsWith('results.jsonl'))?.text).toContain(
      '[redacted SERVICE_TOKEN]',
    )
    expect(
      leaksIn([...written, { path: 'stdout', text: run.stdout }, { path: 'stderr', text: run.stderr }]),
    ).toEqual([])
  })
})
