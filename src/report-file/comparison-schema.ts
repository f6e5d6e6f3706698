import { z } from 'zod'

const caseStatus = z.enum(['passed', 'failed', 'errored', 'skipped'])
const transition = z.enum([
  'regressed',
  'improved',
  'unchanged',
  'new',
  'removed',
  'input-changed',
  'unscored',
])
const percentiles = z.object({ p50: z.number(), p95: z.number(), p99: z.number() })

const caseSide = z.object({
  status: caseStatus,
  passes: z.number(),
  trials: z.number(),
  passRate: z.number().nullable(),
  score: z.number().optional(),
  latencyMs: z.number(),
  costUsd: z.number().nullable(),
})

/** `Comparison` of src/baselines/comparison.ts: the run set against its baseline. */
export const comparisonSchema = z.object({
  suite: z.string(),
  baselineCreatedAt: z.string(),
  baselineAgeDays: z.number(),
  cases: z.array(
    z.object({
      id: z.string(),
      transition,
      tags: z.array(z.string()),
      baseline: caseSide.nullable(),
      current: caseSide.nullable(),
      passRateDelta: z.number().nullable(),
      weight: z.number().optional(),
      critical: z.object({ minPassRate: z.number().optional() }).optional(),
      expectFail: z.union([z.literal(true), z.string()]).optional(),
    }),
  ),
  counts: z.record(transition, z.number()),
  accuracy: z.object({
    baseline: z.number().nullable(),
    current: z.number().nullable(),
    delta: z.number().nullable(),
  }),
  paired: z
    .object({
      /** `mcnemar-exact` and `sign-test` in reports written before the stratified permutation test */
      method: z.enum(['stratified-permutation', 'mcnemar-exact', 'sign-test']),
      nullDistribution: z.union([z.literal('exact'), z.literal('normal'), z.number()]).optional(),
      cases: z.number(),
      regressions: z.number(),
      improvements: z.number(),
      ties: z.number(),
      baselineAccuracy: z.number(),
      currentAccuracy: z.number(),
      meanDifference: z.number(),
      interval: z.object({ low: z.number(), high: z.number() }),
      pValue: z.number(),
      pRegression: z.number(),
      /** absent in reports written before the gate reported its power */
      power: z
        .object({
          alpha: z.number(),
          power: z.number(),
          minimumDetectableDrop: z.number().nullable(),
          baselineTrials: z.number(),
          currentTrials: z.number(),
        })
        .optional(),
    })
    .nullable(),
  latency: z.object({
    baseline: percentiles.nullable(),
    current: percentiles.nullable(),
    p50Ratio: z.number().nullable(),
    p95Ratio: z.number().nullable(),
  }),
  cost: z.object({
    baselineUsd: z.number().nullable(),
    currentUsd: z.number().nullable(),
    ratio: z.number().nullable(),
  }),
  warnings: z.array(z.string()),
})

/** `GateResult` of src/baselines/gate.ts: the gate decision and why. */
export const gateSchema = z.object({
  decision: z.enum(['pass', 'fail', 'warn']),
  reasons: z.array(z.string()),
  warnings: z.array(z.string()),
  /** the smallest drop the gate's paired test catches at 80% power, 0..1; absent without a comparison */
  minimumDetectableDrop: z.number().optional(),
})
