import { InternalError } from '../errors.ts'
import { sourceOfBatches, type ReportSource } from './read.ts'
import type { ReportCase } from './schema.ts'

/**
 * How many batches a reader may take beyond the slowest reader's: 1, so the readers go batch by batch together and
 * at most two batches (of at most 256 cases each) are held, the slowest's and the one after it. A renderer works
 * through a batch without waiting, so more room ahead would only hold more.
 */
const AHEAD_BATCHES = 1

/**
 * One reading of a report's cases, split among `readers` renderers that run at once: each batch of cases is read
 * and parsed once and handed to every reader as the same objects, which renderers only read. A reader waits rather
 * than take a batch more than `AHEAD_BATCHES` beyond the slowest reader's, so the cases held stay a small window
 * whatever the report's size. Each returned source is read once (`batches()` or `cases()`); `release(reader)` (when
 * its renderer is done, whether it read every case, some or none) stops it holding the others back. A failure
 * reading the source reaches every reader still reading.
 */
export function shareCases(
  source: ReportSource,
  readers: number,
): { sources: ReportSource[]; release: (reader: number) => void } {
  if (readers === 1) return { sources: [source], release: () => undefined }
  const shared = new SharedBatches(source, readers)
  return {
    sources: Array.from({ length: readers }, (_, reader) =>
      sourceOfBatches(source.path, source.header, () => shared.read(reader)),
    ),
    release: (reader) => {
      shared.release(reader)
    },
  }
}

type Batch = readonly ReportCase[]

class SharedBatches {
  readonly #source: ReportSource
  /** the next batch each reader takes; Infinity once released */
  readonly #positions: number[]
  /** the batches read and not yet taken by every reader, the first of them batch `#base` */
  readonly #window: Batch[] = []
  #base = 0
  #batches: AsyncIterator<Batch> | Iterator<Batch> | undefined
  #done = false
  #failed: { error: unknown } | undefined
  #reading: Promise<void> | undefined
  #waiting: (() => void)[] = []
  readonly #started = new Set<number>()

  constructor(source: ReportSource, readers: number) {
    this.#source = source
    this.#positions = new Array<number>(readers).fill(0)
  }

  read(reader: number): AsyncGenerator<Batch> {
    // a second reading would start where the first left off, or wait forever once released
    if (this.#started.has(reader)) throw new InternalError('a shared report source is read once')
    this.#started.add(reader)
    return this.#read(reader)
  }

  async *#read(reader: number): AsyncGenerator<Batch> {
    try {
      for (;;) {
        const at = this.#positions[reader] ?? Infinity
        while (at >= this.#base + this.#window.length && !this.#done) {
          if (this.#failed) throw this.#failed.error
          if (at - this.#base >= AHEAD_BATCHES) await this.#slowestMoves()
          else await (this.#reading ??= this.#readOne())
        }
        const batch = this.#window[at - this.#base]
        if (batch === undefined) return
        this.#positions[reader] = at + 1
        this.#drop()
        yield batch
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
      this.#batches ??= iteratorOf(this.#source.batches())
      const next = await this.#batches.next()
      if (next.done === true) this.#done = true
      else this.#window.push(next.value)
    } catch (error) {
      // kept for the readers that come to read after it: the source's iterator, once failed, would say it is done
      this.#failed = { error }
      throw error
    } finally {
      this.#reading = undefined
    }
  }

  /** Drops the batches every reader has taken, and wakes the readers waiting for the slowest to move. */
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
