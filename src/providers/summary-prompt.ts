import type { Message } from '../types.ts'

/** First line of every summary request's user message: how `local` tells a summary request from a question. */
export const SUMMARY_HEADER = 'Summarise this earlier part of a conversation:'

export const DEFAULT_SUMMARY_INSTRUCTIONS =
  'You summarise conversations for an assistant that can no longer see them. Keep the facts, names, numbers, ' +
  'decisions, tool results and open questions, in a few sentences. Reply with the summary only.'

/** The user message of a summary request: the summary so far, then the dropped messages one per line. */
export function summaryRequestText(previous: string | undefined, dropped: readonly Message[]): string {
  const lines = dropped.flatMap(lineOf)
  const before = previous ? [`Summary so far: ${previous}`] : []
  return [SUMMARY_HEADER, ...before, ...lines].join('\n')
}

function lineOf(message: Message): string[] {
  switch (message.role) {
    case 'system':
    case 'user':
      return [`${message.role}: ${oneLine(message.content)}`]
    case 'assistant':
      return [
        ...(message.content ? [`assistant: ${oneLine(message.content)}`] : []),
        ...(message.toolCalls ?? []).map(
          (call) => `assistant called ${call.name} ${oneLine(call.arguments)}`,
        ),
      ]
    case 'tool':
      return [`${message.name} ${message.isError ? 'failed' : 'returned'}: ${oneLine(message.content)}`]
  }
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim()
}
