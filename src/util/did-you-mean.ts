/** The closest candidate to `word` by edit distance, or undefined when nothing is close enough to suggest. */
export function didYouMean(word: string, candidates: Iterable<string>): string | undefined {
  const list = [...candidates]
  let best: string | undefined
  let bestDistance = Infinity
  for (const candidate of list) {
    const distance = editDistance(word.toLowerCase(), candidate.toLowerCase())
    if (distance < bestDistance) {
      best = candidate
      bestDistance = distance
    }
  }
  const limit = Math.max(1, Math.floor(word.length / 3))
  if (bestDistance <= limit) return best
  return word.length >= 3
    ? list.find((candidate) => candidate.toLowerCase().startsWith(word.toLowerCase()))
    : undefined
}

/** Optimal string alignment distance: insertions, deletions, substitutions and adjacent transpositions. */
function editDistance(a: string, b: string): number {
  const rows: number[][] = [Array.from({ length: b.length + 1 }, (_, j) => j)]
  for (let i = 1; i <= a.length; i++) {
    const row = [i]
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1
      let distance = Math.min(
        (rows[i - 1]?.[j] ?? 0) + 1,
        (row[j - 1] ?? 0) + 1,
        (rows[i - 1]?.[j - 1] ?? 0) + cost,
      )
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        distance = Math.min(distance, (rows[i - 2]?.[j - 2] ?? 0) + 1)
      }
      row.push(distance)
    }
    rows.push(row)
  }
  return rows[a.length]?.[b.length] ?? 0
}
