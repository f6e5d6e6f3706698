import { toError } from '../errors.ts'
import type { Message, ToolCallRequest } from '../types.ts'
import { estimateUsage } from './estimate-usage.ts'
import { localSimulatedUserReply } from './local-simulated-user.ts'
import { localSummaryReply } from './local-summary.ts'
import type { Completion, CompletionRequest, Provider, ToolSchema } from './provider.ts'

type JsonSchema = Record<string, unknown>
type EnumValue = string | number | boolean | null

const STOP_WORDS = new Set(
  'a an and are as at be by can do for from get give how i in is it me my of on or please show the this to up what when where which who with you your set'.split(
    ' ',
  ),
)

/**
 * The `local` model: a deterministic offline stand-in so examples run without a key. It is NOT a language model.
 * It calls, one per turn, each tool whose name or description matches words of the user's last message (in the
 * order the words appear; `toolChoice` can force a tool or forbid them), fills arguments from the text (`name value` pairs, quoted strings, enum values,
 * numbers, ids, capitalized words), and once no matching tool is left, answers with a sentence that contains
 * the tool results. Asked for structured output, it fills the schema from the same text. Asked for a summary (by the
 * memory), it keeps the first sentence of each line.
 */
export class LocalProvider implements Provider {
  readonly id = 'local'
  readonly capabilities = { structuredOutput: true }

  complete(request: CompletionRequest, options: { signal: AbortSignal }): Promise<Completion> {
    // a rejected promise, not a synchronous throw: callers of a Promise-returning API only handle the former
    if (options.signal.aborted) return Promise.reject(toError(options.signal.reason))
    const { text, toolCalls } = reply(request)
    return Promise.resolve({
      message: { text, toolCalls },
      usage: estimateUsage(request, text, toolCalls),
      finishReason: toolCalls.length > 0 ? 'tool_calls' : 'stop',
      model: 'local',
    })
  }
}

function reply(request: CompletionRequest): { text: string; toolCalls: ToolCallRequest[] } {
  const simulatedUser = localSimulatedUserReply(request) ?? localSummaryReply(request)
  if (simulatedUser !== undefined) return { text: simulatedUser, toolCalls: [] }
  const userIndex = request.messages.findLastIndex((message) => message.role === 'user')
  const question = request.messages[userIndex]?.content ?? ''
  const since = request.messages.slice(userIndex + 1)
  const called = new Set(
    since
      .flatMap((message) => (message.role === 'assistant' ? (message.toolCalls ?? []) : []))
      .map((call) => call.name),
  )
  const next = nextTool(request, question, called)
  if (next) {
    const args = fillObject(next.parameters, question)
    return {
      text: '',
      toolCalls: [
        { id: `local_${request.messages.length}`, name: next.name, arguments: JSON.stringify(args) },
      ],
    }
  }
  const results = since.filter(
    (message): message is Extract<Message, { role: 'tool' }> => message.role === 'tool',
  )
  if (request.output)
    return {
      text: JSON.stringify(
        fillValue(request.output.schema, [question, ...results.map((r) => r.content)].join('\n')),
      ),
      toolCalls: [],
    }
  if (results.length === 0) return { text: `I have no tool for that. You asked: ${question}`, toolCalls: [] }
  const parts = results.map((result) =>
    result.isError ? `${result.name} failed (${result.content})` : result.content,
  )
  return { text: `${parts.join('. ')}.`.replace(/\.\.$/, '.'), toolCalls: [] }
}

/**
 * The tool to call next, as `toolChoice` allows: a named tool always; with `required`, a matching tool not yet
 * called, else the first tool offered; with `auto`, a matching tool not yet called; with `none`, none.
 */
function nextTool(request: CompletionRequest, question: string, called: Set<string>): ToolSchema | undefined {
  const choice = request.toolChoice ?? 'auto'
  if (choice === 'none') return undefined
  if (typeof choice === 'object') return request.tools.find((tool) => tool.name === choice.name)
  const matching = rankTools(question, request.tools).find((tool) => !called.has(tool.name))
  if (choice === 'auto') return matching
  return matching ?? request.tools.find((tool) => !called.has(tool.name)) ?? request.tools[0]
}

/** Tools whose name or description share words with the text, ordered by where the first such word appears. */
function rankTools(text: string, tools: readonly ToolSchema[]): ToolSchema[] {
  const words = text.toLowerCase().match(/[a-z0-9]+/g) ?? []
  const ranked: { tool: ToolSchema; position: number; score: number }[] = []
  for (const tool of tools) {
    const nameWords = new Set(
      tool.name
        .toLowerCase()
        .split(/[_\-\s]+/)
        .filter((word) => !STOP_WORDS.has(word)),
    )
    const descriptionWords = new Set(
      (tool.description.toLowerCase().match(/[a-z0-9]+/g) ?? []).filter((word) => !STOP_WORDS.has(word)),
    )
    let score = 0
    let position = Infinity
    words.forEach((word, index) => {
      const stem = word.replace(/(ing|ed|es|s)$/, '')
      const inName = [...nameWords].some(
        (name) => name === word || (stem.length > 3 && name.startsWith(stem)),
      )
      const inDescription = descriptionWords.has(word)
      if (!inName && !inDescription) return
      score += inName ? 2 : 1
      if (inName) position = Math.min(position, index)
    })
    if (score >= 2 && position !== Infinity) ranked.push({ tool, position, score })
  }
  return ranked.sort((a, b) => a.position - b.position || b.score - a.score).map((entry) => entry.tool)
}

function fillObject(schema: JsonSchema, text: string): Record<string, unknown> {
  const properties = (schema.properties ?? {}) as Record<string, JsonSchema>
  const required = new Set((schema.required ?? []) as string[])
  const used = new Set<string>()
  const args: Record<string, unknown> = {}
  for (const [name, property] of Object.entries(properties)) {
    const value =
      findValue(name, property, text, used) ?? (required.has(name) ? fillValue(property, text) : undefined)
    if (value !== undefined) args[name] = value
  }
  return args
}

/**
 * A number standing on its own: not the digits of an id such as `o-3`, `u-42`, `ORD-7` or `v2` (a letter, `-` or `_`
 * right before it), so `refund 20 for order o-3` gives 20 and never -3.
 */
const NUMBER = /(?<![\w-])-?\d+(?:\.\d+)?/g

function findValue(name: string, schema: JsonSchema, text: string, used: Set<string>): unknown {
  const type = schema.type
  const enumValues = schema.enum as unknown[] | undefined
  const label = name.replace(/[_-]+/g, '[ _-]?')
  if (enumValues) return findEnumValue(label, enumValues as EnumValue[], text, used)
  const pair = new RegExp(`\\b${label}\\s*(?:[:=]|is)?\\s*("[^"]*"|'[^']*'|[^\\s,;?!]+)`, 'i').exec(text)?.[1]
  const candidates = [
    pair?.replace(/^["']|["']$/g, ''),
    ...[...text.matchAll(/"([^"]+)"|'([^']+)'/g)].map((match) => match[1] ?? match[2]),
  ]
  if (type === 'number' || type === 'integer') {
    candidates.push(...(text.match(NUMBER) ?? []))
    const found = candidates.find(
      (candidate) =>
        candidate !== undefined &&
        candidate !== '' &&
        !Number.isNaN(Number(candidate)) &&
        !used.has(candidate),
    )
    if (found === undefined) return undefined
    used.add(found)
    return Number(found)
  }
  if (type === 'boolean') return pair === undefined ? undefined : /^(true|yes|on)$/i.test(pair)
  if (type !== 'string') return undefined
  const ids = text.match(/\b[a-z]+[-_]\d[\w-]*\b/gi) ?? []
  const names = text.match(/(?<=\s)[A-Z][a-zA-Z]+(?:\s[A-Z][a-zA-Z]+)*/g) ?? []
  // an id-like token (`u-42`) suits an `…id` argument; a capitalized name (`Paris`) suits the others
  if (/id$/i.test(name)) candidates.push(...ids, ...names)
  else candidates.push(...names, ...ids)
  const found = candidates.find(
    (candidate) => candidate !== undefined && candidate !== '' && !used.has(candidate),
  )
  if (found !== undefined) used.add(found)
  return found
}

/**
 * An enum value for one argument: the value named right after the argument (`from usd to eur` → from: usd,
 * to: eur), else the first value in the text that no earlier argument took.
 */
function findEnumValue(
  label: string,
  values: readonly EnumValue[],
  text: string,
  used: Set<string>,
): unknown {
  const valueOf = (word: string | undefined) =>
    values.find((value) => String(value).toLowerCase() === word?.replace(/^["']|["']$/g, '').toLowerCase())
  const named = [...text.matchAll(new RegExp(`\\b${label}\\s*(?:[:=]|is)?\\s*([^\\s,;?!]+)`, 'gi'))]
    .map((match) => valueOf(match[1]))
    .find((value) => value !== undefined)
  const mentioned = values
    .map((value) => ({ value, at: text.search(new RegExp(`\\b${escape(String(value))}\\b`, 'i')) }))
    .filter((entry) => entry.at >= 0)
    .sort((a, b) => a.at - b.at)
    .map((entry) => entry.value)
  const found = named ?? mentioned.find((value) => !used.has(String(value)))
  if (found !== undefined) used.add(String(found))
  return found
}

function fillValue(schema: JsonSchema, text: string): unknown {
  const enumValues = schema.enum as unknown[] | undefined
  if (enumValues)
    return (
      enumValues.find((value) => new RegExp(`\\b${escape(String(value))}\\b`, 'i').test(text)) ??
      enumValues[0]
    )
  switch (schema.type) {
    case 'object':
      return fillObject(schema, text)
    case 'array':
      return []
    case 'number':
    case 'integer':
      return Number(text.match(NUMBER)?.[0] ?? 0)
    case 'boolean':
      return false
    default:
      return text
  }
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
}
