import type { Transcript } from '../../../src/types.ts'

/** A `custom:` check for the evaluator contract: the answer names the order. */
export function namesTheOrder(transcript: Transcript): boolean {
  return transcript.output.includes('o-7')
}
