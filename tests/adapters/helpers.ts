import type { CaseDefinition } from '../../src/cases/case-definition.ts'
import type { CaseResult } from '../../src/model/case-result.ts'
import { runSuite } from '../../src/runner/run-suite.ts'
import type { TargetContext, TargetSpec } from '../../src/targets/target.ts'
import { caseOf, readResults, suiteOf, tempDir } from '../runner/helpers.ts'

export function context(): TargetContext {
  return { signal: new AbortController().signal, caseId: 'case', trial: 0 }
}

/** Runs one case against a target spec through the runner, as `evals run` does; returns its result. */
export async function runOneCase(
  target: TargetSpec,
  fields: Partial<CaseDefinition>,
): Promise<{ result: CaseResult; exitCounts: { failed: number; errored: number } }> {
  const suite = suiteOf([caseOf('case', fields)], { target })
  const report = await runSuite(suite, { outDir: tempDir() })
  const [result] = readResults(report.resultsFile)
  if (!result) throw new Error('the run wrote no result')
  return { result, exitCounts: { failed: report.counts.failed, errored: report.counts.errored } }
}

/** GPT-4.1 mini's published prices (openai.com/api/pricing, as in @pydantic/genai-prices): USD per million tokens. */
export const GPT_41_MINI = { input: 0.4, cachedInput: 0.1, output: 1.6 }

/** The cost of a run on GPT-4.1 mini, worked out from the published prices (not through genai-prices). */
export function gpt41MiniCost(usage: { input: number; cached: number; output: number }): number {
  const { input, cachedInput, output } = GPT_41_MINI
  return ((usage.input - usage.cached) * input + usage.cached * cachedInput + usage.output * output) / 1e6
}
