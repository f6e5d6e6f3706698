import { toError } from '../../errors.ts'
import type { ReleaseLock } from './session-store.ts'

/**
 * Locks by key within this process: holders of one key take turns in the order they asked. For stores that only one
 * process uses; `FileSessionStore` adds a lock file on top for other processes.
 */
export class KeyedLock {
  readonly #tails = new Map<string, Promise<void>>()

  async acquire(key: string, signal?: AbortSignal): Promise<ReleaseLock> {
    signal?.throwIfAborted()
    const before = this.#tails.get(key) ?? Promise.resolve()
    let release!: () => void
    const held = new Promise<void>((resolve) => {
      release = resolve
    })
    const tail = before.then(() => held)
    this.#tails.set(key, tail)
    const done = (): Promise<void> => {
      release()
      if (this.#tails.get(key) === tail) this.#tails.delete(key)
      return Promise.resolve()
    }
    if (!signal) {
      await before
      return done
    }
    let onAbort: (() => void) | undefined
    const aborted = new Promise<never>((_, reject) => {
      onAbort = () => {
        reject(toError(signal.reason))
      }
      signal.addEventListener('abort', onAbort, { once: true })
    })
    try {
      await Promise.race([before, aborted])
      return done
    } catch (error) {
      // give up our turn without making those after us wait for it
      void done()
      throw error
    } finally {
      if (onAbort) signal.removeEventListener('abort', onAbort)
    }
  }
}
