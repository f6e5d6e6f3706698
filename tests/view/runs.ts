import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
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

/** A real run of the `support` suite into `reports`, failing the cases named in `broken`; with report.html. */
export async function runInto(
  reports: string,
  runId: string,
  broken: readonly string[] = [],
): Promise<string> {
  const target = targetOf((input) => transcriptOf(input, broken.includes(input) ? 'no' : 'ok'))
  const report = await runSuite(support, {
    outDir: reports,
    runId,
    targets: targetsFor(support, target),
    reporters: await createReporters(['json', 'html'], { color: false }),
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
