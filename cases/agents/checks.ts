/** A `custom:` check for cases/quickstart.yaml: return a boolean, or a verdict that explains itself. */
import type { Transcript } from 'agent-evals'

/** Every successful tool result appears in the answer, so the agent did not drop what it found. */
export function quotesEveryToolResult(transcript: Transcript): { pass: boolean; reason: string } {
  const calls = transcript.toolCalls
  // null: the target does not report its tool calls, so there is nothing to check against (the case errors)
  if (calls === null) throw new Error('the target does not report its tool calls')
  const missing = calls
    .filter((call) => call.error === undefined && typeof call.result === 'string')
    .filter((call) => !transcript.output.includes(call.result as string))
    .map((call) => call.name)
  if (calls.length === 0) return { pass: false, reason: 'the agent called no tool' }
  return missing.length === 0
    ? { pass: true, reason: `the answer quotes all ${calls.length} tool results` }
    : {
        pass: false,
        reason: `the answer leaves out the result of ${missing.map((name) => `\`${name}\``).join(', ')}`,
      }
}
