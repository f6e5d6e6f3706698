import { NotReportedError } from '../errors.ts'
import type { Transcript } from '../types.ts'

type Unreportable = 'toolCalls' | 'iterations' | 'usage' | 'costUsd' | 'agent'

const what: Record<Unreportable, string> = {
  toolCalls: 'the tool calls',
  iterations: 'the number of model calls',
  usage: 'the token usage',
  costUsd: 'the cost',
  agent: 'which agent answered',
}

/** for a target whose spans can say it: trace capture */
const TRACE_HINT = ', or capture its OpenTelemetry spans with `trace: true` (`--trace`)'

const how: Record<Unreportable, string> = {
  toolCalls:
    'give the framework agent itself as `agent:`, return `toolCalls` with the output (or a framework result through a mapper such as `fromAiSdk`), or set `tool_calls:` on an http target' +
    TRACE_HINT,
  iterations:
    'give the framework agent itself as `agent:`, or return `iterations` with the output (or a framework result through a mapper such as `fromAiSdk`)' +
    TRACE_HINT,
  usage:
    'give the framework agent itself as `agent:`, return `usage` with the output, or set `usage:` on an http target' +
    TRACE_HINT,
  costUsd:
    'give the framework agent itself as `agent:`, return `costUsd` (or `usage` and the model, priced with `costOf`) with the output, or set `usage:` and `model:` on an http target' +
    TRACE_HINT,
  agent: 'give the framework agent itself as `agent:`, or return `agent` with the output',
}

/**
 * The field's value, or a NotReportedError saying which check needed it and how the target can report it: an
 * unknown value is never graded as none.
 */
export function reported<Field extends Unreportable>(
  transcript: Transcript,
  field: Field,
  check: string,
): NonNullable<Transcript[Field]> {
  const value: Transcript[Field] = transcript[field]
  if (value != null) return value
  if (field === 'costUsd' && transcript.usage !== null) {
    throw new NotReportedError(
      `\`${check}\` needs the cost, and no price is known for the model${modelsOf(transcript)}: set \`costUsd\` on the result, or drop \`${check}\`.`,
    )
  }
  throw new NotReportedError(
    `\`${check}\` needs ${what[field]}, which this target does not report (transcript source \`${transcript.source}\`): ${how[field]}.`,
  )
}

function modelsOf(transcript: Transcript): string {
  const models = new Set<string>()
  for (const step of transcript.trace ?? []) if (step.type === 'llm_call') models.add(step.model)
  return models.size === 0 ? '' : ` (${[...models].map((model) => `\`${model}\``).join(', ')})`
}
