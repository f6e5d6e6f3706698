import { z } from 'zod'
import { code, codeList } from './describe.ts'
import { judgeSpecs } from './judges/index.ts'
import type { ResponseCache } from '../engine/cache.ts'
import type { Observer } from '../engine/observer.ts'
import type { ModelPrice, RetryOptions } from '../engine/options.ts'
import type { Provider } from '../providers/provider.ts'
import type { ItemValues } from './llm-judge-prompt.ts'
import type { JudgeRequirement, JudgeSpec } from './judges/spec.ts'

/**
 * One item of a case's `judge:` list: exactly one judge key, whose value is the judge's argument (`rubric`,
 * `g-eval` criteria, `closed-qa` criterion) or `true`, plus shared options. `spec: ./file.yaml` replaces the
 * judge's built-in spec, or names a judge of its own when no judge key is given.
 */
export interface JudgeItem {
  /** a spec file (YAML or JSON) relative to the case file */
  spec?: string
  /** pass when the mean raw score is ≥ this, on the spec's scale @default the spec's (7/10; 8/10 for safety) */
  threshold?: number
  /** ask the judge this many times and grade on the mean @default 1 */
  samples?: number
  /** share of the case score @default 1 */
  weight?: number
  /** the expected answer (correctness, summary, pairwise; hallucination without `context`) */
  reference?: string
  /** source material the output must be grounded in (faithfulness, hallucination) */
  context?: string | string[]
  [judge: string]: string | number | boolean | string[] | undefined
}

/** Suite-level `judge:` settings. */
export interface JudgeSettings {
  /** judge model string, e.g. `openai:gpt-4.1-mini`; without it judge verdicts are skipped */
  model?: string | undefined
  /** sampling temperature of the judge @default 0 */
  temperature?: number | undefined
  /** how the judge returns its verdict: a forced `verdict` tool call, or native JSON-schema output @default 'tool' */
  output?: 'tool' | 'json-schema' | undefined
}

export const judgeNames = judgeSpecs.map((spec) => spec.name)

const judgeKeys = Object.fromEntries(
  judgeSpecs.map((spec) => [
    spec.name,
    (spec.argument === undefined ? z.literal(true) : z.string().min(1).describe(`the ${spec.argument}`))
      .optional()
      .describe(spec.description),
  ]),
)

export const judgeItemSchema = z
  .strictObject({
    ...judgeKeys,
    spec: z
      .string()
      .min(1)
      .optional()
      .describe('a judge spec file (YAML or JSON), relative to the case file'),
    threshold: z
      .number()
      .nonnegative()
      .optional()
      .describe(
        "pass when the mean score is ≥ this, on the spec's scale (default 7 of 10; 8 for safety judges)",
      ),
    samples: z.int().min(1).max(20).optional().describe('ask the judge this many times (default 1)'),
    weight: z.number().nonnegative().optional().describe('share of the case score (default 1)'),
    reference: z.string().optional().describe('the expected answer'),
    context: z
      .union([z.string(), z.array(z.string())])
      .optional()
      .describe('source material the output must be grounded in'),
  })
  .superRefine((parsed, context) => {
    const item = parsed as Record<string, unknown> & { spec?: string | undefined }
    const given = judgeNames.filter((name) => item[name] !== undefined)
    if (given.length === 0 && item.spec === undefined) {
      context.addIssue({
        code: 'custom',
        message: `expected one judge: ${codeList(judgeNames)}, or \`spec: ./my-judge.yaml\``,
      })
    } else if (given.length > 1) {
      context.addIssue({
        code: 'custom',
        message: `expected one judge per item, got ${codeList(given)}: give each its own item`,
      })
    } else if (given[0] !== undefined && item.spec === undefined) {
      const spec = judgeSpecs.find(({ name }) => name === given[0])
      const missing = spec
        ? missingRequirement(spec.requires, { reference: item['reference'], context: item['context'] })
        : undefined
      if (missing) context.addIssue({ code: 'custom', message: `${code(given[0])} needs ${missing}` })
    }
  })
  .meta({
    id: 'Judge',
    description:
      'An LLM judge: one judge key (its argument, or `true`) plus threshold, samples, weight, reference, context, spec',
  }) as unknown as z.ZodType<JudgeItem>

export const judgeSettingsSchema = z
  .strictObject({
    model: z
      .string()
      .min(1)
      .optional()
      .describe('judge model, e.g. `openai:gpt-4.1-mini`; `--judge` overrides'),
    temperature: z.number().min(0).max(2).optional().describe('judge sampling temperature (default 0)'),
    output: z
      .enum(['tool', 'json-schema'])
      .optional()
      .describe('verdict through a forced `verdict` tool call (default) or native JSON-schema output'),
  })
  .describe('LLM judge settings') as z.ZodType<JudgeSettings>

/** The first requirement the item does not meet, worded for a message: `` `reference` ``. */
export function missingRequirement(
  requires: readonly JudgeRequirement[],
  item: { reference?: unknown; context?: unknown },
): string | undefined {
  for (const requirement of requires) {
    const options = typeof requirement === 'string' ? [requirement] : requirement
    if (options.some((name) => item[name] !== undefined)) continue
    return options.map(code).join(' or ')
  }
  return undefined
}

/** Suite judge settings as the runner resolves them (`--judge` over the suite's `judge.model`), plus runtime hooks. */
export interface JudgeOptions extends JudgeSettings {
  /** used instead of resolving `model`: a scripted judge in tests, or a custom client */
  provider?: Provider
  /** suite name: g-eval steps are pinned in `__judges__/<suite>.json` beside the case file @default 'judges' */
  suite?: string
  /** where g-eval steps are pinned; wins over `suite` */
  stepsFile?: string
  /** the run's response cache; judge calls are keyed by request, trial and sample */
  cache?: ResponseCache
  retry?: RetryOptions
  /** per judge call @default 120_000 */
  requestTimeoutMs?: number
  observers?: readonly Observer[]
  /** price overrides in USD per million tokens, keyed by model name */
  prices?: Record<string, ModelPrice>
}

/** A judge ready to run: its spec, the case's values, and the options shared by the suite. */
export interface CompiledJudge {
  spec: JudgeSpec
  values: ItemValues
  threshold: number
  samples: number
  baseDir: string
  options: JudgeOptions | undefined
}
