import { compileEvaluators } from '../../../src/cases/compile-evaluators.ts'
import type { JudgeOptions, JudgeItem, Verdict } from '../../../src/evaluators/index.ts'
import type { ScriptedReply } from '../../../src/testing/index.ts'
import type { Transcript } from '../../../src/types.ts'
import { fixturesDir, transcriptOf } from '../helpers.ts'

export { transcriptOf }

export const judgedTranscript: Transcript = transcriptOf({
  input: 'Cancel the subscription for user u-42',
  output: 'Done: the subscription of u-42 is cancelled and ends on 31 May.',
  calls: [['cancel_subscription', { user_id: 'u-42' }]],
})

/** A judge reply calling the forced `verdict` tool. */
export function verdict(choice: string, reasons = `because ${choice}`): ScriptedReply {
  return { toolCalls: [{ name: 'verdict', args: { reasons, choice } }] }
}

export function contextOf(trial = 0): {
  caseId: string
  trial: number
  signal: AbortSignal
  vars: Record<string, unknown>
} {
  return { caseId: 'cancel', trial, signal: new AbortController().signal, vars: {} }
}

/** Compiles the judge items of a case named `cancel` and runs the first against the transcript. */
export async function judge(
  item: JudgeItem,
  options: JudgeOptions | undefined,
  transcript: Transcript = judgedTranscript,
  trial = 0,
): Promise<Verdict> {
  const [evaluator] = compileEvaluators(
    { id: 'cancel', expect: {}, assert: [], judge: [item] },
    { baseDir: fixturesDir, ...(options === undefined ? {} : { judge: options }) },
  )
  if (!evaluator) throw new Error('no evaluator compiled')
  return evaluator.evaluate(transcript, contextOf(trial))
}
