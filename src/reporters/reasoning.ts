import type { z } from 'zod'
import type { traceStepSchema } from '../report-file/case-schema.ts'

/** What the model showed of its thinking at one model call of a case. */
interface IterationThinking {
  iteration: number
  text: string
}

/** The reasoning of each model call that showed any, in order, from a case's trace. */
export function reasoningOf(
  trace: readonly z.infer<typeof traceStepSchema>[] | undefined,
): IterationThinking[] {
  return (trace ?? []).flatMap((step) =>
    step.type === 'llm_call' && step.reasoning ? [{ iteration: step.iteration, text: step.reasoning }] : [],
  )
}
