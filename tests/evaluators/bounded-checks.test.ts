/**
 * Checks run under the case's timeout, even when they never yield: a `javascript:` check in a worker thread that the
 * timeout terminates, a `custom:` check with its synchronous part under a `vm` timeout. `process.exit()` in either
 * ends the check, not the runner. Each case file here also holds a plain case that must still pass after the stuck one.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, expect, test } from 'vitest'
import type { CaseResult } from '../../src/model/case-result.ts'
import { runSuites } from '../../src/runner/run-suite.ts'
import { caseOf, readResults, suiteOf, targetOf, transcriptOf } from '../runner/helpers.ts'

const dir = mkdtempSync(join(tmpdir(), 'evals-bounded-checks-'))
afterAll(() => {
  rmSync(dir, { recursive: true, force: true })
})

writeFileSync(
  join(dir, 'checks.mjs'),
  `export function spins() { for (;;) {} }
export function exits() { process.exit(3) }
export async function hangs() { await new Promise(() => {}) }
export function fine(transcript) { return transcript.output === 'ok' }
`,
)

/**
 * The stuck case, then a plain one, through the runner with a case timeout; their results by id. 1.5 s by default:
 * room for a check's worker to start on a loaded machine, so a check that answers (or exits) does so in time.
 */
async function run(expect: Record<string, unknown>, timeoutMs = 1500): Promise<Map<string, CaseResult>> {
  const suite = suiteOf([caseOf('stuck', { expect }), caseOf('plain', { expect: { contains: 'ok' } })], {
    name: 'bounded',
    file: join(dir, 'bounded.yaml'),
  })
  const report = await runSuites([suite], {
    outDir: join(dir, 'reports'),
    timeoutMs,
    concurrency: 1,
    targets: new Map([[suite.file, targetOf((input) => transcriptOf(input, 'ok'))]]),
  })
  return new Map(readResults(report.resultsFile).map((row) => [row.caseId, row]))
}

// a check that never ends errors at any timeout: 0.5 s, not the 1.5 s of a check that must get to `process.exit`
const NEVER_ENDS_MS = 500

test.each([
  ['a `javascript` loop', { javascript: 'while (true) {}' }, /took longer than 500ms/, NEVER_ENDS_MS],
  [
    'a `javascript` loop after an await',
    { javascript: 'await null; for (;;) {}' },
    /took longer than 500ms/,
    NEVER_ENDS_MS,
  ],
  [
    'a `javascript` promise that never settles',
    { javascript: 'new Promise(() => {})' },
    /took longer than 500ms/,
    NEVER_ENDS_MS,
  ],
  [
    '`process.exit(3)` in a `javascript` check',
    { javascript: 'process.exit(3)' },
    /called `process.exit\(3\)`/,
    1500,
  ],
  ['a `custom` loop', { custom: './checks.mjs#spins' }, /ran past the case's timeout/, NEVER_ENDS_MS],
  [
    '`process.exit(3)` in a `custom` check',
    { custom: './checks.mjs#exits' },
    /called `process.exit\(3\)`/,
    1500,
  ],
  [
    'a `custom` promise that never settles',
    { custom: './checks.mjs#hangs' },
    /took longer than 500ms/,
    NEVER_ENDS_MS,
  ],
])(
  '%s ends the case errored at its timeout, and the run goes on',
  async (_, check, says, timeoutMs) => {
    const results = await run(check, timeoutMs)
    const stuck = results.get('stuck')
    expect(stuck?.status).toBe('errored')
    if (stuck?.status === 'errored') expect(stuck.error.message).toMatch(says)
    expect(results.get('plain')?.status).toBe('passed')
  },
  20_000,
)

test('the controls: the same checks that return pass and fail as usual', async () => {
  expect((await run({ javascript: "output === 'ok'" })).get('stuck')?.status).toBe('passed')
  expect((await run({ javascript: "output === 'no'" })).get('stuck')?.status).toBe('failed')
  expect((await run({ custom: './checks.mjs#fine' })).get('stuck')?.status).toBe('passed')
}, 20_000)
