import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { beforeAll, expect, test } from 'vitest'
import { ensureBuilt, repo, runCli } from './helpers.ts'

const dir = mkdtempSync(join(tmpdir(), 'evals-bad-input-'))
const quickstart = join(repo, 'cases', 'quickstart.yaml')

/** A case file with one case, its target and expectations as given. */
const caseFile = (target: string, expect = '{ contains: hi }'): string =>
  `suite: s\ntarget:\n  ${target}\ncases:\n  - id: a\n    input: hi\n    expect: ${expect}\n`

beforeAll(() => {
  ensureBuilt()
  const files: Record<string, string> = {
    'package.json': '{ "type": "module" }\n',
    'echo.mjs': 'export const echo = (input) => input\n',
    'throws.mjs': 'throw new Error("boom at import")\n',
    'broken.ts': 'export const echo = (input: string): string =>\n',
    'good.yaml': caseFile('function: ./echo.mjs#echo'),
    'syntax.yaml': 'suite: s\ntarget:\n  function: ./echo.mjs#echo\ncases:\n  - id: a\n    input: [hi\n',
    'schema.yaml': caseFile('function: ./echo.mjs#echo', '{ contains: hi, max_length: x }'),
    'unknown-evaluator.yaml': caseFile('function: ./echo.mjs#echo', '{ contanz: hi }'),
    'missing-target.yaml': caseFile('function: ./missing.ts#echo'),
    'missing-export.yaml': caseFile('function: ./echo.mjs#answer'),
    'throws.yaml': caseFile('function: ./throws.mjs#echo'),
    'throws-agent.yaml': caseFile('agent: ./throws.mjs'),
    'broken-ts.yaml': caseFile('function: ./broken.ts#echo'),
    'bad-baseline.json': '{ not json\n',
  }
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text)
}, 120_000)

// each row: the arguments, and where the one-line message must point (a flag, a file:line, a file or value)
test.each([
  ['an unknown flag', ['run', 'good.yaml', '--bogus'], /unknown option `--bogus`/],
  ['a bad flag value', ['run', 'good.yaml', '--concurrency', 'abc'], /`--concurrency` must be/],
  ['an unknown command', ['frobnicate'], /unknown command `frobnicate`/],
  ['a missing case file', ['run', 'nothing.yaml'], /nothing\.yaml/],
  ['a glob that matches no case file', ['run', 'nowhere/*.yaml'], /"nowhere\/\*\.yaml"/],
  ['a YAML syntax error', ['run', 'syntax.yaml'], /syntax\.yaml:\d+:\d+: /],
  ['a schema error', ['run', 'schema.yaml'], /schema\.yaml:7:\d+: cases\[0\]\.expect\.max_length: /],
  ['an unknown evaluator', ['run', 'unknown-evaluator.yaml'], /unknown-evaluator\.yaml:7:\d+: .*`contanz`/],
  ['a missing target module', ['run', 'missing-target.yaml'], /missing-target\.yaml:3:\d+: target\.function/],
  [
    'a target without the named export',
    ['run', 'missing-export.yaml'],
    /missing-export\.yaml:3:\d+: .*`answer`/,
  ],
  ['a target module that throws on import', ['run', 'throws.yaml'], /throws\.yaml:3:\d+: .*boom at import/],
  [
    'an agent module that throws on import',
    ['run', 'throws-agent.yaml'],
    /throws-agent\.yaml: target\.agent: .*boom/,
  ],
  [
    'a TypeScript target that does not compile',
    ['run', 'broken-ts.yaml'],
    /broken-ts\.yaml:3:\d+: .*broken\.ts:2:\d+: /,
  ],
  ['an unknown model', ['run', quickstart, '--model', 'local-2'], /--model.*Unknown model `local-2`/],
  [
    'a model without its API key',
    ['run', quickstart, '--model', 'openai:gpt-4.1-mini'],
    /quickstart\.yaml: --model: /,
  ],
  ['an unknown reporter', ['run', 'good.yaml', '--reporter', 'nosuch'], /Unknown reporter `nosuch`/],
  [
    'a baseline file that is not JSON',
    ['run', 'good.yaml', '--baseline', 'bad-baseline.json'],
    /`bad-baseline\.json`/,
  ],
  // without `--baseline-missing error` a missing baseline only warns: a new suite never blocks (tests/e2e/baseline.test.ts)
  [
    'a missing baseline file with `--baseline-missing error`',
    ['run', 'good.yaml', '--baseline', 'none.json', '--baseline-missing', 'error'],
    /^Baseline file `none\.json` does not exist\. Create it with `evals run <case-file> --update-baseline`, or drop `--baseline-missing error` to run this suite ungated\.\n$/,
  ],
  ['a missing report file', ['report', 'none.json'], /`none\.json`/],
])('%s exits 2 with a message that says where, and no stack trace', async (_, args, where) => {
  const run = await runCli([...args, ...(args[0] === 'run' ? ['--out', join(dir, 'reports')] : [])], {
    cwd: dir,
    env: { OPENAI_API_KEY: '' },
  })

  expect(run.code).toBe(2)
  expect(run.stderr).toMatch(where)
  expect(run.stderr).not.toMatch(/^\s+at /m)
  expect(run.stdout).toBe('')
})
