import { z } from 'zod'
import { defineEvaluator } from './definition.ts'
import { reported } from './reported.ts'

const limit = {
  options: z.strictObject({ value: z.number().nonnegative() }),
  shorthand: z.number().nonnegative(),
}

export const latencyMsLte = defineEvaluator({
  kind: 'latency_ms_lte',
  description: 'The target answered within this many milliseconds.',
  ...limit,
  fromShorthand: (value) => ({ value }),
  create: ({ value }) => ({
    name: 'latency_ms_lte',
    evaluate: ({ latencyMs }) =>
      latencyMs <= value
        ? { pass: true, reason: `latency ${Math.round(latencyMs)} ms is within ${value} ms` }
        : { pass: false, reason: `latency ${Math.round(latencyMs)} ms exceeds the limit of ${value} ms` },
  }),
})

export const costUsdLte = defineEvaluator({
  kind: 'cost_usd_lte',
  description: 'The run cost at most this many US dollars; errors when the cost is unknown.',
  ...limit,
  fromShorthand: (value) => ({ value }),
  create: ({ value }) => ({
    name: 'cost_usd_lte',
    evaluate: (transcript) => {
      const costUsd = reported(transcript, 'costUsd', 'cost_usd_lte')
      return costUsd <= value
        ? { pass: true, reason: `cost ${usd(costUsd)} is within ${usd(value)}` }
        : { pass: false, reason: `cost ${usd(costUsd)} exceeds the limit of ${usd(value)}` }
    },
  }),
})

export const iterationsLte = defineEvaluator({
  kind: 'iterations_lte',
  description:
    'The agent loop ran at most this many model iterations; errors when the target does not report them.',
  options: z.strictObject({ value: z.int().nonnegative() }),
  shorthand: z.int().nonnegative(),
  fromShorthand: (value) => ({ value }),
  create: ({ value }) => ({
    name: 'iterations_lte',
    evaluate: (transcript) => {
      const iterations = reported(transcript, 'iterations', 'iterations_lte')
      return iterations <= value
        ? { pass: true, reason: `${iterations} iterations, within ${value}` }
        : { pass: false, reason: `${iterations} iterations exceed the limit of ${value}` }
    },
  }),
})

function usd(amount: number): string {
  // at least cents, at most six decimals, no trailing zeros beyond the cents
  const [units = '0', decimals = ''] = amount.toFixed(6).split('.')
  return `$${units}.${decimals.replace(/0+$/, '').padEnd(2, '0')}`
}
