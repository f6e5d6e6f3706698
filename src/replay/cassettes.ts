import { dirname, join } from 'node:path'
import type { Cassette, CassetteMode } from './cassette.ts'
import type { KeylessAnswer } from '../providers/keyless.ts'
import type { Redactor } from '../util/redact.ts'

const PROXY_VARIABLES = '`OPENAI_BASE_URL` / `ANTHROPIC_BASE_URL`'

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

  /** whether `recorder` is one of these cassettes */
  holds(recorder: unknown): boolean {
    for (const cassette of this.#byPath.values()) if (cassette === recorder) return true
    return false
  }

  /**
   * One line for the end of a `--record` run that recorded nothing, which otherwise looks like success: no model
   * call went through a recorder. Undefined when something was recorded, or when not recording. `asked` is how the
   * front end's user asked to record (`--record`, describeSuite's `cassettes: 'record'`, the Action's input).
   */
  nothingRecorded(asked = '--record'): string | undefined {
    if (this.mode !== 'record') return undefined
    const cassettes = [...this.#byPath.values()]
    if (cassettes.some((cassette) => cassette.recorded > 0)) return undefined
    const names = cassettes.map((cassette) => cassette.display()).join(', ')
    return `${asked} recorded nothing into ${names}: no case made a model call through the engine, an SDK in this process, or the recording proxy a command target's ${PROXY_VARIABLES} point at (an http: target's calls happen in its own service).`
  }

  /** whether replaying can serve this model without calling it, so its API key is not needed; if not, why */
  keyless(model: string): KeylessAnswer {
    if (this.mode !== 'replay') return { serves: false }
    const cassettes = [...this.#byPath.values()]
    if (cassettes.some((cassette) => cassette.covers(model))) return { serves: true }
    const held = cassettes.map((cassette) => `${cassette.display()} (${cassette.describe()})`).join(', ')
    return {
      serves: false,
      why: `\`--replay\` cannot stand in for it: no cassette holds a call to \`${model}\` — ${held}. Record them first with \`--record\` (which calls the model, with its key).`,
    }
  }

  /** Waits for every pending write; rethrows the first that failed. */
  async close(): Promise<void> {
    const results = await Promise.allSettled([...this.#byPath.values()].map((cassette) => cassette.close()))
    const failed = results.find((result) => result.status === 'rejected')
    if (failed) throw failed.reason
  }
}
