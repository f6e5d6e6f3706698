import { relative } from 'node:path'
import type { Suite } from '../../cases/suite.ts'
import { ConfigError, EvalsError } from '../../errors.ts'
import type { Provider } from '../../providers/provider.ts'

/** The models a run calls, beside the suites' own; checked for their keys before anything runs. */
export interface ModelOptions {
  /** model for agent targets; overrides the suites' `model:` */
  model?: string
  /** judge model for LLM-judge checks; overrides the suites' `judge.model` (`--judge`) */
  judge?: string
  /** used for every judge call instead of resolving a judge model (scripted judges in tests) */
  judgeProvider?: Provider
  /** a suite with LLM judges but no judge model cannot run, as `gate: { require_judges: true }` (`--require-judges`) */
  requireJudges?: boolean
}

/** A model the run will call, and where it was set. */
interface ModelUse {
  model: string
  /** `cases.yaml: \`model\``, `cases.yaml: --judge`, … */
  where: string
}

/**
 * Checks, before the first case runs, that every model the run will call can be made (an API key is set) and,
 * with `require_judges`, that every judged suite has a judge model; throws a ConfigError naming the case file and
 * the setting. Models of a prefix no one registered yet are left to the target, which may register it.
 */
export async function checkModels(suites: readonly Suite[], options: ModelOptions): Promise<void> {
  const uses = suites.flatMap((suite) => modelUses(suite, options))
  if (uses.length === 0) return
  // the registry loads the provider SDKs: only when some model is to be checked
  const { knowsModel, resolveModel } = await import('../../providers/registry.ts')
  for (const { model, where } of uses) {
    if (!knowsModel(model)) continue
    try {
      resolveModel(model)
    } catch (error) {
      if (!(error instanceof EvalsError)) throw error
      throw new ConfigError(`${where}: ${error.message}`, { cause: error })
    }
  }
}

function modelUses(suite: Suite, options: ModelOptions): ModelUse[] {
  const file = relative(process.cwd(), suite.file)
  const uses: ModelUse[] = []
  const model = options.model ?? suite.model
  // agent and function targets are given the model; HTTP and command targets never call it
  if (model !== undefined && (suite.target.type === 'agent' || suite.target.type === 'function')) {
    uses.push({ model, where: `${file}: ${options.model === undefined ? '`model`' : '--model'}` })
  }
  if (!suite.cases.judged || options.judgeProvider !== undefined) return uses
  const judge = options.judge ?? suite.judge?.model
  if (judge !== undefined) {
    uses.push({
      model: judge,
      where: `${file}: ${options.judge === undefined ? '`judge.model`' : '--judge'}`,
    })
  } else if (options.requireJudges === true || suite.gate?.require_judges === true) {
    const why = options.requireJudges === true ? '--require-judges' : '`gate.require_judges`'
    throw new ConfigError(
      `${file}: cases have LLM judges but no judge model is set, and ${why} does not let them be skipped: ` +
        'set `judge.model` in the file or pass `--judge openai:gpt-4.1-mini`.',
    )
  }
  return uses
}
