import type { z } from 'zod'
import { caseFileErrorMap, flattenIssues, formatPath } from './issues.ts'
import { renderString } from '../util/template.ts'
import { ConfigError } from '../errors.ts'
import { code } from '../evaluators/describe.ts'
import type { Evaluator } from '../evaluators/evaluator.ts'
import { judgeRegistry, loadJudgeSpecFile } from '../evaluators/judges/index.ts'
import type { JudgeSpec } from '../evaluators/judges/spec.ts'
import { llmJudge } from '../evaluators/llm-judge.ts'
import type { JudgeOptions } from '../evaluators/llm-judge-options.ts'
import {
  judgeItemSchema,
  judgeNames,
  missingRequirement,
  type JudgeItem,
} from '../evaluators/llm-judge-options.ts'
import { judgePrompt, promptVars, type ItemValues } from '../evaluators/llm-judge-prompt.ts'

/** The part of a case the judges need. */
export interface JudgedCase {
  id?: string
  vars?: Record<string, unknown>
  judge?: readonly JudgeItem[]
}

/**
 * Turns a case's `judge:` items into evaluators. Items are validated, their strings rendered with the case vars,
 * and each spec's needs (`reference`, `context`, its argument) checked now, so a bad item fails with a ConfigError
 * naming the case and the item rather than at run time.
 */
export function compileJudges(
  caseDef: JudgedCase,
  context: { baseDir: string; judge?: JudgeOptions },
): Evaluator[] {
  return (caseDef.judge ?? []).map((item, index) => {
    const fail = (path: PropertyKey[], message: string): never => {
      const where = formatPath(['judge', index, ...path])
      throw new ConfigError(
        `${caseDef.id === undefined ? '' : `Case \`${caseDef.id}\`, `}${where}: ${message}`,
      )
    }
    const parsed = judgeItemSchema.safeParse(item, { error: caseFileErrorMap })
    if (!parsed.success) {
      const [first] = flattenIssues((parsed.error as z.ZodError).issues)
      return fail(first?.path ?? [], first?.message ?? 'invalid judge')
    }
    const options = parsed.data
    const name = judgeNames.find((candidate) => options[candidate] !== undefined)
    const spec: JudgeSpec =
      options.spec === undefined
        ? (judgeRegistry.get(name ?? '') ?? fail([], 'no judge'))
        : loadJudgeSpecFile(options.spec, context.baseDir)
    const vars = caseDef.vars ?? {}
    const render = (value: string | undefined, path: string): string | undefined => {
      if (value === undefined) return undefined
      const rendered = renderString(value, vars)
      return rendered.ok ? rendered.value : fail([path], rendered.error)
    }
    const argument = name === undefined ? undefined : options[name]
    const context_ = Array.isArray(options.context) ? options.context.join('\n\n') : options.context
    const values: ItemValues = strip({
      argument: render(typeof argument === 'string' ? argument : undefined, name ?? ''),
      reference: render(options.reference, 'reference'),
      context: render(context_, 'context'),
    })
    const missing = missingRequirement(spec.requires, values)
    if (missing) fail([], `${code(spec.name)} needs ${missing}`)
    if (spec.argument !== undefined && values.argument === undefined)
      fail([], `${code(spec.name)} needs its ${spec.argument}: write it as the value of the judge key`)
    const threshold = options.threshold ?? spec.threshold
    if (threshold > spec.scale)
      fail(['threshold'], `${threshold} is above the scale of ${code(spec.name)} (0 to ${spec.scale})`)
    // a dry render catches a spec template that needs a variable this case does not give
    const sampleVars = promptVars({ input: '', output: '', toolCalls: [] }, values, spec, vars, ['step'])
    try {
      judgePrompt(spec, { ...sampleVars, first: '', second: '' })
    } catch (error) {
      fail([], (error as Error).message)
    }
    return llmJudge(
      {
        spec,
        values,
        threshold,
        samples: options.samples ?? 1,
        baseDir: context.baseDir,
        options: context.judge,
      },
      options.weight,
    )
  })
}

function strip<T extends Record<string, unknown>>(value: T): { [K in keyof T]?: Exclude<T[K], undefined> } {
  return Object.fromEntries(Object.entries(value).filter(([, entry]) => entry !== undefined)) as {
    [K in keyof T]?: Exclude<T[K], undefined>
  }
}
