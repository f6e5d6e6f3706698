import { InternalError } from '../errors.ts'
import { hashInput } from '../baselines/hash.ts'
import { TypedList } from '../util/typed-list.ts'
import type { CaseDefinition } from './case-definition.ts'

/**
 * A suite's cases in file order. What selecting, counting, planning and aggregating read of a case (its id, tags,
 * weight, trials, line, `only`, `skip`, `critical`, `expect_fail` and input hash) is kept compactly for every case; the whole definition is
 * built when asked for. A large case file's suite keeps no definitions at all and builds each from its slice of the
 * case file when the case runs, so memory stays flat at 100k cases.
 */
export class CaseList implements Iterable<CaseDefinition> {
  readonly length: number
  /** some case has `judge:` items */
  readonly judged: boolean
  /** some case captures its spans (`trace:`) */
  readonly traced: boolean
  /** some case is a known failure (`expect_fail:`) */
  readonly marksKnownFailures: boolean
  readonly #heads: Heads
  /** the index of each case of this list in `#heads` */
  readonly #at: Uint32Array | undefined
  /** skip reasons that override the cases' own, by index in this list (cases skipped by another's `only`) */
  readonly #skips: ReadonlyMap<number, string> | undefined

  private constructor(heads: Heads, at?: Uint32Array, skips?: ReadonlyMap<number, string>) {
    this.#heads = heads
    this.#at = at
    this.#skips = skips
    this.length = at?.length ?? heads.length
    this.judged = heads.judged
    this.traced = heads.traced
    this.marksKnownFailures = heads.expectFail.size > 0
  }

  /** A list holding these definitions as they are (tests, programmatic suites, small case files). */
  static of(cases: Iterable<CaseDefinition>): CaseList {
    const builder = new CaseListBuilder()
    for (const caseDef of cases) builder.add(caseDef, true)
    return builder.done()
  }

  /** The case at `index`, built anew unless the list holds it. */
  get(index: number): CaseDefinition {
    const caseDef = this.#heads.definition(this.#index(index))
    const skip = this.#skips?.get(index)
    return skip === undefined || caseDef.skip !== undefined ? caseDef : { ...caseDef, skip }
  }

  id(index: number): string {
    return this.#heads.ids[this.#index(index)] as string
  }

  tags(index: number): string[] {
    return this.#heads.tags[this.#index(index)] as string[]
  }

  weight(index: number): number {
    return this.#heads.weights.get(this.#index(index))
  }

  /** runs per case: case, then defaults, then suite */
  trials(index: number): number {
    return this.#heads.trials.get(this.#index(index))
  }

  /** 1-based line of the case in its file */
  line(index: number): number {
    return this.#heads.lines.get(this.#index(index))
  }

  only(index: number): boolean {
    return this.#heads.only.get(this.#index(index)) === 1
  }

  /** why the case is skipped; undefined when it runs */
  skip(index: number): string | undefined {
    return this.#heads.skips.get(this.#index(index)) ?? this.#skips?.get(index)
  }

  /** the case's `critical:` setting, if it has one */
  critical(index: number): CaseDefinition['critical'] {
    return this.#heads.critical.get(this.#index(index))
  }

  /** the case's `expect_fail:`, if it has one */
  expectFail(index: number): CaseDefinition['expectFail'] {
    return this.#heads.expectFail.get(this.#index(index))
  }

  /** the case's `timeout_ms`, if it has one */
  timeoutMs(index: number): number | undefined {
    return this.#heads.timeouts.get(this.#index(index))
  }

  /** hash of the rendered input and vars, as baselines record it */
  inputHash(index: number): string {
    return this.#heads.hashes.hex(this.#index(index))
  }

  /** Builds each case in turn (a large case file's suite builds it anew at each reading). */
  *[Symbol.iterator](): Iterator<CaseDefinition> {
    for (let index = 0; index < this.length; index++) yield this.get(index)
  }

  /** The indexes of the cases, 0 to length − 1. */
  *keys(): Generator<number> {
    for (let index = 0; index < this.length; index++) yield index
  }

  /**
   * The cases at `indexes` of this list, in that order. `skip` gives a case without a skip reason of its own one
   * (by its index in this list); reasons given before carry over.
   */
  pick(indexes: Iterable<number>, skip?: (index: number) => string | undefined): CaseList {
    const picked = [...indexes]
    const skips = new Map<number, string>()
    picked.forEach((index, at) => {
      const reason = this.#skips?.get(index) ?? skip?.(index)
      if (reason !== undefined) skips.set(at, reason)
    })
    const at = Uint32Array.from(picked, (index) => this.#index(index))
    return new CaseList(this.#heads, at, skips.size > 0 ? skips : undefined)
  }

  #index(index: number): number {
    if (!(index >= 0 && index < this.length)) throw new RangeError(`case index ${String(index)} out of range`)
    return this.#at === undefined ? index : (this.#at[index] as number)
  }

  /** @internal */
  static fromHeads(heads: Heads): CaseList {
    return new CaseList(heads)
  }
}

/**
 * Collects the cases of a list as they are loaded. `add(caseDef, keep)` records what the list keeps of every case;
 * with `keep` false the definition itself is dropped and `rebuild` makes it again when asked for.
 */
export class CaseListBuilder {
  readonly #heads: Heads

  /**
   * `rebuild(index, line)` builds case `index` again, for a list that does not keep the definitions; `expected`
   * is how many cases are likely, so the columns are made once at that size
   */
  constructor(rebuild?: (index: number, line: number) => CaseDefinition, expected = 64) {
    this.#heads = new Heads(rebuild, expected)
  }

  add(caseDef: CaseDefinition, keep: boolean): void {
    this.#heads.add(caseDef, keep)
  }

  /** how many cases were added */
  get length(): number {
    return this.#heads.length
  }

  done(): CaseList {
    return CaseList.fromHeads(this.#heads)
  }
}

const HASH_BYTES = 8

/** What a case's input hash covers: the input and vars, and the conversation when it has one. */
function hashedInputOf(caseDef: CaseDefinition): Record<string, unknown> {
  const { input, vars, turns, simulatedUser } = caseDef
  if (turns === undefined && simulatedUser === undefined) return { input, vars }
  return { input, simulatedUser, turns: turns?.map((turn) => turn.user), vars }
}

/** The kept part of every case of a suite, in columns. */
class Heads {
  length = 0
  judged = false
  traced = false
  /** made at their expected size, as the columns: a growing list's ever larger copies would each be promoted */
  readonly ids: string[]
  readonly tags: string[][]
  readonly weights: TypedList<Float64Array>
  readonly trials: TypedList<Uint32Array>
  readonly lines: TypedList<Uint32Array>
  readonly only: TypedList<Uint8Array>
  readonly skips = new Map<number, string>()
  readonly timeouts = new Map<number, number>()
  readonly critical = new Map<number, NonNullable<CaseDefinition['critical']>>()
  readonly expectFail = new Map<number, NonNullable<CaseDefinition['expectFail']>>()
  readonly hashes: HashColumn
  /** the definitions, when kept */
  readonly #kept: (CaseDefinition | undefined)[] = []
  readonly #rebuild: ((index: number, line: number) => CaseDefinition) | undefined

  constructor(rebuild: ((index: number, line: number) => CaseDefinition) | undefined, expected: number) {
    this.#rebuild = rebuild
    const size = Math.max(16, expected)
    this.ids = new Array<string>(size)
    this.tags = new Array<string[]>(size)
    this.weights = new TypedList(Float64Array, size)
    this.trials = new TypedList(Uint32Array, size)
    this.lines = new TypedList(Uint32Array, size)
    this.only = new TypedList(Uint8Array, size)
    this.hashes = new HashColumn(size)
  }

  add(caseDef: CaseDefinition, keep: boolean): void {
    const index = this.length++
    this.ids[index] = caseDef.id
    this.tags[index] = caseDef.tags
    this.weights.push(caseDef.weight)
    this.trials.push(caseDef.trials)
    this.lines.push(caseDef.line)
    this.only.push(caseDef.only ? 1 : 0)
    if (caseDef.skip !== undefined) this.skips.set(index, caseDef.skip)
    if (caseDef.timeoutMs !== undefined) this.timeouts.set(index, caseDef.timeoutMs)
    if (caseDef.critical !== undefined) this.critical.set(index, caseDef.critical)
    if (caseDef.expectFail !== undefined) this.expectFail.set(index, caseDef.expectFail)
    this.hashes.push(hashInput(hashedInputOf(caseDef)))
    this.judged ||= (caseDef.judge?.length ?? 0) > 0
    this.traced ||= caseDef.trace === true
    if (keep || !this.#rebuild) this.#kept[index] = caseDef
  }

  definition(index: number): CaseDefinition {
    const kept = this.#kept[index]
    if (kept) return kept
    if (!this.#rebuild)
      throw new InternalError(`case ${String(index)} was neither kept nor can be built again`)
    return this.#rebuild(index, this.lines.get(index))
  }
}

/** `hashInput` digests (8 bytes of SHA-256), kept as bytes. */
class HashColumn {
  #bytes: Buffer
  #length = 0
  readonly #hex: (string | undefined)[] = []

  constructor(size: number) {
    this.#bytes = Buffer.alloc(size * HASH_BYTES)
  }

  /** `hex`: the 16 hex characters `hashInput` gives */
  push(hex: string): void {
    if ((this.#length + 1) * HASH_BYTES > this.#bytes.length) {
      const grown = Buffer.alloc(this.#bytes.length * 2)
      this.#bytes.copy(grown)
      this.#bytes = grown
    }
    this.#bytes.write(hex, this.#length * HASH_BYTES, 'hex')
    this.#length++
  }

  /**
   * the 16 hex characters `hashInput` gives; made once per case, as a run's summaries read each several times. Made
   * from a table: `Buffer#toString('hex', …)` per case costs a native call and a buffer view, 3× the time cold.
   */
  hex(index: number): string {
    let hex = this.#hex[index]
    if (hex === undefined) {
      const codes = new Array<number>(HASH_BYTES * 2)
      for (let i = 0; i < HASH_BYTES; i++) {
        const byte = this.#bytes[index * HASH_BYTES + i] as number
        codes[2 * i] = HEX_CODES[byte >> 4] as number
        codes[2 * i + 1] = HEX_CODES[byte & 15] as number
      }
      hex = this.#hex[index] = String.fromCharCode(...codes)
    }
    return hex
  }
}

const HEX_CODES = Array.from('0123456789abcdef', (digit) => digit.charCodeAt(0))
