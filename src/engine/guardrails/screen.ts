import { toError } from '../../errors.ts'
import type { GuardrailStage } from '../../types.ts'
import type { LoopState } from '../loop-state.ts'
import type { Guardrail, GuardrailTrip, GuardrailVerdict } from './guardrail.ts'

/** A text after the guardrails of one stage: maybe rewritten, or blocked. */
export type Screened = { text: string; trip?: undefined } | { text?: undefined; trip: GuardrailTrip }

/** Runs a stage's guardrails over one text in order; every decision is traced and observed. */
export async function screen(
  state: LoopState,
  stage: GuardrailStage,
  guardrails: readonly Guardrail[],
  text: string,
  tool?: string,
): Promise<Screened> {
  let current = text
  for (const guardrail of guardrails) {
    const startedAt = Date.now()
    const verdict = await verdictOf(guardrail, current, state, stage, tool)
    const reason = verdict.reason ?? 'nothing found'
    const where = tool === undefined ? {} : { tool }
    state.trace.push({
      type: 'guardrail',
      startedAt,
      durationMs: Date.now() - startedAt,
      stage,
      name: guardrail.name,
      action: verdict.action,
      reason,
      ...where,
    })
    const { runId } = state
    const event = {
      runId,
      agent: state.agent.name,
      stage,
      name: guardrail.name,
      action: verdict.action,
      reason,
    }
    await state.observe('onGuardrail', { ...event, ...where })
    if (verdict.action === 'block') return { trip: { stage, name: guardrail.name, reason, ...where } }
    if (verdict.action === 'rewrite') current = verdict.text
  }
  return { text: current }
}

async function verdictOf(
  guardrail: Guardrail,
  text: string,
  state: LoopState,
  stage: GuardrailStage,
  tool: string | undefined,
): Promise<GuardrailVerdict> {
  const context = {
    stage,
    runId: state.runId,
    agent: state.agent.name,
    deps: state.deps,
    ...(tool === undefined ? {} : { tool }),
  }
  try {
    return await guardrail.check(text, context)
  } catch (error) {
    return { action: 'block', reason: `the guardrail threw: ${toError(error).message}` }
  }
}
