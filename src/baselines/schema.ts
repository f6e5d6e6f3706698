import { z } from 'zod'
import { BASELINE_SCHEMA_VERSION } from './version.ts'

const count = z.int().nonnegative()

/** One case as the baseline remembers it. */
export const baselineCaseSchema = z
  .strictObject({
    id: z.string().min(1),
    /** hash of the rendered input; a different hash means the case changed, so results do not compare */
    inputHash: z.string().min(1),
    tags: z.array(z.string()),
    status: z.enum(['passed', 'failed', 'errored', 'skipped']),
    /** trials that passed */
    passes: count,
    /** trials that reached a verdict (passed or failed); errored and skipped trials are not counted */
    trials: count,
    /** mean score 0..1 over the scored trials, when evaluators grade */
    score: z.number().min(0).max(1).optional(),
    /** mean latency of one trial in milliseconds */
    latencyMs: z.number().nonnegative(),
    /** mean cost of one trial in USD; null when any trial's cost was unknown */
    costUsd: z.number().nonnegative().nullable(),
  })
  .refine((entry) => entry.passes <= entry.trials, { message: 'must not exceed `trials`', path: ['passes'] })

/** The committed baseline file, `baselines/<suite>.json`. */
export const baselineSchema = z
  .strictObject({
    schemaVersion: z.literal(BASELINE_SCHEMA_VERSION),
    suite: z.string().min(1),
    /** ISO 8601 UTC timestamp of the run the baseline was taken from */
    createdAt: z.iso.datetime(),
    git: z.strictObject({ commit: z.string().optional(), branch: z.string().optional() }).optional(),
    /** `Target.id` of the system under test */
    targetId: z.string(),
    /** model of agent targets; null when the target has none */
    modelId: z.string().nullable(),
    /** model of the LLM judges; null when no case is judged */
    judgeModel: z.string().nullable(),
    /** judge spec name → hash of the spec, so changed judges are noticed */
    judgeSpecHashes: z.record(z.string(), z.string()),
    cases: z.array(baselineCaseSchema),
  })
  .superRefine((baseline, context) => {
    const seen = new Set<string>()
    baseline.cases.forEach((entry, index) => {
      if (seen.has(entry.id)) {
        context.addIssue({
          code: 'custom',
          message: `duplicate case id "${entry.id}"`,
          path: ['cases', index, 'id'],
        })
      }
      seen.add(entry.id)
    })
  })

export type Baseline = z.output<typeof baselineSchema>
export type BaselineCase = z.output<typeof baselineCaseSchema>
