/** Sequence alignment for trajectory matching, over indices so it stays independent of the step shapes. */

/** Longest common subsequence length, where `matches(i, j)` says expected step i matches call j. */
export function alignInOrder(
  expected: number,
  actual: number,
  matches: (e: number, a: number) => boolean,
): number {
  let previous = new Array<number>(actual + 1).fill(0)
  for (let i = 1; i <= expected; i++) {
    const current = [0]
    for (let j = 1; j <= actual; j++) {
      const diagonal = (previous[j - 1] ?? 0) + (matches(i - 1, j - 1) ? 1 : 0)
      current.push(Math.max(previous[j] ?? 0, current[j - 1] ?? 0, diagonal))
    }
    previous = current
  }
  return previous[actual] ?? 0
}

/** Size of a maximum one-to-one matching between expected steps and calls (augmenting paths). */
export function alignUnordered(
  expected: number,
  actual: number,
  matches: (e: number, a: number) => boolean,
): number {
  const owner = new Array<number>(actual).fill(-1)
  const tryAssign = (e: number, visited: boolean[]): boolean => {
    for (let a = 0; a < actual; a++) {
      if (visited[a] || !matches(e, a)) continue
      visited[a] = true
      const current = owner[a] ?? -1
      if (current === -1 || tryAssign(current, visited)) {
        owner[a] = e
        return true
      }
    }
    return false
  }
  let matched = 0
  for (let e = 0; e < expected; e++) if (tryAssign(e, new Array<boolean>(actual).fill(false))) matched++
  return matched
}
