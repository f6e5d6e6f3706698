import type { CaseResult } from '../../model/case-result.ts'
import { JudgeSet } from '../judge-set.ts'
import { TypedList } from '../../util/typed-list.ts'
import { readLines } from '../lines.ts'

/**
 * Where each row of a results.jsonl is and how report.json orders it (by suite, case id, trial), with the judges
 * the rows name: a few numbers per row. The runner fills it as it appends rows, so report.json is written without
 * reading them back; `ResultRows.scan` builds it from any results file.
 */
export class ResultRows {
  readonly judges = new JudgeSet()
  /** made at its full size: a growing list's ever larger copies would each be promoted out of the young generation */
  readonly #caseIds: string[]
  readonly #suites: TypedList<Uint32Array>
  readonly #trials: TypedList<Uint32Array>
  readonly #bytes: TypedList<Uint32Array>
  readonly #offsets: TypedList<Float64Array>
  /** 1 when the row was written canonically (keys sorted, as report.json wants them), so it is copied as it is */
  readonly #canonical: TypedList<Uint8Array>

  /** `expected`: how many rows are likely, so the columns are made once at that size */
  constructor(expected = 1024) {
    const size = Math.max(16, expected)
    this.#caseIds = new Array<string>(size)
    this.#suites = new TypedList(Uint32Array, size)
    this.#trials = new TypedList(Uint32Array, size)
    this.#bytes = new TypedList(Uint32Array, size)
    this.#offsets = new TypedList(Float64Array, size)
    this.#canonical = new TypedList(Uint8Array, size)
  }

  get length(): number {
    return this.#suites.length
  }

  /** Records a row: `suite` is its suite's index in the run, `canonical` whether its bytes are canonical JSON. */
  add(suite: number, caseId: string, trial: number, offset: number, bytes: number, canonical: boolean): void {
    this.#caseIds[this.length] = caseId
    this.#suites.push(suite)
    this.#trials.push(trial)
    this.#offsets.push(offset)
    this.#bytes.push(bytes)
    this.#canonical.push(canonical ? 1 : 0)
  }

  offset(row: number): number {
    return this.#offsets.get(row)
  }

  bytes(row: number): number {
    return this.#bytes.get(row)
  }

  canonical(row: number): boolean {
    return this.#canonical.get(row) === 1
  }

  /** The rows in report order: by suite index, then case id by code unit, then trial. */
  order(): Uint32Array {
    const order = new Uint32Array(this.length)
    for (let row = 0; row < order.length; row++) order[row] = row
    const suites = this.#suites.view()
    const ids = this.#caseIds
    const trials = this.#trials.view()
    return order.sort((a, b) => {
      const suite = (suites[a] as number) - (suites[b] as number)
      if (suite !== 0) return suite
      const idA = ids[a] as string
      const idB = ids[b] as string
      if (idA !== idB) return idA < idB ? -1 : 1
      return (trials[a] as number) - (trials[b] as number)
    })
  }

  /**
   * Reads every row of a results file (blank lines skipped), parsing each once; its rows count as not canonical.
   * `suiteIndex` places a suite name (and variant) in the run (suites the run does not list sort after the rest).
   */
  static async scan(
    path: string,
    suiteIndex: (name: string, variant: string | undefined) => number,
  ): Promise<ResultRows> {
    const rows = new ResultRows()
    for await (const line of readLines(path)) {
      if (line.text.trim() === '') continue
      const result = JSON.parse(line.text) as CaseResult
      if (result.status !== 'skipped') rows.judges.add(result.verdicts)
      rows.add(
        suiteIndex(result.suite, result.variant),
        result.caseId,
        result.trial,
        line.offset,
        line.bytes,
        false,
      )
    }
    return rows
  }

  /** Left out of JSON: a run report carries its rows to the report writer, not into summary.json. */
  toJSON(): undefined {
    return undefined
  }
}
