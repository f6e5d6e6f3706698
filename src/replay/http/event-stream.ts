/** Whether a reply is a server-sent event stream (a streamed model reply). */
export function isEventStream(headers: Headers): boolean {
  return headers.get('content-type')?.split(';')[0]?.trim().toLowerCase() === 'text/event-stream'
}

/**
 * Passes `body` on as it arrives and, once it has ended whole, hands `onEnd` its events (each with the blank line
 * that ends it), the unit a stream is replayed in. A stream cut short (an error, the reader cancelling) is not
 * handed on: a torn reply is not a recording.
 */
export function recordingStream(
  body: ReadableStream<Uint8Array>,
  onEnd: (events: string[]) => void,
): ReadableStream<Uint8Array> {
  const decoder = new TextDecoder()
  let text = ''
  const reader = body.getReader()
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      const { done, value } = await reader.read()
      if (done) {
        text += decoder.decode()
        controller.close()
        onEnd(eventsOf(text))
        return
      }
      text += decoder.decode(value, { stream: true })
      controller.enqueue(value)
    },
    cancel(reason) {
      return reader.cancel(reason)
    },
  })
}

/** A recorded stream played back, one event a chunk. */
export function replayedStream(events: readonly string[]): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder()
  let next = 0
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      const event = events[next++]
      if (event === undefined) controller.close()
      else controller.enqueue(encoder.encode(event))
    },
  })
}

function eventsOf(text: string): string[] {
  return text.split(/(?<=\r?\n\r?\n)/).filter((event) => event !== '')
}
