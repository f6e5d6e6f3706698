import type { CaseDefinition, SimulatedUserSpec } from '../../cases/case-definition.ts'
import { ConfigError, toError } from '../../errors.ts'
import type { CompileContext, EvaluatorCompiler } from '../../cases/compile-checks.ts'
import type { Evaluator, Verdict } from '../../evaluators/evaluator.ts'
import type { Target, TargetContext } from '../../targets/target.ts'
import type { Message, Transcript, Turn } from '../../types.ts'
import { addUsage, emptyUsage } from '../../types.ts'
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
 * Runs the conversation: each user message goes to the target with the history so far (as a list of turns, the
 * form every target takes), and each reply is checked by its turn's checks through `check`. `turns` is filled as
 * the turns finish, so an errored case still shows how far it got. The transcript joins the turns: messages, tool
 * calls, usage, cost and latency of all of them, the last reply as the output.
 */
export async function converse(
  conversation: Conversation,
  job: ConversationJob,
  context: TargetContext,
  check: CheckTurn,
  turns: ConversationTurn[],
): Promise<ConversationOutcome> {
  const history: Turn[] = typeof job.input === 'string' ? [] : [...job.input]
  const replies: Transcript[] = []
  const say = async (user: string): Promise<Transcript> => {
    history.push({ content: user, role: 'user' })
    const transcript = await job.target.run([...history], context)
    replies.push(transcript)
    if (transcript.error !== undefined) throw new Error(`turn ${String(replies.length)}: ${transcript.error}`)
    history.push({ content: transcript.output, role: 'assistant' })
    turns.push({
      latencyMs: transcript.latencyMs,
      output: transcript.output,
      tools: transcript.toolCalls.map((call) => call.name),
      user,
    })
    return transcript
  }
  if (conversation.kind === 'scripted') {
    for (const turn of conversation.turns) await check(await say(turn.user), turn.evaluators, turns.length)
    return { transcript: joined(job.input, history, replies), evaluators: [] }
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
  }
  const goal: Verdict = {
    pass: goalMet,
    reason: goalMet
      ? `the simulated user reached its goal after ${plural(turns.length, 'turn')}`
      : `the simulated user did not reach its goal in ${plural(spec.maxTurns, 'turn')} (max_turns)`,
    details: { goal: spec.goal, model: provider.id, turns: turns.length, usage: usage.value },
  }
  return {
    transcript: joined(job.input, history, replies),
    evaluators: [{ name: 'simulated_user', evaluate: () => goal }],
  }
}

/** One transcript for the whole conversation; keys in canonical order, as the target transcripts. */
function joined(input: string | Turn[], history: Turn[], replies: readonly Transcript[]): Transcript {
  const last = replies.at(-1)
  const messages: Message[] =
    typeof input === 'string' ? [] : input.map(({ content, role }) => ({ content, role }))
  let usage = emptyUsage()
  let costUsd: number | null = replies.length === 0 ? null : 0
  let latencyMs = 0
  let iterations = 0
  for (const reply of replies) {
    const fromUser = reply.messages.findLastIndex((message) => message.role === 'user')
    messages.push(...reply.messages.slice(Math.max(0, fromUser)))
    usage = addUsage(usage, reply.usage)
    costUsd = costUsd === null || reply.costUsd === null ? null : costUsd + reply.costUsd
    latencyMs += reply.latencyMs
    iterations += reply.iterations
  }
  const transcript = { costUsd } as Transcript
  // the history the last reply answered, as the target saw it
  transcript.input = replies.length === 0 ? history : history.slice(0, -1)
  transcript.iterations = iterations
  transcript.latencyMs = latencyMs
  transcript.messages = messages
  transcript.output = last?.output ?? ''
  if (last?.parsed !== undefined) transcript.parsed = last.parsed
  if (last?.stopReason !== undefined) transcript.stopReason = last.stopReason
  transcript.toolCalls = replies.flatMap((reply) => reply.toolCalls)
  const trace = replies.flatMap((reply) => reply.trace ?? [])
  if (trace.length > 0) transcript.trace = trace
  transcript.usage = usage
  return transcript
}

function plural(count: number, noun: string): string {
  return `${String(count)} ${noun}${count === 1 ? '' : 's'}`
}
