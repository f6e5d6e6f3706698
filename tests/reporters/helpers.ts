import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { CaseDefinition } from '../../src/cases/case-definition.ts'
import { createReporters } from '../../src/reporters/index.ts'
import type { RunReport } from '../../src/model/run-report.ts'
import { runSuites } from '../../src/runner/run-suite.ts'
import type { Transcript } from '../../src/types.ts'
import { caseOf, suiteOf, targetOf, targetsFor, transcriptOf } from '../runner/helpers.ts'

export { caseOf, transcriptOf }

/** A scenario of the reporter conformance suite: cases, and what the target answers for each input. */
export interface Scenario {
  name: string
  cases: CaseDefinition[]
  answer: (input: string, trial: number) => Transcript | Promise<Transcript>
}

/** Every scenario a reporter must handle. */
export const SCENARIOS: Scenario[] = [
  { name: 'an empty run', cases: [], answer: (input) => transcriptOf(input, input) },
  {
    name: 'a run where every case passes',
    cases: [caseOf('greet', { expect: { contains: 'hello' } }), caseOf('bye', { tags: ['smalltalk'] })],
    answer: (input) => transcriptOf(input, `hello ${input}`, { costUsd: 0.001 }),
  },
  {
    name: 'a run with a failing case',
    cases: [
      caseOf('greet', { expect: { contains: 'hello' } }),
      caseOf('refund', { expect: { contains: 'refunded' } }),
    ],
    answer: (input) => transcriptOf(input, `hello ${input}`),
  },
  {
    name: 'a run with an errored case',
    cases: [caseOf('ok'), caseOf('boom')],
    answer: (input) => {
      if (input === 'boom') throw new Error('the target fell over')
      return transcriptOf(input, 'fine')
    },
  },
  {
    name: 'a run with a skipped case',
    cases: [caseOf('ok'), caseOf('later', { skip: 'not ready yet' })],
    answer: (input) => transcriptOf(input, 'fine'),
  },
  {
    name: 'a multi-trial run',
    cases: [caseOf('flaky', { trials: 3, expect: { contains: 'yes' } })],
    answer: (input, trial) => transcriptOf(input, trial === 1 ? 'no' : 'yes'),
  },
  {
    name: 'a conversation with a failing turn',
    cases: [
      caseOf('chat', {
        input: [],
        turns: [
          { user: 'hi', expect: { contains: 'hello' } },
          { user: 'refund order o-7', expect: { contains: 'refunded' } },
        ],
        expect: { max_length: 100 },
      }),
    ],
    // the target gets the history as JSON: it answers the last user message
    answer: (input) => {
      const last = (JSON.parse(input) as { content: string }[]).at(-1)?.content ?? ''
      return transcriptOf(input, last === 'hi' ? 'hello there' : `cannot ${last}`)
    },
  },
]

export function tempDir(): string {
  return mkdtempSync(join(tmpdir(), 'evals-reports-'))
}

/** Runs a scenario through the real runner with the given reporters (by name); returns the run's report. */
export async function runScenario(
  scenario: Pick<Scenario, 'cases' | 'answer'>,
  reporters: readonly string[] = ['json', 'junit', 'html', 'markdown'],
  options: { env?: NodeJS.ProcessEnv; name?: string } = {},
): Promise<RunReport> {
  const suite = suiteOf(scenario.cases, { name: options.name ?? 'demo' })
  const target = targetOf((input, _signal, trial) => scenario.answer(input, trial))
  return runSuites([suite], {
    outDir: tempDir(),
    runId: 'run-1',
    concurrency: 2,
    targets: targetsFor(suite, target),
    reporters: await createReporters(reporters, { env: options.env ?? {} }),
  })
}
