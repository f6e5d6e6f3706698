/** A two-sided confidence interval, `low ≤ high`. */
export interface Interval {
  low: number
  high: number
}
