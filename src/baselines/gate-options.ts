import { z } from 'zod'
import { DEFAULT_ALPHA } from './defaults.ts'

const rate = z.number().min(0).max(1)
const ratioLimit = z.number().min(1)

/** The `gate:` block of a case file (and the matching CLI flags): when a run fails or warns against its baseline. */
export const gateOptionsSchema = z.strictObject({
  alpha: z
    .number()
    .gt(0)
    .lt(1)
    .default(DEFAULT_ALPHA)
    .describe('significance level of the one-sided test for an accuracy regression'),
  critical_tags: z
    .array(z.string().min(1))
    .default(['critical'])
    .describe(
      "cases with any of these tags are critical, as a case's own `critical: true`: judged by their own test",
    ),
  strict_critical: z
    .boolean()
    .default(false)
    .describe(
      'a critical case fails the gate on any drop of its pass rate, even one its trials cannot tell from noise',
    ),
  min_pass_rate: z
    .union([
      rate,
      z.strictObject({
        default: rate.optional().describe('floor for cases no other entry matches'),
        tags: z
          .record(z.string(), rate)
          .optional()
          .describe('tag → floor; a case takes the highest of its tags'),
        cases: z.record(z.string(), rate).optional().describe('case id → floor; wins over tags and default'),
      }),
    ])
    .optional()
    .describe('pass-rate floor 0..1 for every case, or per tag and per case id'),
  max_latency_ratio: ratioLimit.optional().describe('fail when p50 or p95 latency grows past this multiple'),
  max_cost_ratio: ratioLimit.optional().describe('fail when the cost per trial grows past this multiple'),
  max_baseline_age_days: z
    .number()
    .positive()
    .optional()
    .describe('warn when the baseline is older than this'),
  fail_on_warnings: z.boolean().default(false).describe('turn warnings into failures'),
  require_judges: z
    .boolean()
    .optional()
    .describe(
      'a suite with LLM judges but no judge model cannot run (exit 2), instead of passing on the other checks',
    ),
})

/** Gate options as written in a case file or built from flags. */
export type GateOptions = z.input<typeof gateOptionsSchema>

/** Gate options with defaults applied. */
export type ResolvedGateOptions = z.output<typeof gateOptionsSchema>
