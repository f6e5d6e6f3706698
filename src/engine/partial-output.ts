import { parse } from 'partial-json'
import type { EmitEvent } from './event-channel.ts'

/**
 * Follows the text of one structured reply as it streams and emits `partial-output` with what parses of it so far,
 * each time that changes. Text before the JSON (a code fence, a sentence) is skipped.
 */
export function partialOutputTracker(emit: EmitEvent, iteration: number): (delta: string) => void {
  let text = ''
  let last = ''
  /** where the JSON starts, once seen */
  let start = -1
  return (delta) => {
    text += delta
    if (start < 0) start = text.search(/[[{]/)
    if (start < 0) return
    let partial: unknown
    try {
      partial = parse(text.slice(start).replace(/\s*`+\s*$/, ''))
    } catch {
      return
    }
    const shown = JSON.stringify(partial)
    if (shown === last) return
    last = shown
    void emit({ type: 'partial-output', partial, iteration })
  }
}
