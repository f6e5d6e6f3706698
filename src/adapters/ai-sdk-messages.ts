import { jsonOrText } from '../util/json-or-text.ts'
import type { Message } from '../types.ts'
import { textOf, type ToolCallLog } from './parts.ts'

/** A tool result's output in the AI SDK's model messages (v5 and later; Mastra uses them too). */
type ToolOutput =
  | { type: 'text' | 'error-text'; value: string }
  | { type: 'json' | 'error-json'; value: unknown }
  | { type: 'execution-denied'; reason?: string }
  | { type: 'content'; value: unknown[] }

interface TextPart {
  type: 'text'
  text: string
}
interface ToolCallPart {
  type: 'tool-call'
  toolCallId: string
  toolName: string
  input: unknown
}
interface ToolResultPart {
  type: 'tool-result'
  toolCallId: string
  toolName: string
  output: { type: 'text' | 'error-text'; value: string }
}

/** A message as the AI SDK's `ModelMessage` (5 and later): what `generateText({ messages })` takes. */
export type ModelMessage =
  | { role: 'system'; content: string }
  | { role: 'user'; content: string }
  | { role: 'assistant'; content: string | (TextPart | ToolCallPart)[] }
  | { role: 'tool'; content: ToolResultPart[] }

type Part =
  | TextPart
  | ToolCallPart
  | { type: 'tool-result'; toolCallId: string; toolName: string; output: ToolOutput }
  | { type: string }

/** A message of a result's `response.messages`, as far as the mapping reads it. */
export interface ResponseMessage {
  role: string
  content: string | readonly Part[]
}

/** Our messages as AI SDK model messages: tool calls as `tool-call` parts, results as `tool-result` parts. */
export function toModelMessages(messages: readonly Message[]): ModelMessage[] {
  return messages.map((message): ModelMessage => {
    switch (message.role) {
      case 'system':
      case 'user':
        return { role: message.role, content: message.content }
      case 'assistant': {
        if (!message.toolCalls?.length) return { role: 'assistant', content: message.content }
        const text: TextPart[] = message.content ? [{ type: 'text', text: message.content }] : []
        const calls = message.toolCalls.map((call): ToolCallPart => ({
          type: 'tool-call',
          toolCallId: call.id,
          toolName: call.name,
          input: jsonOrText(call.arguments),
        }))
        return { role: 'assistant', content: [...text, ...calls] }
      }
      case 'tool':
        return {
          role: 'tool',
          content: [
            {
              type: 'tool-result',
              toolCallId: message.toolCallId,
              toolName: message.name,
              output: { type: message.isError ? 'error-text' : 'text', value: message.content },
            },
          ],
        }
    }
  })
}

/** AI SDK model messages as ours; each tool call, result and error also goes into `log`. */
export function fromModelMessages(messages: readonly ResponseMessage[], log: ToolCallLog): Message[] {
  const out: Message[] = []
  for (const message of messages) {
    const parts: readonly Part[] =
      typeof message.content === 'string' ? [{ type: 'text', text: message.content }] : message.content
    if (message.role === 'assistant') {
      const text = parts.flatMap((part) => (isText(part) ? [part.text] : [])).join('')
      const calls = parts.filter(isToolCall)
      for (const call of calls) log.call(call.toolCallId, call.toolName, call.input)
      out.push({
        role: 'assistant',
        content: text,
        ...(calls.length > 0 && {
          toolCalls: calls.map((call) => ({
            id: call.toolCallId,
            name: call.toolName,
            arguments: textOf(call.input),
          })),
        }),
      })
    } else if (message.role === 'tool') {
      for (const part of parts.filter(isToolResult)) {
        const { text, failed } = outputText(part.output)
        if (failed) log.error(part.toolCallId, text)
        else log.result(part.toolCallId, outputValue(part.output))
        out.push({
          role: 'tool',
          toolCallId: part.toolCallId,
          name: part.toolName,
          content: text,
          ...(failed && { isError: true }),
        })
      }
    } else if (message.role === 'system' || message.role === 'user') {
      const text = parts.flatMap((part) => (isText(part) ? [part.text] : [])).join('')
      out.push({ role: message.role, content: text })
    }
  }
  return out
}

/** A step's content part (`generateText` results, AI SDK 5 and later), as far as the mapping reads it. */
export type StepPart =
  | TextPart
  | (ToolCallPart & { invalid?: boolean; error?: unknown })
  | { type: 'tool-result'; toolCallId: string; toolName: string; output: unknown; preliminary?: boolean }
  | { type: 'tool-error'; toolCallId: string; toolName: string; error: unknown }
  | { type: string }

/**
 * The steps' content as our messages: per step the assistant's text and tool calls, then one tool message per
 * result or error. Each tool call, result and error also goes into `log`.
 */
export function fromStepContent(
  steps: readonly { content?: readonly StepPart[] }[],
  log: ToolCallLog,
): Message[] {
  const out: Message[] = []
  for (const step of steps) {
    const parts = step.content ?? []
    const text = parts.flatMap((part) => (isText(part) ? [part.text] : [])).join('')
    const calls = parts.filter(isToolCall)
    for (const call of calls) {
      log.call(call.toolCallId, call.toolName, call.input)
      const invalid = call as { invalid?: boolean; error?: unknown }
      if (invalid.invalid === true) log.error(call.toolCallId, textOf(invalid.error ?? 'invalid tool call'))
    }
    out.push({
      role: 'assistant',
      content: text,
      ...(calls.length > 0 && {
        toolCalls: calls.map((call) => ({
          id: call.toolCallId,
          name: call.toolName,
          arguments: textOf(call.input),
        })),
      }),
    })
    for (const part of parts) {
      if (part.type !== 'tool-result' && part.type !== 'tool-error') continue
      const outcome = part as {
        toolCallId: string
        toolName: string
        output?: unknown
        error?: unknown
        preliminary?: boolean
      }
      if (outcome.preliminary === true) continue
      const failed = part.type === 'tool-error'
      const content = textOf(failed ? outcome.error : outcome.output)
      if (failed) log.error(outcome.toolCallId, content)
      else log.result(outcome.toolCallId, outcome.output)
      out.push({
        role: 'tool',
        toolCallId: outcome.toolCallId,
        name: outcome.toolName,
        content,
        ...(failed && { isError: true }),
      })
    }
  }
  return out
}

function outputText(output: ToolOutput): { text: string; failed: boolean } {
  switch (output.type) {
    case 'text':
    case 'json':
      return { text: textOf(output.value), failed: false }
    case 'error-text':
    case 'error-json':
      return { text: textOf(output.value), failed: true }
    case 'execution-denied':
      return { text: `execution denied${output.reason ? `: ${output.reason}` : ''}`, failed: true }
    case 'content':
      return { text: textOf(output.value), failed: false }
  }
}

function outputValue(output: ToolOutput): unknown {
  return 'value' in output ? output.value : undefined
}

function isText(part: { type: string }): part is TextPart {
  return part.type === 'text' && typeof (part as { text?: unknown }).text === 'string'
}

function isToolCall(part: { type: string }): part is ToolCallPart {
  return part.type === 'tool-call'
}

function isToolResult(part: Part): part is Extract<Part, { type: 'tool-result' }> {
  return part.type === 'tool-result'
}
