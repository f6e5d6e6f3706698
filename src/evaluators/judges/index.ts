import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { extname, resolve } from 'node:path'
import { z } from 'zod'
import { ConfigError } from '../../errors.ts'
import { bias } from './bias.ts'
import { closedQa } from './closed-qa.ts'
import { coherence } from './coherence.ts'
import { completeness } from './completeness.ts'
import { correctness } from './correctness.ts'
import { faithfulness } from './faithfulness.ts'
import { gEval } from './g-eval.ts'
import { hallucination } from './hallucination.ts'
import { pairwise } from './pairwise.ts'
import { relevance } from './relevance.ts'
import { rubric } from './rubric.ts'
import { defineJudgeSpec, judgeSpecSchema, type JudgeSpec } from './spec.ts'
import { summary } from './summary.ts'
import { toxicity } from './toxicity.ts'

/** The built-in judges, in the order the docs and the JSON Schema list them. */
export const judgeSpecs: readonly JudgeSpec[] = [
  rubric,
  correctness,
  relevance,
  faithfulness,
  hallucination,
  toxicity,
  coherence,
  completeness,
  bias,
  summary,
  gEval,
  pairwise,
  closedQa,
]

/** The registry: case-file judge name → spec. */
export const judgeRegistry: ReadonlyMap<string, JudgeSpec> = new Map(
  judgeSpecs.map((spec) => [spec.name, spec]),
)

const loaded = new Map<string, JudgeSpec>()

/** Reads a user's spec file (YAML or JSON), relative to `baseDir`; throws ConfigError naming the file. */
export function loadJudgeSpecFile(path: string, baseDir: string): JudgeSpec {
  const file = resolve(baseDir, path)
  const cached = loaded.get(file)
  if (cached) return cached
  let text: string
  try {
    text = readFileSync(file, 'utf8')
  } catch (error) {
    throw new ConfigError(`Cannot read judge spec ${file}: ${(error as Error).message}`, { cause: error })
  }
  let data: unknown
  try {
    data =
      extname(file) === '.json'
        ? JSON.parse(text)
        : (createRequire(import.meta.url)('yaml') as typeof import('yaml')).parse(text)
  } catch (error) {
    throw new ConfigError(`Cannot parse judge spec ${file}: ${(error as Error).message}`, { cause: error })
  }
  const parsed = judgeSpecSchema.safeParse(data)
  if (!parsed.success) throw new ConfigError(`Invalid judge spec ${file}:\n${z.prettifyError(parsed.error)}`)
  const spec = defineJudgeSpec(parsed.data)
  loaded.set(file, spec)
  return spec
}

export { defineJudgeSpec, specHash } from './spec.ts'
export type { JudgeSpec } from './spec.ts'
