import type { Transcript } from '../../src/types.ts'
import { transcriptOf } from '../evaluators/helpers.ts'

export { transcriptOf }

/** What a failing assertion threw: its message and the values vitest diffs. */
export interface Failure {
  message: string
  actual?: unknown
  expected?: unknown
}

/** Runs an assertion that must fail and returns what it threw; fails the test when it passes. */
export async function failureOf(assertion: () => unknown): Promise<Failure> {
  try {
    await assertion()
  } catch (error) {
    const { message, actual, expected } = error as Failure
    return {
      message,
      ...(actual === undefined ? {} : { actual }),
      ...(expected === undefined ? {} : { expected }),
    }
  }
  throw new Error('expected the assertion to fail, but it passed')
}

/** A support-agent run: looked up a user, cancelled the subscription, said so. */
export const cancelled: Transcript = transcriptOf({
  input: 'Please cancel the subscription for user u-42',
  output: 'The subscription of u-42 is cancelled; access ends with the billing period.',
  calls: [
    ['lookup_user', { user_id: 'u-42' }],
    ['cancel_subscription', { user_id: 'u-42', reason: { code: 'too-expensive', note: 'asked twice' } }],
  ],
  latencyMs: 1234,
  costUsd: 0.0021,
  iterations: 3,
})
