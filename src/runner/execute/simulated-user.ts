import type { SimulatedUserSpec } from '../../cases/case-definition.ts'
import { resolveRetry } from '../../engine/retry.ts'
import type { CompletionRequest, Provider } from '../../providers/provider.ts'
import {
  GOAL_MET,
  OPENING_REQUEST,
  simulatedUserSystemPrompt,
} from '../../providers/simulated-user-prompt.ts'
import type { TargetContext } from '../../targets/target.ts'
import type { Message, Usage } from '../../types.ts'
import { addUsage } from '../../types.ts'
import type { ConversationTurn } from '../../model/case-result.ts'

const REQUEST_TIMEOUT_MS = 120_000

/**
 * Asks the model playing the user for its next message, given the conversation so far (its own messages as the
 * assistant's, the target's replies as the user's); undefined once it says the goal is met. The call goes through
 * the engine's model-call path, so retries, cassettes and rate limits apply; its usage is added to `usage`.
 */
export async function nextSimulatedMessage(
  provider: Provider,
  spec: SimulatedUserSpec,
  turns: readonly ConversationTurn[],
  context: TargetContext,
  usage: { value: Usage },
): Promise<string | undefined> {
  const messages: Message[] = [{ content: OPENING_REQUEST, role: 'user' }]
  for (const turn of turns) {
    messages.push({ content: turn.user, role: 'assistant' }, { content: turn.output, role: 'user' })
  }
  const request: CompletionRequest = {
    system: simulatedUserSystemPrompt(spec),
    messages,
    tools: [],
  }
  // the engine's call path loads with the first simulated user, not with every run
  const { callModel } = await import('../../engine/model-call.ts')
  const completion = await callModel(request, turns.length + 1, {
    runId: `simulated-user:${context.caseId}`,
    agent: 'simulated-user',
    provider,
    signal: context.signal,
    observers: [],
    trace: [],
    retry: resolveRetry(undefined),
    requestTimeoutMs: REQUEST_TIMEOUT_MS,
    cache: undefined,
    trial: context.trial,
    emit: undefined,
  })
  usage.value = addUsage(usage.value, completion.usage)
  const text = completion.message.text.trim()
  if (text.includes(GOAL_MET)) return undefined
  if (text === '') throw new Error(`the simulated user (\`${provider.id}\`) sent an empty message`)
  return text
}
