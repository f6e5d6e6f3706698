import { InternalError } from '../errors.ts'
import type { ReportSource } from './read.ts'
import type { ReportCase } from './schema.ts'

/** how many cases a reader may run ahead of the slowest before it waits for it */
const AHEAD = 256

/**
 * One reading of a report's cases, split among `readers` renderers that run at once: each case is read and parsed
 * once and handed to every reader as the same object, which renderers only read. A reader waits rather than run
 * more than a few hundred cases ahead of the slowest, so the cases held stay a small window whatever the report's
 * size. Each returned source's `cases()` is read once; `release(reader)` (when its renderer is done, whether it read
 * every case, some or none) stops it holding the others back.
 */
export function shareCases(
  source: ReportSource,
  readers: number,
): { sources: ReportSource[]; release: (reader: number) => void } {
  if (readers === 1) return { sources: [source], release: () => undefined }
  const shared = new SharedCases(source, readers)
  return {
    sources: Array.from({ length: readers }, (_, reader) => ({
      path: source.path,
      header: source.header,
      cases: () => shared.read(reader),
    })),
    release: (reader) => {
      shared.release(reader)
    },
  }
}

class SharedCases {
  readonly #source: ReportSource
  /** the next case each reader takes; Infinity once released */
  readonly #positions: number[]
  /** the cases read and not yet taken by every reader, the first of them case `#base` */
  readonly #window: ReportCase[] = []
  #base = 0
  #cases: AsyncIterator<ReportCase> | Iterator<ReportCase> | undefined
  #done = false
  #reading: Promise<void> | undefined
  #waiting: (() => void)[] = []
  readonly #started = new Set<number>()

  constructor(source: ReportSource, readers: number) {
    this.#source = source
    this.#positions = new Array<number>(readers).fill(0)
  }

  read(reader: number): AsyncGenerator<ReportCase> {
    // a second reading would start where the first left off, or wait forever once released
    if (this.#started.has(reader)) throw new InternalError('a shared report source is read once')
    this.#started.add(reader)
    return this.#read(reader)
  }

  async *#read(reader: number): AsyncGenerator<ReportCase> {
    try {
      for (;;) {
        const at = this.#positions[reader] ?? Infinity
        while (at >= this.#base + this.#window.length && !this.#done) {
          if (at - this.#base >= AHEAD) await this.#slowestMoves()
          else await (this.#reading ??= this.#readOne())
        }
        const value = this.#window[at - this.#base]
        if (value === undefined) return
        this.#positions[reader] = at + 1
        this.#drop()
        yield value
      }
    } finally {
      this.release(reader)
    }
  }

  release(reader: number): void {
    this.#positions[reader] = Infinity
    this.#drop()
  }

  async #readOne(): Promise<void> {
    try {
      this.#cases ??= iteratorOf(this.#source.cases())
      const next = await this.#cases.next()
      if (next.done === true) this.#done = true
      else this.#window.push(next.value)
    } finally {
      this.#reading = undefined
    }
  }

  /** Drops the cases every reader has taken, and wakes the readers waiting for the slowest to move. */
  #drop(): void {
    const slowest = Math.min(...this.#positions)
    const taken = Math.min(slowest, this.#base + this.#window.length) - this.#base
    if (taken <= 0) return
    this.#window.splice(0, taken)
    this.#base += taken
    const waiting = this.#waiting
    this.#waiting = []
    for (const wake of waiting) wake()
  }

  #slowestMoves(): Promise<void> {
    return new Promise((resolve) => this.#waiting.push(resolve))
  }
}

function iteratorOf<T>(items: AsyncIterable<T> | Iterable<T>): AsyncIterator<T> | Iterator<T> {
  return Symbol.asyncIterator in items ? items[Symbol.asyncIterator]() : items[Symbol.iterator]()
}
