import { dirname, join } from 'node:path'
import type { Cassette, CassetteMode } from './cassette.ts'
import type { Redactor } from '../util/redact.ts'

/** Where a suite's cassette lives: `__cassettes__/<suite>.jsonl` beside the suite file. */
export function cassettePath(suite: { name: string; file: string }): string {
  return join(dirname(suite.file), '__cassettes__', `${suite.name.replace(/[^\w.-]+/g, '-')}.jsonl`)
}

/** The cassettes of a run, one per file (suites with the same name and folder share one). */
export class CassetteSet {
  readonly mode: CassetteMode
  readonly #byPath: ReadonlyMap<string, Cassette>

  private constructor(mode: CassetteMode, byPath: ReadonlyMap<string, Cassette>) {
    this.mode = mode
    this.#byPath = byPath
  }

  static async open(
    suites: readonly { name: string; file: string }[],
    mode: CassetteMode,
    redactor: Redactor,
  ): Promise<CassetteSet> {
    const paths = [...new Set(suites.map(cassettePath))]
    // imported here: runs without `--cassettes` never load the recorder
    const { Cassette } = await import('./cassette.ts')
    const cassettes = await Promise.all(paths.map((path) => Cassette.open(path, mode, redactor)))
    return new CassetteSet(mode, new Map(paths.map((path, i) => [path, cassettes[i] as Cassette])))
  }

  for(suite: { name: string; file: string }): Cassette | undefined {
    return this.#byPath.get(cassettePath(suite))
  }

  /** whether replaying can serve this model without calling it, so its API key is not needed */
  servesWithoutKey(model: string): boolean {
    if (this.mode !== 'replay') return false
    for (const cassette of this.#byPath.values()) if (cassette.covers(model)) return true
    return false
  }

  /** Waits for every pending write; rethrows the first that failed. */
  async close(): Promise<void> {
    const results = await Promise.allSettled([...this.#byPath.values()].map((cassette) => cassette.close()))
    const failed = results.find((result) => result.status === 'rejected')
    if (failed) throw failed.reason
  }
}
