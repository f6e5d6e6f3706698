import { z } from 'zod'
import { NotReportedError } from '../errors.ts'
import { AGENT_STOPS, type StopReason, type Transcript } from '../types.ts'
import { defineEvaluator, expected } from './definition.ts'
import { code, codeList } from './describe.ts'
import type { Verdict } from './evaluator.ts'

const stopReasons = [
  'final',
  'terminal_tool',
  'max_iterations',
  'usage_limit',
  'tool_failures',
  'invalid_output',
  'truncated',
  'content_filter',
] as const satisfies readonly StopReason[]

const reason = z.enum(stopReasons, { error: expected(`one of ${stopReasons.join(', ')}`) })
const reasons = z.union([reason, z.array(reason).min(1)])

export const stopReason = defineEvaluator({
  kind: 'stop_reason',
  description:
    'The agent stopped for this reason (or one of these), e.g. `max_iterations`; a case with this check is graded by it rather than failed by any stop of the agent’s own.',
  options: z.strictObject({ value: reasons }),
  shorthand: reasons,
  fromShorthand: (value) => ({ value }),
  create: ({ value }) => {
    const allowed: readonly StopReason[] = Array.isArray(value) ? value : [value]
    return {
      name: 'stop_reason',
      gradesStop: true,
      evaluate: (transcript) => {
        const stopped = transcript.stopReason
        if (stopped === undefined) {
          throw new NotReportedError(
            `\`stop_reason\` needs why the agent stopped, which this target does not report (transcript source \`${transcript.source}\`): give the framework agent itself as \`agent:\`, or return \`stopReason\` with the output.`,
          )
        }
        const detail = transcript.stopDetail === undefined ? '' : ` (${transcript.stopDetail})`
        return allowed.includes(stopped)
          ? { pass: true, reason: `the agent stopped with ${code(stopped)}${detail}` }
          : {
              pass: false,
              reason: `expected the agent to stop with ${codeList(allowed)}, it stopped with ${code(stopped)}${detail}`,
            }
      },
    }
  },
})

/**
 * The failing verdict of a case whose agent stopped on its own account (out of iterations, tool retries, a truncated
 * or filtered reply, invalid output, a usage limit): the stop and its detail are the evidence. Undefined otherwise.
 */
export function agentStopVerdict(transcript: Transcript): Verdict | undefined {
  const stopped = transcript.stopReason
  if (stopped === undefined || !AGENT_STOPS.has(stopped)) return undefined
  const detail = transcript.stopDetail === undefined ? '' : `: ${transcript.stopDetail}`
  return {
    pass: false,
    reason: `the agent stopped without an answer (${code(stopped)})${detail}`,
    details: {
      stopReason: stopped,
      ...(transcript.stopDetail === undefined ? {} : { detail: transcript.stopDetail }),
    },
  }
}
