import type { ToolCallRecord, Usage } from '../types.ts'

type Json = Record<string, unknown>

const count = (value: unknown): number | undefined => (typeof value === 'number' ? value : undefined)

/**
 * Token usage in the shapes agent endpoints copy from their model API: OpenAI Chat Completions
 * (`prompt_tokens`, `prompt_tokens_details.cached_tokens`), the Responses API and Anthropic (`input_tokens`, with
 * `input_tokens_details.cached_tokens` or `cache_read_input_tokens`), or ours (`inputTokens`); undefined otherwise.
 */
export function usageFromReply(value: unknown): Usage | undefined {
  if (typeof value !== 'object' || value === null) return undefined
  const usage = value as Json
  const details = (key: string): Json => (usage[key] ?? {}) as Json
  const input = count(usage.prompt_tokens) ?? count(usage.input_tokens) ?? count(usage.inputTokens)
  const output = count(usage.completion_tokens) ?? count(usage.output_tokens) ?? count(usage.outputTokens)
  if (input === undefined && output === undefined) return undefined
  const anthropicRead = count(usage.cache_read_input_tokens)
  const anthropicWrite = count(usage.cache_creation_input_tokens)
  const cacheRead =
    count(details('prompt_tokens_details').cached_tokens) ??
    count(details('input_tokens_details').cached_tokens) ??
    anthropicRead ??
    count(usage.cacheReadTokens) ??
    0
  const cacheWrite = anthropicWrite ?? count(usage.cacheWriteTokens) ?? 0
  // Anthropic counts cache reads and writes apart from `input_tokens`; ours include them
  const inputTokens =
    (input ?? 0) + (usage.cache_read_input_tokens === undefined ? 0 : cacheRead) + (anthropicWrite ?? 0)
  return { cacheReadTokens: cacheRead, cacheWriteTokens: cacheWrite, inputTokens, outputTokens: output ?? 0 }
}

/**
 * Tool calls in the shapes an endpoint may list them: OpenAI's (`{ id, function: { name, arguments } }`),
 * Anthropic's (`{ type: 'tool_use', id, name, input }`) or ours (`{ name, args, result?, error? }`). Returns
 * undefined when `value` is not a list of them.
 */
export function toolCallsFromReply(value: unknown): ToolCallRecord[] | undefined {
  if (!Array.isArray(value)) return undefined
  const calls: ToolCallRecord[] = []
  for (const [index, item] of value.entries()) {
    if (typeof item !== 'object' || item === null) return undefined
    const call = item as Json
    const fn = call.function as Json | undefined
    const name = fn?.name ?? call.name
    if (typeof name !== 'string') return undefined
    const args = fn ? parsed(fn.arguments) : (call.args ?? call.input ?? parsed(call.arguments))
    const record: ToolCallRecord = { id: typeof call.id === 'string' ? call.id : `call_${index}`, name, args }
    if (call.result !== undefined) record.result = call.result
    if (typeof call.error === 'string') record.error = call.error
    if (typeof call.durationMs === 'number') record.durationMs = call.durationMs
    calls.push(record)
  }
  return calls
}

function parsed(value: unknown): unknown {
  if (typeof value !== 'string') return value ?? {}
  try {
    return JSON.parse(value) as unknown
  } catch {
    return value
  }
}
