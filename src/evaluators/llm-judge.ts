import { join } from 'node:path'
import { costOf } from '../engine/pricing.ts'
import { loadPriceTable } from '../util/price-table.ts'
import type { Provider, ToolSchema } from '../providers/provider.ts'
import type { Transcript } from '../types.ts'
import { code } from './describe.ts'
import type { Evaluator } from './evaluator.ts'
import { verdictOf, type Call, type Sample } from './llm-judge-verdict.ts'
import { askStructured, JudgeError, shown, type JudgeCallScope } from './llm-judge-call.ts'
import { judgePrompt, promptVars } from './llm-judge-prompt.ts'
import { pinnedSteps } from './llm-judge-steps.ts'
import type { CompiledJudge, JudgeOptions } from './llm-judge-options.ts'
import { specHash } from './judges/spec.ts'

const providers = new Map<string, Provider>()

export const skipReason = (name: string): string =>
  `judge ${code(name)} skipped: no judge model: set \`judge.model\` in the suite or pass \`--judge openai:gpt-4.1-mini\``

/** The evaluator of one judge item: asks the judge `samples` times and passes when the mean score ≥ threshold. */
export function llmJudge(judge: CompiledJudge, weight?: number): Evaluator {
  const { spec } = judge
  const hash = specHash(spec)
  return {
    name: spec.name,
    usesModel: true,
    ...(weight === undefined ? {} : { weight }),
    evaluate: async (transcript, context) => {
      const provider = await judgeProvider(judge.options)
      if (!provider) {
        return {
          pass: false,
          skipped: true,
          reason: skipReason(spec.name),
          details: { judge: spec.name, specHash: hash },
        }
      }
      context.signal.throwIfAborted()
      if (!['local', 'scripted'].includes(vendorOf(provider.id))) await loadPriceTable()
      const scope = (sample: number): JudgeCallScope => ({
        provider,
        signal: context.signal,
        trial: context.trial,
        sample,
        output: judge.options?.output ?? 'tool',
        temperature: judge.options?.temperature ?? 0,
        cache: judge.options?.cache,
        retry: judge.options?.retry,
        requestTimeoutMs: judge.options?.requestTimeoutMs ?? 120_000,
        observers: judge.options?.observers ?? [],
      })
      const steps = spec.mode === 'g-eval' ? await stepsFor(judge, hash, scope(0), provider) : undefined
      const vars = promptVars(transcript, judge.values, spec, context.vars, steps?.steps)
      const calls: Call[] = []
      const ask = async (sample: number, extra: Record<string, unknown> = {}): Promise<Call> => {
        const call = await askVerdict(judge, judgePrompt(spec, { ...vars, ...extra }), scope(sample))
        calls.push(call)
        return call
      }
      const samples = await Promise.all(
        Array.from({ length: judge.samples }, (_, sample) =>
          spec.mode === 'pairwise'
            ? pairwiseSample(judge, transcript, sample, ask)
            : ask(sample).then((call): Sample => ({ ...pick(call), rawScore: call.rawScore })),
        ),
      )
      return verdictOf(judge, hash, provider, samples, calls, steps)
    },
  }
}

async function judgeProvider(options: JudgeOptions | undefined): Promise<Provider | undefined> {
  if (options?.provider) return options.provider
  const model = options?.model
  if (model === undefined) return undefined
  // the providers load only when a judge has a model to call; before the lookup, so get and set stay together
  const { resolveModel } = await import('../providers/registry.ts')
  let provider = providers.get(model)
  if (!provider) {
    provider = resolveModel(model)
    providers.set(model, provider)
  }
  return provider
}

async function askVerdict(
  judge: CompiledJudge,
  prompt: { system: string; user: string },
  scope: JudgeCallScope,
): Promise<Call> {
  const { spec } = judge
  const choices = Object.keys(spec.choices)
  const reply = await askStructured(spec.name, prompt, verdictTool(choices), scope)
  const { choice, reasons } = reply.value
  const matched =
    typeof choice === 'string'
      ? choices.find((known) => known.toLowerCase() === choice.trim().toLowerCase())
      : undefined
  if (matched === undefined) {
    throw new JudgeError(
      `Judge \`${spec.name}\` replied with ${typeof choice === 'string' ? `unknown choice ${JSON.stringify(choice)}` : 'no `choice`'}; expected one of ${choices.join(', ')}. Raw reply: ${shown(reply.raw)}`,
      { judge: spec.name, raw: reply.raw },
    )
  }
  const { usage, model, providerId } = reply.completion
  return {
    choice: matched,
    reasons: typeof reasons === 'string' ? reasons : '',
    rawScore: spec.choices[matched] ?? 0,
    usage,
    costUsd: costOf(vendorOf(providerId ?? scope.provider.id), model, usage, judge.options?.prices),
    cached: reply.cached,
  }
}

/** The forced tool: `reasons` comes before `choice`, so the judge reasons before it decides. */
export function verdictTool(choices: readonly string[]): ToolSchema {
  return {
    name: 'verdict',
    description: 'Record your verdict: first your reasons, then your choice.',
    parameters: {
      type: 'object',
      properties: {
        reasons: {
          type: 'string',
          description: 'your step-by-step reasoning, written before you choose',
        },
        choice: { type: 'string', enum: [...choices], description: 'exactly one of the allowed choices' },
      },
      required: ['reasons', 'choice'],
      additionalProperties: false,
    },
  }
}

async function pairwiseSample(
  judge: CompiledJudge,
  transcript: Transcript,
  sample: number,
  ask: (sample: number, extra: Record<string, unknown>) => Promise<Call>,
): Promise<Sample> {
  const reference = judge.values.reference ?? ''
  const [outputFirst, referenceFirst] = await Promise.all([
    ask(sample, { first: transcript.output, second: reference }),
    ask(sample, { first: reference, second: transcript.output }),
  ])
  const { scale } = judge.spec
  const outputScores = [outputFirst.rawScore, scale - referenceFirst.rawScore] as const
  const orders = [
    { order: 'output-first' as const, ...pick(outputFirst), rawScore: outputScores[0] },
    { order: 'reference-first' as const, ...pick(referenceFirst), rawScore: outputScores[1] },
  ]
  const first = outcome(outputScores[0], scale)
  const second = outcome(outputScores[1], scale)
  return {
    choice: first === second ? first : 'inconsistent',
    reasons: orders.map((order) => `${order.order}: ${order.reasons}`).join('\n'),
    rawScore: (outputScores[0] + outputScores[1]) / 2,
    orders,
    positionDisagreement: first !== second,
  }
}

function pick(call: Call): { choice: string; reasons: string } {
  return { choice: call.choice, reasons: call.reasons }
}

function outcome(score: number, scale: number): 'better' | 'tie' | 'worse' {
  return score > scale / 2 ? 'better' : score < scale / 2 ? 'worse' : 'tie'
}

async function stepsFor(
  judge: CompiledJudge,
  hash: string,
  scope: JudgeCallScope,
  provider: Provider,
): Promise<{ steps: string[]; key: string; generated: boolean }> {
  const { spec, values } = judge
  const criteria = values.argument ?? ''
  const file =
    judge.options?.stepsFile ??
    join(judge.baseDir, '__judges__', `${slug(judge.options?.suite ?? 'judges')}.json`)
  return pinnedSteps(file, { judge: spec.name, specHash: hash, criteria }, async () => {
    const reply = await askStructured(
      spec.name,
      {
        system: 'You write evaluation steps for grading replies written by an AI assistant.',
        user: judgePrompt(spec, { criteria }, spec.stepsPrompt).user,
      },
      stepsTool,
      { ...scope, trial: 0 },
    )
    const { steps } = reply.value
    if (!Array.isArray(steps) || steps.length === 0 || !steps.every((step) => typeof step === 'string')) {
      throw new JudgeError(
        `Judge \`${spec.name}\` gave no evaluation steps (expected \`steps\`, a list of strings). Raw reply: ${shown(reply.raw)}`,
        { judge: spec.name, raw: reply.raw },
      )
    }
    return { steps, judgeModel: provider.id }
  })
}

const stepsTool: ToolSchema = {
  name: 'evaluation_steps',
  description: 'Record the evaluation steps, in order.',
  parameters: {
    type: 'object',
    properties: { steps: { type: 'array', items: { type: 'string' }, description: 'one instruction each' } },
    required: ['steps'],
    additionalProperties: false,
  },
}

function vendorOf(providerId: string): string {
  return providerId.split(':')[0] ?? ''
}

function slug(name: string): string {
  return name.replace(/[^\w.-]+/g, '-')
}
