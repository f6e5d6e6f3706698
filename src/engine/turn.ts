import type { Completion, CompletionRequest } from '../providers/provider.ts'
import type { Message } from '../types.ts'
import { sentThroughMemory } from './memory/apply.ts'
import { chargeCompletion, limitBeforeCall } from './accounting.ts'
import {
  abortedEnding,
  cutOff,
  lastAssistantText,
  stopAtLimit,
  stopAtMaxIterations,
  type Ending,
} from './endings.ts'
import { acceptFinalText } from './final-answer.ts'
import type { AgentLoop } from './loop-state.ts'
import { callModel } from './model-call.ts'
import { prepareTools, type OfferedTools } from './prepare-tools.ts'
import { nextStep, type Step } from './steps.ts'
import { runToolStep } from './tool-step.ts'
import type { LimitStop } from './usage-limits.ts'
import { toolChoiceOfStep } from './tool-choice.ts'

/**
 * One turn of the loop: call the model (unless `maxIterations` is reached), then act on its reply. Returns how the
 * run ends, or undefined to take another turn.
 */
export async function takeTurn(loop: AgentLoop): Promise<Ending | undefined> {
  const { state } = loop
  await state.endIteration()
  if (state.signal.aborted) return abortedEnding()
  let next: Step = { kind: 'max-iterations' }
  let overLimit: LimitStop | undefined
  if (state.iterations < state.agent.maxIterations) {
    const beforeCall = limitBeforeCall(state)
    if (beforeCall) return stopAtLimit(state, beforeCall, lastAssistantText(state.messages))
    const completion = await callModelForTurn(loop)
    state.noteReasoning(completion)
    overLimit = chargeCompletion(state, completion)
    next = nextStep(completion)
  }
  switch (next.kind) {
    case 'final':
      return acceptFinalText(state, next, overLimit)
    case 'tool-calls':
      return runToolStep(loop, next, overLimit)
    case 'max-iterations':
      return stopAtMaxIterations(state)
    case 'cut-off':
      return cutOff(state, next)
  }
}

/** Opens the iteration, decides the tools to offer, and calls the model with the conversation so far. */
async function callModelForTurn(loop: AgentLoop): Promise<Completion> {
  const { state } = loop
  const { agent } = state
  await state.startIteration()
  const offered = agent.prepareTools
    ? await prepareTools(
        agent.tools,
        agent.prepareTools === 'per-tool' ? undefined : agent.prepareTools,
        state.context(),
      )
    : loop.allTools
  loop.toolScope.tools = offered.tools
  const sent = agent.memory ? await sentThroughMemory(loop, agent.memory) : undefined
  state.iterations++
  return callModel(requestOf(loop, offered, sent), state.iterations, loop.modelScope)
}

function requestOf(
  loop: AgentLoop,
  offered: OfferedTools,
  sent: { messages: Message[]; system: string | undefined } | undefined,
): CompletionRequest {
  const { agent, messages } = loop.state
  const request: CompletionRequest = { messages: sent?.messages ?? [...messages], tools: offered.schemas }
  const system = sent ? sent.system : loop.system
  if (system !== undefined) request.system = system
  if (agent.settings) request.settings = agent.settings
  const choice = toolChoiceOfStep(
    loop.state.toolChoice ?? agent.toolChoice,
    offered.schemas,
    loop.state.toolCalls.length > 0,
    agent.resetToolChoice,
  )
  if (choice !== undefined) request.toolChoice = choice
  if (agent.outputJsonSchema && agent.provider.capabilities?.structuredOutput) {
    request.output = { name: 'output', schema: agent.outputJsonSchema }
  }
  return request
}
