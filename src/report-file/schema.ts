import { z } from 'zod'
import { caseResultSchema, usageSchema } from './case-schema.ts'
import { comparisonSchema, gateSchema } from './comparison-schema.ts'
import { REPORT_SCHEMA_VERSION } from './version.ts'

/** Who and what produced the run. */
export const reportRunSchema = z.object({
  id: z.string(),
  /** ISO time */
  startedAt: z.string(),
  /** ISO time */
  endedAt: z.string(),
  durationMs: z.number(),
  /** version of the `evals` package that wrote the report */
  cliVersion: z.string(),
  /** absent outside a git work tree; `branch` absent on a detached HEAD */
  git: z.object({ commit: z.string(), branch: z.string().optional() }).optional(),
  /** each suite once per variant, when it has variants */
  suites: z.array(
    z.object({
      name: z.string(),
      file: z.string(),
      targetId: z.string(),
      model: z.string().optional(),
      /** the variant this entry runs the suite under (v3) */
      variant: z.string().optional(),
      /** the variant the others are compared with (`baseline: true`) (v3) */
      baseline: z.literal(true).optional(),
    }),
  ),
  /** LLM judges seen in the verdicts, by evaluator, model and spec hash */
  judges: z.array(
    z.object({ evaluator: z.string(), model: z.string().optional(), specHash: z.string().optional() }),
  ),
  concurrency: z.number(),
  stoppedBy: z.enum(['bail', 'interrupt']).optional(),
})

/** Aggregates of the run, as in `RunReport` of src/model/run-report.ts. */
export const reportSummarySchema = z.object({
  /** (case, trial) pairs planned; skipped cases count once */
  total: z.number(),
  counts: z.object({
    passed: z.number(),
    failed: z.number(),
    errored: z.number(),
    skipped: z.number(),
    /** passed pairs (counted in `passed`) of which some checks were skipped; absent before schema version 2 */
    partial: z.number().optional(),
  }),
  /** pairs never finished because of `bail` or an interrupt */
  notRun: z.number(),
  /** weighted share of passed among passed + failed pairs; null when none was graded */
  accuracy: z.number().nullable(),
  latencyMs: z.object({ p50: z.number(), p95: z.number(), p99: z.number() }).nullable(),
  /** the sum of the known usage */
  usage: usageSchema,
  /** null when no pair had a known cost (never 0 for unknown) */
  costUsd: z.number().nullable(),
  unknownCostCount: z.number(),
  /** pairs whose target reported no token usage; absent before schema version 4 */
  unknownUsageCount: z.number().optional(),
})

const intervalSchema = z.object({ low: z.number(), high: z.number() })

/** Per variant accuracy, latency and cost, and each pair of variants compared, as in `VariantComparison` (v3). */
const variantComparisonSchema = z.object({
  variants: z.array(
    z.object({
      suite: z.string(),
      variant: z.string(),
      baseline: z.literal(true).optional(),
      model: z.string().optional(),
      cases: z.number(),
      accuracy: z.object({ value: z.number(), interval: intervalSchema }).nullable(),
      passHatK: z.number().nullable(),
      latencyMs: z.object({ p50: z.number(), p95: z.number() }).nullable(),
      tokensPerCase: z.number().nullable(),
      costPerCaseUsd: z.number().nullable(),
      costPerPassUsd: z.number().nullable(),
    }),
  ),
  pairs: z.array(
    z.object({
      suite: z.string(),
      a: z.string(),
      b: z.string(),
      verdict: z.enum(['a-better', 'b-better', 'no-difference']),
      method: z.enum(['stratified-permutation', 'mcnemar-exact', 'sign-test']).nullable(),
      cases: z.number(),
      difference: z.number().nullable(),
      interval: intervalSchema.nullable(),
      pValue: z.number().nullable(),
      disagreements: z.array(z.object({ id: z.string(), a: z.number(), b: z.number() })),
    }),
  ),
})

/** The JSON report: the source of truth that JUnit, HTML and Markdown are rendered from. */
export const reportSchema = z.object({
  /** 2 added `partial` (cases and counts), 3 `variant` (cases and run suites); older reports read as they are */
  schemaVersion: z.union([z.literal(1), z.literal(2), z.literal(3), z.literal(REPORT_SCHEMA_VERSION)]),
  run: reportRunSchema,
  summary: reportSummarySchema,
  /** one comparison per suite that has a baseline; absent when no baseline was used */
  comparison: z.array(comparisonSchema).optional(),
  /** the gate decision; absent when no gate ran */
  gate: gateSchema.optional(),
  /** the variants compared, when suites have variants (v3) */
  variants: variantComparisonSchema.optional(),
  /** every (case, variant, trial) result, sorted by suite and variant (run order), case id, then trial */
  cases: z.array(caseResultSchema),
})

export type Report = z.infer<typeof reportSchema>
/** Everything but the cases: small, and known before the cases are streamed. */
export type ReportHeader = Omit<Report, 'cases'>
export type ReportRun = z.infer<typeof reportRunSchema>
export type ReportCase = z.infer<typeof caseResultSchema>

/** The JSON Schema published as schema/report.schema.json. */
export function reportJsonSchema(): Record<string, unknown> {
  return z.toJSONSchema(reportSchema, { io: 'input', unrepresentable: 'any' })
}
