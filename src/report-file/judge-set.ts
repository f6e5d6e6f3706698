import type { ReportRun } from './schema.ts'

/** One judge a run's verdicts name, as report.json lists it. */
export type Judge = ReportRun['judges'][number]

/** Collects the judges named in verdict details (`judgeModel`, `specHash`), one entry per distinct triple. */
export class JudgeSet {
  readonly #seen = new Map<string, Judge>()

  add(verdicts: readonly { evaluator: string; details?: Record<string, unknown> | undefined }[]): void {
    for (const { evaluator, details } of verdicts) {
      const model = details?.judgeModel
      const specHash = details?.specHash
      if (typeof model !== 'string' && typeof specHash !== 'string') continue
      const judge: Judge = {
        evaluator,
        ...(typeof model === 'string' && { model }),
        ...(typeof specHash === 'string' && { specHash }),
      }
      this.#seen.set(JSON.stringify(judge), judge)
    }
  }

  list(): Judge[] {
    return [...this.#seen.entries()]
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([, judge]) => judge)
  }
}
