import { conversationOf, type Adapter, type TranscriptParts } from './adapter.ts'
import { mapAiSdkResult, type AiSdkResult, type MapOptions } from './ai-sdk.ts'
import { toModelMessages, type ModelMessage } from './ai-sdk-messages.ts'
import { withCost } from './parts.ts'

/** What a Mastra agent's `generate()` returns (`FullOutput`): AI SDK steps and messages, and a `tripwire`. */
export interface MastraOutput extends AiSdkResult {
  /** set when a processor (a guardrail) stopped the run */
  tripwire?: { reason: string; processorId?: string } | undefined
}

/** Recognises a Mastra `generate()` output: an AI SDK result with Mastra's run and trace ids. */
export function isMastraOutput(value: unknown): value is MastraOutput {
  return (
    typeof value === 'object' &&
    value !== null &&
    'steps' in value &&
    'totalUsage' in value &&
    'runId' in value &&
    'tripwire' in value
  )
}

/**
 * Maps a Mastra agent's `generate()` output to transcript parts, as the AI SDK mapper does (Mastra's steps and
 * response messages are the AI SDK's); a tripped guardrail is a `content_filter` stop.
 */
export async function fromMastra(output: MastraOutput, options: MapOptions = {}): Promise<TranscriptParts> {
  const { parts, calls } = mapMastraOutput(output, options)
  return withCost(parts, calls)
}

function mapMastraOutput(
  output: MastraOutput,
  options: MapOptions,
  runStart = Date.now(),
): ReturnType<typeof mapAiSdkResult> {
  const mapped = mapAiSdkResult(output, options, 'mastra', runStart, 'response')
  if (output.tripwire) {
    const by = output.tripwire.processorId === undefined ? '' : ` (${output.tripwire.processorId})`
    mapped.parts.stopReason = 'content_filter'
    mapped.parts.stopDetail = `a guardrail stopped the run${by}: ${output.tripwire.reason}`
  }
  return mapped
}

interface MastraAgent {
  name: string
  generate(messages: ModelMessage[], options: { abortSignal?: AbortSignal }): Promise<MastraOutput>
}

export const mastraAdapter: Adapter = {
  name: 'mastra',
  framework: 'Mastra',
  package: '@mastra/core',
  supported: { from: '1.0.0', below: '2.0.0' },
  matches: (value) =>
    typeof value === 'object' &&
    value !== null &&
    typeof (value as Partial<MastraAgent>).generate === 'function' &&
    typeof (value as { getInstructions?: unknown }).getInstructions === 'function' &&
    typeof (value as { listTools?: unknown }).listTools === 'function',
  async run(agent, { input, history, signal }) {
    const runStart = Date.now()
    const messages = toModelMessages(conversationOf(input, history))
    const output = await (agent as MastraAgent).generate(messages, { abortSignal: signal })
    const { parts, calls } = mapMastraOutput(output, { input, ...(history && { history }) }, runStart)
    parts.agent ??= (agent as MastraAgent).name
    return withCost(parts, calls)
  },
}
