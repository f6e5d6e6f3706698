import { checkInteger } from './check.ts'

/**
 * The hypergeometric distribution of the passes that land in a sample of `drawn` trials, when `passes` of
 * `population` trials passed: element i is P(X = low + i). `low` is the fewest passes the sample can hold.
 */
export interface Hypergeometric {
  low: number
  pmf: Float64Array
}

/** P(X = x) for x from max(0, drawn − failures) to min(passes, drawn), computed in log space so it never overflows. */
export function hypergeometric(population: number, passes: number, drawn: number): Hypergeometric {
  checkInteger('hypergeometric', 'population', population, 0)
  checkInteger('hypergeometric', 'passes', passes, 0, population)
  checkInteger('hypergeometric', 'drawn', drawn, 0, population)
  const low = Math.max(0, drawn - (population - passes))
  const high = Math.min(passes, drawn)
  const pmf = new Float64Array(high - low + 1)
  const denominator = logChoose(population, drawn)
  for (let x = low; x <= high; x++) {
    pmf[x - low] = Math.exp(logChoose(passes, x) + logChoose(population - passes, drawn - x) - denominator)
  }
  return { low, pmf }
}

/**
 * One-sided Fisher exact test that the second of two pass counts has the lower pass rate: P(X ≤ currentPasses)
 * under "both come from the same pass rate", given the total passes. E.g. 10/10 passes before and 1/3 now
 * → 11/286 = 0.0385.
 */
export function fisherLess(
  baselinePasses: number,
  baselineTrials: number,
  currentPasses: number,
  currentTrials: number,
): number {
  checkInteger('fisherLess', 'baselineTrials', baselineTrials, 0)
  checkInteger('fisherLess', 'currentTrials', currentTrials, 0)
  checkInteger('fisherLess', 'baselinePasses', baselinePasses, 0, baselineTrials)
  checkInteger('fisherLess', 'currentPasses', currentPasses, 0, currentTrials)
  const { low, pmf } = hypergeometric(
    baselineTrials + currentTrials,
    baselinePasses + currentPasses,
    currentTrials,
  )
  // the whole support is 1 exactly, not a sum rounded below it
  if (currentPasses >= low + pmf.length - 1) return 1
  let tail = 0
  for (let x = low; x <= currentPasses; x++) tail += pmf[x - low] ?? 0
  return Math.min(1, tail)
}

function logChoose(n: number, k: number): number {
  return logFactorial(n) - logFactorial(k) - logFactorial(n - k)
}

const logFactorials: number[] = [0]

function logFactorial(n: number): number {
  for (let i = logFactorials.length; i <= n; i++)
    logFactorials.push((logFactorials[i - 1] ?? 0) + Math.log(i))
  return logFactorials[n] ?? 0
}
