import type { CaseDefinition, SimulatedUserSpec } from '../../cases/case-definition.ts'
import { ConfigError, toError } from '../../errors.ts'
import type { CompileContext, EvaluatorCompiler } from '../../cases/compile-checks.ts'
import type { Evaluator, Verdict } from '../../evaluators/evaluator.ts'
import type { Target, TargetContext } from '../../targets/target.ts'
import type { Message, ToolCallRecord, Transcript, Turn, Usage } from '../../types.ts'
import { AGENT_STOPS, addUsage, emptyUsage } from '../../types.ts'
import type { ConversationTurn } from '../../model/case-result.ts'
import { nextSimulatedMessage } from './simulated-user.ts'

/** A case's conversation, ready to run: scripted turns with their compiled checks, or a simulated user. */
export type Conversation =
  | { kind: 'scripted'; turns: { user: string; evaluators: Evaluator[] }[] }
  | { kind: 'simulated'; user: SimulatedUserSpec }

/**
 * A case's checks and conversation, compiled. A case whose checks cannot be built carries the error instead, so it
 * errors when it runs and the other cases still run.
 */
export function compileCase(
  caseDef: CaseDefinition,
  compile: EvaluatorCompiler,
  context: CompileContext,
): { evaluators: Evaluator[] | Error; conversation?: Conversation | undefined } {
  try {
    return {
      evaluators: compile(caseDef, context),
      conversation: conversationOf(caseDef, compile, context),
    }
  } catch (error) {
    return { evaluators: toError(error) }
  }
}

/** The conversation of a case, its turns' checks compiled; undefined for a one-reply case. */
function conversationOf(
  caseDef: CaseDefinition,
  compile: EvaluatorCompiler,
  context: CompileContext,
): Conversation | undefined {
  if (caseDef.simulatedUser) return { kind: 'simulated', user: caseDef.simulatedUser }
  if (!caseDef.turns) return undefined
  return {
    kind: 'scripted',
    turns: caseDef.turns.map((turn) => ({
      user: turn.user,
      evaluators: compile({ id: caseDef.id, expect: turn.expect, assert: [], vars: caseDef.vars }, context),
    })),
  }
}

/** What a conversation runs against. */
export interface ConversationJob {
  caseId: string
  target: Target
  /** the history before the first turn */
  input: string | Turn[]
  /** the suite's model: the simulated user's when it names none */
  model?: string | undefined
}

/** Records the verdicts of `evaluators` on one turn's transcript as that turn's (1-based) checks. */
export type CheckTurn = (
  transcript: Transcript,
  evaluators: readonly Evaluator[],
  turn: number,
) => Promise<void>

/** The conversation as one transcript, and the checks it adds to the case's own (the simulated user's goal). */
export interface ConversationOutcome {
  transcript: Transcript
  evaluators: Evaluator[]
}

/**
 * Runs the conversation: each user message goes to the target with the history so far, both as a list of text turns
 * (the form every target takes) and as messages with the earlier turns' tool calls and results (`context.history`),
 * and each reply is checked by its turn's checks through `check`. A reply in which the agent stopped on its own
 * account (out of iterations, a truncated reply…) ends the conversation. `turns` is filled as the turns finish, so an
 * errored case still shows how far it got. The transcript joins the turns: messages, tool calls, usage, cost and
 * latency of all of them, the last reply as the output.
 */
export async function converse(
  conversation: Conversation,
  job: ConversationJob,
  context: TargetContext,
  check: CheckTurn,
  turns: ConversationTurn[],
): Promise<ConversationOutcome> {
  const history: Turn[] = typeof job.input === 'string' ? [] : [...job.input]
  const messages: Message[] = history.map(({ content, role }) => ({ content, role }))
  const replies: Transcript[] = []
  const say = async (user: string): Promise<Transcript> => {
    const before = [...messages]
    history.push({ content: user, role: 'user' })
    messages.push({ content: user, role: 'user' })
    const transcript = await job.target.run([...history], { ...contextOf(context), history: before })
    replies.push(transcript)
    if (transcript.error !== undefined) throw new Error(`turn ${String(replies.length)}: ${transcript.error}`)
    history.push({ content: transcript.output, role: 'assistant' })
    messages.push(...replyMessages(transcript))
    turns.push({
      latencyMs: transcript.latencyMs,
      output: transcript.output,
      tools: transcript.toolCalls?.map((call) => call.name) ?? null,
      user,
    })
    return transcript
  }
  const stopped = (): boolean => {
    const last = replies.at(-1)?.stopReason
    return last !== undefined && AGENT_STOPS.has(last)
  }
  if (conversation.kind === 'scripted') {
    for (const turn of conversation.turns) {
      await check(await say(turn.user), turn.evaluators, turns.length)
      if (stopped()) break
    }
    return { transcript: joined(job.input, history, messages, replies), evaluators: [] }
  }
  const spec = conversation.user
  const model = spec.model ?? job.model
  if (model === undefined) {
    throw new ConfigError(
      `case \`${job.caseId}\`: \`simulated_user\` has no model; set \`simulated_user.model\` (e.g. \`local\`) or the suite's \`model:\`.`,
    )
  }
  const { resolveModel } = await import('../../providers/registry.ts')
  const provider = resolveModel(model)
  let goalMet = false
  const usage = { value: emptyUsage() }
  for (;;) {
    const next = await nextSimulatedMessage(provider, spec, turns, context, usage)
    if (next === undefined) {
      goalMet = true
      break
    }
    if (turns.length === spec.maxTurns) break
    await say(next)
    if (stopped()) break
  }
  const goal: Verdict = {
    pass: goalMet,
    reason: goalMet
      ? `the simulated user reached its goal after ${plural(turns.length, 'turn')}`
      : `the simulated user did not reach its goal in ${plural(spec.maxTurns, 'turn')} (max_turns)`,
    details: { goal: spec.goal, model: provider.id, turns: turns.length, usage: usage.value },
  }
  return {
    transcript: joined(job.input, history, messages, replies),
    evaluators: [{ name: 'simulated_user', evaluate: () => goal }],
  }
}

/** The target context for one turn: the pair's, read through (its signal is made on first use). */
function contextOf(context: TargetContext): TargetContext {
  const turn: TargetContext = {
    caseId: context.caseId,
    trial: context.trial,
    get signal() {
      return context.signal
    },
  }
  if (context.model !== undefined) turn.model = context.model
  if (context.vars !== undefined) turn.vars = context.vars
  return turn
}

/** What a reply added to the conversation: its messages after the last user message, or else its output. */
function replyMessages(reply: Transcript): Message[] {
  const fromUser = reply.messages.findLastIndex((message) => message.role === 'user')
  const added = fromUser === -1 ? [] : reply.messages.slice(fromUser + 1)
  return added.length > 0 ? added : [{ content: reply.output, role: 'assistant' }]
}

/** One transcript for the whole conversation; keys in canonical order, as the target transcripts. */
function joined(
  input: string | Turn[],
  history: Turn[],
  messages: Message[],
  replies: readonly Transcript[],
): Transcript {
  const last = replies.at(-1)
  let usage: Usage | null = emptyUsage()
  let costUsd: number | null = replies.length === 0 ? null : 0
  let latencyMs = 0
  let iterations: number | null = 0
  let toolCalls: ToolCallRecord[] | null = []
  // a field is known for the conversation only when every turn reported it
  for (const reply of replies) {
    usage = usage === null || reply.usage === null ? null : addUsage(usage, reply.usage)
    costUsd = costUsd === null || reply.costUsd === null ? null : costUsd + reply.costUsd
    latencyMs += reply.latencyMs
    iterations = iterations === null || reply.iterations === null ? null : iterations + reply.iterations
    toolCalls = toolCalls === null || reply.toolCalls === null ? null : [...toolCalls, ...reply.toolCalls]
  }
  const transcript = {} as Transcript
  if (last?.agent !== undefined) transcript.agent = last.agent
  transcript.costUsd = costUsd
  // the history the last reply answered, as the target saw it
  transcript.input = replies.length === 0 ? history : history.slice(0, -1)
  transcript.iterations = iterations
  transcript.latencyMs = latencyMs
  transcript.messages = messages
  transcript.output = last?.output ?? ''
  if (last?.parsed !== undefined) transcript.parsed = last.parsed
  transcript.source = last?.source ?? 'target'
  if (last?.stopDetail !== undefined) transcript.stopDetail = last.stopDetail
  if (last?.stopReason !== undefined) transcript.stopReason = last.stopReason
  transcript.toolCalls = toolCalls
  const trace = replies.flatMap((reply) => reply.trace ?? [])
  if (trace.length > 0) transcript.trace = trace
  transcript.usage = usage
  return transcript
}

function plural(count: number, noun: string): string {
  return `${String(count)} ${noun}${count === 1 ? '' : 's'}`
}
