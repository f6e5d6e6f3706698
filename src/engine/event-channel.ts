import type { AgentEvent } from './agent-run.ts'

/**
 * Hands a run's events to the `agent.stream()` reader. `push` resolves once the reader asks for the event after it,
 * so a producer that awaits it never runs ahead of the reader; `cancel()` releases every waiting producer.
 */
export class EventChannel<Item> implements AsyncIterable<Item> {
  readonly #items: { item: Item; taken: () => void }[] = []
  /** the entry the reader holds: its producer goes on when the reader asks for more, or leaves */
  #held: (() => void) | undefined
  #wake: (() => void) | undefined
  #ended = false
  #cancelled = false
  #error: Error | undefined

  push(item: Item): Promise<void> {
    if (this.#ended || this.#cancelled) return Promise.resolve()
    return new Promise((taken) => {
      this.#items.push({ item, taken })
      this.#wakeReader()
    })
  }

  /** The producer is done: the reader gets what is left, then the end. */
  end(): void {
    this.#ended = true
    this.#wakeReader()
  }

  /** The producer failed: the reader gets what is left, then this error. */
  fail(error: Error): void {
    this.#error = error
    this.#ended = true
    this.#wakeReader()
  }

  /** The reader left: drops what is left and lets every waiting producer go on. */
  cancel(): void {
    this.#cancelled = true
    this.#held?.()
    for (const entry of this.#items.splice(0)) entry.taken()
  }

  async *[Symbol.asyncIterator](): AsyncGenerator<Item> {
    while (true) {
      const entry = this.#items.shift()
      if (entry) {
        this.#held = entry.taken
        yield entry.item
        this.#held = undefined
        entry.taken()
        continue
      }
      if (this.#error) throw this.#error
      if (this.#ended || this.#cancelled) return
      await new Promise<void>((resolve) => {
        this.#wake = resolve
      })
    }
  }

  #wakeReader(): void {
    const wake = this.#wake
    this.#wake = undefined
    wake?.()
  }
}

/** How the loop hands an event to `agent.stream()`; a returned promise resolves when the reader wants more. */
export type EmitEvent = (event: AgentEvent<unknown>) => void | Promise<void>
