/** Throws a RangeError unless `value` is an integer in [min, max]; statistics misuse is a bug in the caller. */
export function checkInteger(where: string, name: string, value: number, min: number, max = Infinity): void {
  if (!Number.isInteger(value) || value < min || value > max) {
    const range = max === Infinity ? `an integer ≥ ${min}` : `an integer between ${min} and ${max}`
    throw new RangeError(`\`${where}\`: \`${name}\` must be ${range}, got ${value}.`)
  }
}

/** Throws a RangeError unless `value` lies strictly between 0 and 1. */
export function checkProbability(where: string, name: string, value: number): void {
  if (!(value > 0 && value < 1)) {
    throw new RangeError(`\`${where}\`: \`${name}\` must be between 0 and 1 (exclusive), got ${value}.`)
  }
}
