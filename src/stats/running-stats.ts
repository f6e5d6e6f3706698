/** Count, mean, variance, min and max of a stream, updated one value at a time (Welford), in constant memory. */
export class RunningStats {
  count = 0
  mean = 0
  min = Infinity
  max = -Infinity
  #m2 = 0

  push(value: number): this {
    this.count++
    const delta = value - this.mean
    this.mean += delta / this.count
    this.#m2 += delta * (value - this.mean)
    this.min = Math.min(this.min, value)
    this.max = Math.max(this.max, value)
    return this
  }

  /** sample variance (n − 1 denominator); 0 for fewer than two values */
  get variance(): number {
    return this.count < 2 ? 0 : this.#m2 / (this.count - 1)
  }

  get standardDeviation(): number {
    return Math.sqrt(this.variance)
  }

  /** standard error of the mean, s / √n; 0 for fewer than two values */
  get standardError(): number {
    return this.count < 2 ? 0 : this.standardDeviation / Math.sqrt(this.count)
  }
}
