/** A check's name as reports show it: `turn 2 › contains` for a check of one conversation turn's reply. */
export function checkName(verdict: { evaluator: string; turn?: number | undefined }): string {
  return verdict.turn === undefined
    ? verdict.evaluator
    : `turn ${String(verdict.turn)} › ${verdict.evaluator}`
}
