/** A push-based queue read as an async iterable; `close()` ends iteration, `fail()` makes it throw. */
export class AsyncQueue<Item> implements AsyncIterable<Item> {
  readonly #items: Item[] = []
  #waiting: ((result: IteratorResult<Item>) => void) | undefined
  #rejectWaiting: ((error: unknown) => void) | undefined
  #closed = false
  #error: Error | undefined

  push(item: Item): void {
    if (this.#closed) return
    if (this.#waiting) {
      const resolve = this.#waiting
      this.#waiting = this.#rejectWaiting = undefined
      resolve({ value: item, done: false })
    } else this.#items.push(item)
  }

  close(): void {
    this.#closed = true
    this.#waiting?.({ value: undefined, done: true })
    this.#waiting = this.#rejectWaiting = undefined
  }

  fail(error: Error): void {
    this.#error = error
    this.#closed = true
    this.#rejectWaiting?.(error)
    this.#waiting = this.#rejectWaiting = undefined
  }

  async *[Symbol.asyncIterator](): AsyncGenerator<Item> {
    while (true) {
      const item = this.#items.shift()
      if (item !== undefined) {
        yield item
        continue
      }
      if (this.#error !== undefined) throw this.#error
      if (this.#closed) return
      const next = await new Promise<IteratorResult<Item>>((resolve, reject) => {
        this.#waiting = resolve
        this.#rejectWaiting = reject
      })
      if (next.done) return
      yield next.value
    }
  }
}
