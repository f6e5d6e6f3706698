import { z } from 'zod'
import { NotReportedError } from '../errors.ts'
import type { Transcript } from '../types.ts'
import { defineEvaluator, expected } from './definition.ts'
import { code, codeList } from './describe.ts'

const names = z.array(z.string().min(1)).min(1)

export const answeredBy = defineEvaluator({
  kind: 'answered_by',
  description:
    'The last reply was written by this agent (or one of these), after handoffs: our Agent, the OpenAI Agents SDK, LangGraph, Mastra.',
  options: z.strictObject({ agents: names }),
  shorthand: z.union([z.string().min(1), names], { error: expected('an agent name or a list of names') }),
  fromShorthand: (value) => ({ agents: typeof value === 'string' ? [value] : value }),
  create: ({ agents }) => ({
    name: 'answered_by',
    evaluate: (transcript) => {
      const last = transcript.agent ?? lastWriter(transcript)
      const pass = agents.includes(last)
      const seen = `the last reply is by ${code(last)}`
      return { pass, reason: pass ? seen : `expected a reply by ${codeList(agents)}; ${seen}` }
    },
  }),
})

/** The agent named by the last reply's message, for runs of our Agent with handoffs or agent tools. */
function lastWriter(transcript: Transcript): string {
  const writers = transcript.messages.flatMap((message) =>
    message.role === 'assistant' ? [message.agent] : [],
  )
  const last = writers.at(-1)
  if (last !== undefined) return last
  if (writers.some((writer) => writer !== undefined))
    throw new NotReportedError('`answered_by`: the last reply names no agent, though earlier ones do.')
  throw new NotReportedError(
    `\`answered_by\` needs which agent answered, which this transcript does not say (source \`${transcript.source}\`): run an Agent with \`handoffs\` or agent tools, give a framework agent itself as \`agent:\`, or return \`agent\` with the output.`,
  )
}

const stage = z.enum(['input', 'tool_result', 'output'])

export const guardrailTripped = defineEvaluator({
  kind: 'guardrail_tripped',
  description:
    'A guardrail blocked, rewrote or warned (`true`; `false` for none), optionally one of these names or at one stage.',
  options: z.strictObject({
    value: z.boolean().default(true),
    names: names.optional(),
    stage: stage.optional(),
  }),
  shorthand: z.union([z.boolean(), z.string().min(1), names], {
    error: expected('`true`, `false`, a guardrail name or a list of names'),
  }),
  fromShorthand: (value) =>
    typeof value === 'boolean'
      ? { value }
      : { value: true, names: typeof value === 'string' ? [value] : value },
  create: ({ value, names: wanted, stage: at }) => ({
    name: 'guardrail_tripped',
    evaluate: (transcript) => {
      const trips = traceOf(transcript, 'guardrail_tripped').filter(
        (step) =>
          step.type === 'guardrail' &&
          step.action !== 'pass' &&
          (wanted === undefined || wanted.includes(step.name)) &&
          (at === undefined || step.stage === at),
      )
      const seen = trips.map((step) =>
        step.type === 'guardrail' ? `${step.name} ${step.action} (${step.stage})` : '',
      )
      const what = `${wanted ? codeList(wanted) : 'a guardrail'}${at ? ` at ${code(at)}` : ''}`
      if (trips.length > 0 === value)
        return { pass: true, reason: value ? `tripped: ${codeList(seen)}` : `no trip of ${what}` }
      return {
        pass: false,
        reason: value ? `expected ${what} to trip; none did` : `tripped: ${codeList(seen)}`,
      }
    },
  }),
})

export const interrupted = defineEvaluator({
  kind: 'interrupted',
  description:
    'The run stopped for approval of tool calls (`true`; `false` for never), optionally of these tools; scripted `approvals:` may have resumed it.',
  options: z.strictObject({ value: z.boolean().default(true), tools: names.optional() }),
  shorthand: z.union([z.boolean(), names], { error: expected('`true`, `false` or a list of tool names') }),
  fromShorthand: (value) => (typeof value === 'boolean' ? { value } : { value: true, tools: value }),
  create: ({ value, tools }) => ({
    name: 'interrupted',
    evaluate: (transcript) => {
      const waited = traceOf(transcript, 'interrupted').flatMap((step) =>
        step.type === 'approval' && step.status === 'pending' ? [step.name] : [],
      )
      const stopped = transcript.stopReason === 'interrupted'
      const matching = tools ? waited.filter((name) => tools.includes(name)) : waited
      const happened = tools ? matching.length > 0 : stopped || waited.length > 0
      const seen = waited.length > 0 ? `approval was asked for ${codeList(waited)}` : 'no approval was asked'
      const left = stopped ? '; the run ended waiting' : ''
      return { pass: happened === value, reason: `${seen}${left}` }
    },
  }),
})

function traceOf(transcript: Transcript, check: string): NonNullable<Transcript['trace']> {
  if (transcript.trace) return transcript.trace
  throw new NotReportedError(
    `\`${check}\` needs the run's trace, and this target reported none: use an agent built with this package's \`Agent\`, or return \`trace\` from the target.`,
  )
}
