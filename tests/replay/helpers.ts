import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import type { Suite } from '../../src/cases/suite.ts'
import type { CaseDefinition } from '../../src/cases/case-definition.ts'
import type { RunOptions } from '../../src/runner/run-suite.ts'
import { runSuites } from '../../src/runner/run-suite.ts'
import type { CaseResult } from '../../src/model/case-result.ts'
import { startMockLlmServer, type MockLlmServer, type MockRequest } from '../../src/testing/index.ts'
import { caseOf, readResults, tempDir } from '../runner/helpers.ts'
import { CaseList } from '../../src/cases/case-list.ts'

export { caseOf, tempDir }

/** A suite file in `dir` whose target is the fixture agent (`createAgent({ model })`). */
export function agentSuite(dir: string, cases: CaseDefinition[], fields: Partial<Suite> = {}): Suite {
  return {
    name: 'replayed',
    file: join(dir, 'replayed.yaml'),
    target: { type: 'agent', module: join(import.meta.dirname, 'fixtures', 'agent.ts') },
    model: 'openai:gpt-test',
    trials: 1,
    cases: CaseList.of(cases),
    ...fields,
  }
}

/** Answers like a tiny model: calls `lookup_user` when asked to look someone up, else echoes the last message. */
export function startEchoModel(): Promise<MockLlmServer> {
  return startMockLlmServer({
    handler: (request: MockRequest) => {
      const messages = (request.body as { messages: { role: string; content: string | null }[] }).messages
      const last = messages.at(-1)
      if (last?.role === 'tool') return { text: `Done: ${last.content ?? ''}` }
      const text = last?.content ?? ''
      const user = /look up (\S+)/i.exec(text)?.[1]
      if (user !== undefined) return { toolCalls: [{ name: 'lookup_user', args: { user_id: user } }] }
      return { text: `Echo: ${text}`, usage: { inputTokens: 11, outputTokens: 3 } }
    },
  })
}

/** Runs the suites into `dir/reports` and returns the results in (case, trial) order. */
export async function runInto(
  dir: string,
  suite: Suite,
  options: RunOptions,
): Promise<{ results: CaseResult[]; code: number }> {
  const report = await runSuites([suite], { outDir: join(dir, 'reports'), concurrency: 4, ...options })
  const results = readResults(report.resultsFile).sort((a, b) =>
    a.caseId === b.caseId ? a.trial - b.trial : a.caseId < b.caseId ? -1 : 1,
  )
  return { results, code: report.counts.failed + report.counts.errored > 0 ? 1 : 0 }
}

/** What must not change between a recorded and a replayed run: everything but timings. */
export function stable(results: readonly CaseResult[]): unknown {
  return JSON.parse(
    JSON.stringify(results, (key, value: unknown) =>
      ['durationMs', 'latencyMs', 'startedAt', 'runId'].includes(key) ? 0 : value,
    ),
  ) as unknown
}

export function cassetteLines(dir: string, suite = 'replayed'): Record<string, unknown>[] {
  return readFileSync(join(dir, '__cassettes__', `${suite}.jsonl`), 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as Record<string, unknown>)
}
