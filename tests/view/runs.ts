import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { loadSuite } from '../../src/cases/load.ts'
import type { Suite } from '../../src/cases/suite.ts'
import { createReporters } from '../../src/reporters/index.ts'
import { runSuite } from '../../src/runner/run-suite.ts'
import { caseOf, suiteOf, targetOf, targetsFor, transcriptOf } from '../runner/helpers.ts'

export const support: Suite = suiteOf(
  ['greet', 'refund', 'status', 'cancel'].map((id) =>
    caseOf(id, { expect: { contains: 'ok' }, ...(id === 'refund' && { tags: ['critical'] }) }),
  ),
  { name: 'support' },
)

/**
 * A real run of the `support` suite (or `suite`, a variation of it such as a `gate:` block) into `reports`, failing
 * every trial of the cases named in `broken`; `trials` as `--trials`; with report.html. With `baselines`, the run is
 * compared with (or, with `record`, written as) the suite's baseline there.
 */
export async function runInto(
  reports: string,
  runId: string,
  broken: readonly string[] = [],
  baselines?: { dir: string; record?: boolean },
  { suite = support, trials }: { suite?: Suite; trials?: number } = {},
): Promise<string> {
  const target = targetOf((input) => transcriptOf(input, broken.includes(input) ? 'no' : 'ok'))
  const report = await runSuite(suite, {
    outDir: reports,
    runId,
    targets: targetsFor(suite, target),
    ...(trials !== undefined && { trials }),
    reporters: await createReporters(['json', 'html'], { color: false }),
    ...(baselines &&
      (baselines.record === true
        ? { updateBaseline: { dir: baselines.dir } }
        : { baseline: { path: baselines.dir } })),
  })
  return report.dir
}

/** A run folder as a run still going leaves it: its plan and some result lines, no summary. */
export function unfinishedRun(reports: string, runId: string, lines: readonly object[] = []): string {
  const dir = join(reports, runId)
  mkdirSync(dir, { recursive: true })
  writeFileSync(
    join(dir, 'run.json'),
    JSON.stringify({ version: 2, runId, startedAt: new Date().toISOString(), suites: [{ name: 'support' }] }),
  )
  writeFileSync(join(dir, 'results.jsonl'), lines.map((line) => `${JSON.stringify(line)}\n`).join(''))
  return dir
}

/** A result line as the runner writes it. */
export function resultLine(caseId: string, status: 'passed' | 'failed'): object {
  return {
    suite: 'support',
    caseId,
    trial: 0,
    tags: [],
    weight: 1,
    durationMs: 12,
    status,
    score: status === 'passed' ? 1 : 0,
    verdicts: [{ evaluator: 'contains', weight: 1, pass: status === 'passed', reason: `${caseId} said no` }],
    transcript: { output: 'x' },
  }
}

/**
 * A real run of the `compare` suite in three variants into `reports` (v1 the baseline, gating the others): v1 and
 * loud pass `greet` and fail `version`, v2 passes both. With report.html.
 */
export async function variantRunInto(reports: string, runId: string): Promise<string> {
  const fixture = join(import.meta.dirname, '..', 'runner', 'fixtures', 'variant-target.ts')
  const file = join(reports, `${runId}.yaml`)
  writeFileSync(
    file,
    [
      'suite: compare',
      `target: { function: ${fixture}#versioned }`,
      'model: local',
      'variants:',
      '  - { name: v1, baseline: true }',
      '  - { name: v2, vars: { prompt: v2 } }',
      `  - { name: loud, target: { function: ${fixture}#shouting } }`,
      'cases:',
      '  - { id: greet, input: hello, vars: { prompt: v1 }, expect: { contains: hello } }',
      '  - { id: version, input: which, vars: { prompt: v1 }, expect: { contains: v2 } }',
      '',
    ].join('\n'),
  )
  const report = await runSuite(await loadSuite(file), {
    outDir: reports,
    runId,
    reporters: await createReporters(['json', 'html'], { color: false }),
  })
  return report.dir
}
