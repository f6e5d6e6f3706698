/** 0.75 → `75.0%` */
export function percent(rate: number): string {
  return `${(rate * 100).toFixed(1)}%`
}

/** -0.15 → `-15.0 points` */
export function points(delta: number): string {
  return `${delta > 0 ? '+' : ''}${(delta * 100).toFixed(1)} points`
}

/** 0.0215 → `p = 0.0215`; tiny values → `p < 0.0001` */
export function pValue(p: number): string {
  return p < 0.0001 ? 'p < 0.0001' : `p = ${p.toFixed(4)}`
}

/** 1.8 → `1.80×` */
export function ratio(value: number): string {
  return `${value.toFixed(2)}×`
}

/** [`a`, `b`] → "`a`, `b`" with at most `limit` names, then "and N more" */
export function names(ids: readonly string[], limit = 10): string {
  const shown = ids.slice(0, limit).map((id) => `\`${id}\``)
  return ids.length > limit ? `${shown.join(', ')} and ${ids.length - limit} more` : shown.join(', ')
}
