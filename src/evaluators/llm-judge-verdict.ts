import { addUsage, emptyUsage, type Usage } from '../types.ts'
import type { Verdict } from './evaluator.ts'
import type { CompiledJudge } from './llm-judge-options.ts'
import type { Provider } from '../providers/provider.ts'

/** One judge call, parsed and priced. */
export interface Call {
  choice: string
  reasons: string
  rawScore: number
  usage: Usage
  costUsd: number | null
  cached: boolean
}

/** One judgement: a call, or for pairwise the two calls in both orders. */
export interface Sample {
  choice: string
  reasons: string
  rawScore: number
  /** pairwise: the output-first and the reference-first calls */
  orders?: { order: 'output-first' | 'reference-first'; choice: string; reasons: string; rawScore: number }[]
  positionDisagreement?: boolean
}

/** Grades the samples: mean raw score against the threshold, with the evidence reports show. */
export function verdictOf(
  judge: CompiledJudge,
  hash: string,
  provider: Provider,
  samples: readonly Sample[],
  calls: readonly Call[],
  steps: { steps: string[]; key: string } | undefined,
): Verdict {
  const { spec, threshold } = judge
  const scores = samples.map((sample) => sample.rawScore)
  const mean = scores.reduce((sum, score) => sum + score, 0) / scores.length
  const stdDev =
    scores.length < 2
      ? 0
      : Math.sqrt(scores.reduce((sum, score) => sum + (score - mean) ** 2, 0) / (scores.length - 1))
  const choice = modal(samples.map((sample) => sample.choice))
  const first = samples.find((sample) => sample.choice === choice) ?? samples[0]
  const pass = mean >= threshold
  const disagreements = samples.filter((sample) => sample.positionDisagreement === true).length
  const costs = calls.map((call) => call.costUsd)
  const scored =
    samples.length === 1
      ? `${round(mean)}/${spec.scale} (${JSON.stringify(choice)})`
      : `mean ${round(mean)}/${spec.scale} over ${samples.length} samples (spread ±${round(stdDev)})`
  const disagreement =
    disagreements > 0 ? `; position disagreement in ${disagreements} of ${samples.length}` : ''
  return {
    pass,
    score: mean / spec.scale,
    reason: `${spec.name} ${scored} ${pass ? '≥' : '<'} ${threshold}${disagreement}: ${oneLine(first?.reasons ?? '')}`,
    details: {
      judge: spec.name,
      judgeModel: provider.id,
      specHash: hash,
      choice,
      reasons: first?.reasons ?? '',
      rawScore: mean,
      scale: spec.scale,
      threshold,
      spread: { stdDev, min: Math.min(...scores), max: Math.max(...scores) },
      samples,
      ...(spec.mode === 'pairwise' ? { positionDisagreement: disagreements > 0 } : {}),
      ...(steps ? { steps: steps.steps, stepsKey: steps.key } : {}),
      calls: calls.length,
      cachedCalls: calls.filter((call) => call.cached).length,
      usage: calls.reduce((total, call) => addUsage(total, call.usage), emptyUsage()),
      costUsd: costs.some((cost) => cost === null)
        ? null
        : costs.reduce<number>((sum, cost) => sum + (cost ?? 0), 0),
    },
  }
}

function modal(choices: readonly string[]): string {
  const counts = new Map<string, number>()
  for (const choice of choices) counts.set(choice, (counts.get(choice) ?? 0) + 1)
  let best = choices[0] ?? ''
  for (const [choice, count] of counts) if (count > (counts.get(best) ?? 0)) best = choice
  return best
}

function oneLine(text: string, max = 160): string {
  const flat = text.replace(/\s+/g, ' ').trim()
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat
}

function round(value: number): number {
  return Math.round(value * 100) / 100
}
