import type { CompletionRequest } from './provider.ts'
import { SUMMARY_HEADER } from './summary-prompt.ts'

const MAX_LINE = 120

/**
 * How `local` summarises (it is not a language model): the summary so far, then the first sentence of each line of
 * the conversation, shortened to 120 characters. Undefined when the request is not a summary request.
 */
export function localSummaryReply(request: CompletionRequest): string | undefined {
  const last = request.messages.at(-1)
  if (last?.role !== 'user' || !last.content.startsWith(SUMMARY_HEADER)) return undefined
  return last.content
    .slice(SUMMARY_HEADER.length)
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => {
      const sentence = /^.*?[.!?](?=\s|$)/.exec(line)?.[0] ?? line
      return sentence.length > MAX_LINE ? `${sentence.slice(0, MAX_LINE - 1)}…` : sentence
    })
    .join(' | ')
}
