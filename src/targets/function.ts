import { ConfigError } from '../errors.ts'
import type { Transcript, Turn } from '../types.ts'
import { didYouMean } from '../util/did-you-mean.ts'
import { displayPath, exportNames, importUserModule } from '../util/user-module.ts'
import type { Target, TargetContext } from './target.ts'
import { toTranscript } from './to-transcript.ts'

/** A function under test: gets the case input and returns a string, a Transcript or an AgentResult-like object. */
export type TargetFunction = (input: string | Turn[], context: TargetContext) => unknown

export interface FunctionTargetOptions {
  /** `./file.ts#name`; without `#name` the default export */
  ref: string
  /** directory the path is relative to (the case file's) */
  baseDir: string
  /** names the config entry in errors, e.g. `cases/fns.yaml: target.function` */
  label?: string
}

/** Loads `file#name` and wraps the function as a Target. */
export async function functionTarget(options: FunctionTargetOptions): Promise<Target> {
  const [path = '', name = 'default'] = options.ref.split('#')
  const file = displayPath(path)
  const label = options.label ?? 'target.function'
  const module = await importUserModule(path, options.baseDir, label)
  const fn = module[name]
  if (typeof fn !== 'function') {
    const hint = didYouMean(name, Object.keys(module))
    throw new ConfigError(
      `${label}: \`${file}\` has no function export \`${name}\`; it exports ${exportNames(module)}.` +
        (hint === undefined ? '' : ` Did you mean \`${file}#${hint}\`?`),
    )
  }
  return wrapFunction(`function:${file}#${name}`, fn as TargetFunction, `${label}: \`${file}#${name}\``)
}

/**
 * Wraps an in-process function as a Target; `label` prefixes errors about its return value. A framework's result
 * returned as it is (`generateText(…)`, `run(agent, …)`, `graph.invoke(…)`, a Mastra `agent.generate(…)`) is
 * mapped by its adapter's mapper.
 */
export function wrapFunction(id: string, fn: TargetFunction, label: string): Target {
  return {
    id,
    async run(input, context): Promise<Transcript> {
      const started = performance.now()
      let value: unknown
      try {
        value = await fn(input, context)
      } catch (thrown) {
        // a framework's error for the agent's own stop (max turns…) is graded; anything else errors the case
        const stopped = context.signal.aborted ? undefined : await fromFrameworkError(thrown, input, context)
        if (stopped === undefined) throw thrown
        return toTranscript(stopped, input, performance.now() - started) as Transcript
      }
      const transcript =
        toTranscript(value, input, performance.now() - started) ??
        (await fromFramework(value, input, context, started))
      if (transcript === undefined) {
        throw new ConfigError(
          `${label} returned ${describe(value)}; return a string, a Transcript, an object with an \`output\` string, or the result of \`generateText\`, the Agents SDK's \`run\`, \`graph.invoke\` or a Mastra \`agent.generate\`.`,
        )
      }
      return transcript
    },
  }
}

async function fromFrameworkError(
  thrown: unknown,
  input: string | Turn[],
  context: TargetContext,
): Promise<unknown> {
  if (typeof thrown !== 'object' || thrown === null) return undefined
  const { mapFrameworkError } = await import('../adapters/index.ts')
  return mapFrameworkError(thrown, input, context.history)
}

async function fromFramework(
  value: unknown,
  input: string | Turn[],
  context: TargetContext,
  started: number,
): Promise<Transcript | undefined> {
  if (typeof value !== 'object' || value === null) return undefined
  // imported here: a function that returns text never loads the mappers
  const { mapFrameworkResult } = await import('../adapters/index.ts')
  const parts = await mapFrameworkResult(value, input, context.history)
  return parts && toTranscript(parts, input, performance.now() - started)
}

function describe(value: unknown): string {
  if (value === null) return 'null'
  if (Array.isArray(value)) return 'an array'
  return typeof value === 'object' ? 'an object without an `output` string' : typeof value
}
