import type { Message as AnthropicMessage } from '@anthropic-ai/sdk/resources/messages'
import type { ChatCompletion } from 'openai/resources/chat/completions'
import { z } from 'zod'

/**
 * A reply that arrived whole (HTTP 200, valid JSON) but is not the API's answer: no `choices`, a `null` message, an
 * error body sent with 200. Broken gateways and proxies send these; they are the infrastructure's failure, never the
 * agent's, so a provider turns this into a retryable `ProviderError` and the case ends `errored`.
 */
export class MalformedReplyError extends Error {
  override readonly name = 'MalformedReplyError'
}

const text = z.string().nullish()
const openAiToolCall = z.looseObject({
  id: z.string(),
  function: z.looseObject({ name: z.string(), arguments: z.string() }).optional(),
  custom: z.looseObject({ name: z.string(), input: z.string() }).optional(),
})
const openAiCompletion = z.looseObject({
  choices: z
    .array(
      z.looseObject({
        message: z.looseObject(
          { content: text, refusal: text, tool_calls: z.array(openAiToolCall).nullish() },
          { error: (issue) => (issue.input == null ? 'is null' : 'is not an object') },
        ),
      }),
      { error: (issue) => (issue.input === undefined ? 'is missing' : 'is not a list') },
    )
    .min(1, { error: 'is empty: the server answered HTTP 200 with no message' }),
})

const anthropicMessage = z.looseObject({
  content: z.array(z.looseObject({ type: z.string() }), {
    error: (issue) => (issue.input == null ? 'is missing' : 'is not a list'),
  }),
  usage: z.looseObject({ input_tokens: z.number(), output_tokens: z.number() }).optional(),
})

/** The completion, or a `MalformedReplyError` naming the first part of it that is not what the API sends. */
export function checkOpenAiCompletion(reply: unknown): ChatCompletion {
  const error = errorBody(reply)
  if (error !== undefined) throw new MalformedReplyError(error)
  const result = openAiCompletion.safeParse(reply)
  if (!result.success) throw new MalformedReplyError(describe(result.error))
  return reply as ChatCompletion
}

/** The message, or a `MalformedReplyError`: Anthropic's own empty `content: []` is an answer and passes. */
export function checkAnthropicMessage(reply: unknown): AnthropicMessage {
  const error = errorBody(reply)
  if (error !== undefined) throw new MalformedReplyError(error)
  const result = anthropicMessage.safeParse(reply)
  if (!result.success) throw new MalformedReplyError(describe(result.error))
  return reply as AnthropicMessage
}

function errorBody(reply: unknown): string | undefined {
  if (typeof reply !== 'object' || reply === null || Array.isArray(reply))
    return `the reply is ${reply === null ? 'null' : Array.isArray(reply) ? 'a list' : typeof reply}, not a JSON object`
  const error = (reply as { error?: unknown }).error
  if (error === undefined || error === null) return undefined
  const message = (error as { message?: unknown }).message
  return `HTTP 200 with an error body: ${typeof message === 'string' ? message : JSON.stringify(error).slice(0, 200)}`
}

function describe(error: z.ZodError): string {
  const issue = error.issues[0]
  if (issue === undefined) return 'the reply does not have the shape of an answer'
  const path = issue.path.map((key) => (typeof key === 'number' ? `[${key}]` : `.${String(key)}`)).join('')
  return `\`${path.replace(/^\./, '')}\` ${issue.message}`
}
