/**
 * Counts failures in a row for one provider. After `maxFailures` the circuit opens and calls are refused for
 * `cooldownMs`; then it half-opens and lets one probe through, whose outcome closes or reopens it.
 */
export class CircuitBreaker {
  private failures = 0
  private openUntil: number | undefined
  private probing = false
  private readonly maxFailures: number
  private readonly cooldownMs: number

  constructor(maxFailures: number, cooldownMs: number) {
    this.maxFailures = maxFailures
    this.cooldownMs = cooldownMs
  }

  /** Whether a call may go through now; after a cooldown only the first caller (the probe) may. */
  tryAcquire(now: number): boolean {
    if (this.openUntil === undefined) return true
    if (now < this.openUntil || this.probing) return false
    this.probing = true
    return true
  }

  succeed(): void {
    this.failures = 0
    this.openUntil = undefined
    this.probing = false
  }

  fail(now: number): void {
    this.failures++
    if (this.probing || this.failures >= this.maxFailures) this.openUntil = now + this.cooldownMs
    this.probing = false
  }

  /** The call was aborted, which says nothing about the provider: a probe in flight lets the next caller probe. */
  release(now: number): void {
    if (!this.probing) return
    this.probing = false
    this.openUntil = now
  }

  /** ms until the circuit lets a call through again; 0 when it does now */
  remainingMs(now: number): number {
    if (this.openUntil === undefined) return 0
    return this.probing ? this.cooldownMs : Math.max(0, this.openUntil - now)
  }

  get state(): 'closed' | 'open' | 'half-open' {
    if (this.openUntil === undefined) return 'closed'
    return this.probing ? 'half-open' : 'open'
  }
}
