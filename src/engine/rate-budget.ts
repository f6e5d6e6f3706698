import type { BudgetReading } from '../types.ts'

/** A call sent under a budget: in which order, and what it spends (1 request, or its estimated tokens). */
export interface SentCall {
  seq: number
  cost: number
  /** when it was sent (epoch ms) */
  sentAt: number
}

/**
 * One of a provider's budgets (requests or tokens) as the client follows it between replies. A reply's headers give
 * what was left when the provider admitted that call, somewhere between its sending and its reply; since then the
 * budget has refilled at the rate the headers imply, and the calls admitted after it have spent from it. Both
 * unknowns are taken on the safe side: the reading is dated when the reply came, and every call sent after the
 * one it answers is counted as not in it yet. The estimate is low by about the calls in flight, which costs nothing
 * while that is less than the budget's size, and keeps 429s away.
 */
export class RateBudget {
  #reading: BudgetReading
  #readAt: number
  #readSeq: number
  #ratePerMs: number
  #since: SentCall[] = []

  constructor(reading: BudgetReading, call: SentCall, now: number) {
    this.#reading = reading
    this.#readAt = now
    this.#readSeq = call.seq
    // until a reading tells more, the documented meaning: both APIs' limits are per minute
    this.#ratePerMs = Math.max(reading.limit / 60_000, refillRate(reading, call) ?? 0)
  }

  /** takes the reading of the reply to `call`, come `now`; a reply to an older call than the last one's is ignored */
  read(reading: BudgetReading, call: SentCall, now: number): void {
    if (call.seq < this.#readSeq) return
    this.#reading = reading
    this.#readAt = now
    this.#readSeq = call.seq
    this.#ratePerMs = Math.max(this.#ratePerMs, refillRate(reading, call) ?? 0)
    this.#since = this.#since.filter((sent) => sent.seq > call.seq)
  }

  /** how long until `cost` can be spent (a cost above the budget's size waits for a whole budget) */
  waitMs(cost: number, now: number): number {
    const missing = Math.min(cost, this.#reading.limit) - this.#level(now)
    return missing <= 0 ? 0 : Math.ceil(missing / this.#ratePerMs)
  }

  spend(call: SentCall): void {
    this.#since.push(call)
  }

  #level(now: number): number {
    const refilled = this.#reading.remaining + this.#ratePerMs * Math.max(0, now - this.#readAt)
    let spent = 0
    for (const sent of this.#since) spent += sent.cost
    return Math.min(this.#reading.limit, refilled) - spent
  }
}

/**
 * Both APIs' reset is the time until the budget is whole, so what is missing over that time is the refill rate. The
 * headers round: `remaining` is a whole number (up to one unit more is missing than it says) and the reset may be
 * rounded up, so this is a lower bound of the rate, and the highest such bound seen is the best estimate. A budget
 * missing one unit or less says nothing.
 */
function refillRate(
  { limit, remaining, resetMs: duration, resetAt }: BudgetReading,
  call: SentCall,
): number | undefined {
  // a time of day is measured from the call's sending: the provider read its clock later than that
  const resetMs = resetAt === undefined ? duration : resetAt - call.sentAt
  const missing = limit - remaining - 1
  if (resetMs === undefined || resetMs <= 0 || missing <= 0) return undefined
  return missing / resetMs
}
