import { fileURLToPath } from 'node:url'
import type { Assertion } from '../../src/cases/schema.ts'
import { compileEvaluators } from '../../src/cases/compile-evaluators.ts'
import type { Verdict } from '../../src/evaluators/evaluator.ts'
import type { Message, ToolCallRecord, Transcript } from '../../src/types.ts'

export const fixturesDir = fileURLToPath(new URL('../fixtures/cases/', import.meta.url))

/** A transcript with sensible defaults; `calls` lists tool names or `[name, args]` pairs. */
export function transcriptOf(
  overrides: Partial<Transcript> & { calls?: (string | [string, unknown])[]; system?: string } = {},
): Transcript {
  const { calls = [], system, ...rest } = overrides
  const toolCalls: ToolCallRecord[] = calls.map((call, index) => {
    const [name, args] = typeof call === 'string' ? [call, {}] : call
    return { id: `call-${index}`, name, args, durationMs: 1 }
  })
  const messages: Message[] = system === undefined ? [] : [{ role: 'system', content: system }]
  return {
    input: 'hi',
    messages,
    output: '',
    source: 'target',
    toolCalls,
    usage: { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0 },
    costUsd: 0,
    latencyMs: 10,
    iterations: 1,
    ...rest,
  }
}

const context = { caseId: 'case', trial: 0, signal: new AbortController().signal, vars: {} }

/** Runs the `expect:` shorthand `{ [kind]: value }` against a transcript. */
export async function expectCheck(kind: string, value: unknown, transcript: Transcript): Promise<Verdict> {
  const [evaluator] = compileEvaluators({ expect: { [kind]: value }, assert: [] }, { baseDir: fixturesDir })
  if (!evaluator) throw new Error('no evaluator compiled')
  return evaluator.evaluate(transcript, context)
}

/** Runs one long-form `assert:` item against a transcript. */
export async function assertCheck(assertion: Assertion, transcript: Transcript): Promise<Verdict> {
  const [evaluator] = compileEvaluators({ expect: {}, assert: [assertion] }, { baseDir: fixturesDir })
  if (!evaluator) throw new Error('no evaluator compiled')
  return evaluator.evaluate(transcript, context)
}
