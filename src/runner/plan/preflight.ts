import { relative } from 'node:path'
import type { Suite } from '../../cases/suite.ts'
import { ConfigError, EvalsError } from '../../errors.ts'
import type { ResolvedRun } from './run-settings.ts'

/** What the check reads of a resolved run: where the models were set, and the judge settings. */
type ModelOptions = Pick<ResolvedRun, 'model' | 'judge'>

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

function modelUses(suite: Suite, run: ModelOptions): ModelUse[] {
  const file = relative(process.cwd(), suite.file)
  const uses: ModelUse[] = []
  // the suite's model and judge are the run's, settled by resolveRun
  const model = suite.model
  // agent and function targets are given the model; HTTP and command targets never call it
  if (model !== undefined && (suite.target.type === 'agent' || suite.target.type === 'function')) {
    uses.push({ model, where: `${file}: ${run.model === undefined ? '`model`' : '--model'}` })
  }
  if (!suite.cases.judged || run.judge.provider !== undefined) return uses
  const judge = suite.judge?.model
  if (judge !== undefined) {
    uses.push({
      model: judge,
      where: `${file}: ${run.judge.model === undefined ? '`judge.model`' : '--judge'}`,
    })
  } else if (run.judge.requireJudges || suite.gate?.require_judges === true) {
    const why = run.judge.requireJudges ? '--require-judges' : '`gate.require_judges`'
    throw new ConfigError(
      `${file}: cases have LLM judges but no judge model is set, and ${why} does not let them be skipped: ` +
        'set `judge.model` in the file or pass `--judge openai:gpt-4.1-mini`.',
    )
  }
  return uses
}
