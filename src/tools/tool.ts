import { z } from 'zod'
import { ConfigError } from '../errors.ts'
import type { RunContext } from '../types.ts'
import type { ToolSchema } from '../providers/provider.ts'
import { didYouMean } from '../util/did-you-mean.ts'
import { validatingExecute } from './direct-execute.ts'
import { checkResultLimit } from './result-limit.ts'
import type { ToolContext, ToolReturn } from './tool-context.ts'

export type { ToolContext, ToolReturn } from './tool-context.ts'

export interface ToolConfig<Parameters extends z.ZodObject, Result, Deps> {
  /** the name the model calls; letters, digits, `_` and `-` */
  name: string
  /** tells the model when to use the tool */
  description: string
  /** a zod object; its JSON Schema is what the model sees */
  parameters: Parameters
  execute(args: z.output<Parameters>, context: ToolContext<Deps>): ToolReturn<Result>
  /** overrides the agent's `toolTimeoutMs` */
  timeoutMs?: number
  /** a successful call ends the run, with the result as the output @default false */
  terminal?: boolean
  /**
   * the tool has no side effects: consecutive read-only calls of one reply run at once, while a call of a tool
   * without it waits for the calls before it and holds back the calls after it @default false
   */
  readOnly?: boolean
  /**
   * the resource a call works on (a path, a record id): calls on one resource run one after another in call order,
   * reads included, and a write with a resource waits only for calls on that resource or with none
   */
  resource?(args: z.output<Parameters>): string | undefined
  /** replies in a row whose calls of this tool all failed before the run stops; overrides the agent's `toolRetries` */
  maxRetries?: number
  /**
   * the most characters of the result's text the model is sent; a longer result is cut and ends with
   * `…[truncated 12,345 of 20,000 characters]` (the call's `result` keeps the whole value); overrides the agent's
   * `maxToolResultChars` @default no limit
   */
  maxResultChars?: number
  /**
   * decides before each model call whether the tool is offered and how its schema reads: return the schema
   * (edited or not; the name stays) or nothing to hide the tool for that step
   */
  prepare?(
    context: RunContext<Deps>,
    schema: ToolSchema,
  ): ToolSchema | null | undefined | Promise<ToolSchema | null | undefined>
  /**
   * reuse successful results for the same arguments, within a run and, through the agent's `cache`, across runs:
   * `true`, or `{ ttlMs, key, deps }` where `key(args)` picks what identifies a call and `deps(deps)` the part of
   * the run's deps the result depends on @default false
   */
  cache?: true | ToolCacheOptions<z.output<Parameters>, Deps>
  /**
   * names of cacheable tools whose cached results a successful call of this tool makes stale (an `edit_file` names
   * `read_file`); when both tools have a `resource`, only the results for the same resource are dropped
   */
  invalidates?: readonly string[]
  /** `--record` saves this tool's results to the cassette and `--replay` serves them instead of running it @default false */
  record?: boolean
  /**
   * a person must approve each call (or the calls for which the function returns true) before it runs: the agent's
   * `confirm` is asked when it has one, else the run ends with `stopReason: 'interrupted'` and waits for
   * `agent.resume(result.state, decisions)` @default false
   */
  needsApproval?:
    boolean | ((args: z.output<Parameters>, context: ApprovalContext<Deps>) => boolean | Promise<boolean>)
}

/** What a `needsApproval` function sees besides the arguments. */
export interface ApprovalContext<Deps = unknown> {
  deps: Deps
  runId: string
  callId: string
}

export interface ToolCacheOptions<Args, Deps = unknown> {
  /** how long a result is reused @default the cache's own lifetime */
  ttlMs?: number
  /** what identifies a call (hashed) @default the arguments */
  key?(args: Args): unknown
  /**
   * the part of the run's deps the result depends on, such as a user or tenant id (hashed into the key). Without it,
   * runs share results only when they share the agent's deps: a run given its own `deps` keeps its results to itself
   */
  deps?(deps: Deps): unknown
}

/**
 * Every option of `ToolConfig`, the one list `tool()` checks definitions against: a key not in it is a ConfigError.
 * TypeScript requires each option here, so a new option is one line in each.
 */
const TOOL_CONFIG_KEYS: Record<keyof ToolConfig<z.ZodObject, unknown, unknown>, true> = {
  name: true,
  description: true,
  parameters: true,
  execute: true,
  timeoutMs: true,
  terminal: true,
  readOnly: true,
  resource: true,
  maxRetries: true,
  maxResultChars: true,
  prepare: true,
  cache: true,
  invalidates: true,
  record: true,
  needsApproval: true,
}

/** A defined tool, ready to give to an Agent. */
export interface Tool<
  Parameters extends z.ZodObject = z.ZodObject,
  Result = unknown,
  Deps = unknown,
> extends Readonly<Omit<ToolConfig<Parameters, Result, Deps>, 'execute'>> {
  /**
   * runs the tool directly (in a test, say): the arguments are validated and defaulted as a model's call would be,
   * context fields left out get defaults, and an async-generator tool's chunks go to `emit`
   */
  readonly execute: (args: z.input<Parameters>, context?: Partial<ToolContext<Deps>>) => Promise<Result>
  /** what the model is sent */
  readonly schema: ToolSchema
  /** type-only marker of the deps the tool needs: an Agent whose deps do not fit it rejects the tool at compile time */
  readonly '~deps'?: (deps: Deps) => void
  /** @internal the agent the tool runs (`agent.asTool()`) */
  readonly '~agent'?: string
}

/** A tool an Agent with these deps accepts: one typed for these deps, or for none. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- tools of any argument type must fit one list
export type AgentTool<Deps> = Tool<z.ZodObject, any, Deps>

/** Any tool, whatever its parameter, result and deps types. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- tools of any argument type must fit one list
export type AnyTool = Tool<z.ZodObject, any, any>

const TOOL_NAME = /^[a-zA-Z0-9_-]{1,64}$/

/** Defines a tool. Throws a ConfigError naming the tool when the definition is unusable. */
export function tool<Parameters extends z.ZodObject, Result, Deps = unknown>(
  config: ToolConfig<Parameters, Result, Deps>,
): Tool<Parameters, Result, Deps> {
  const label = config.name ? `Tool \`${config.name}\`` : 'A tool'
  if (!config.name) throw new ConfigError('A tool has an empty name: give it a `name` such as `get_weather`.')
  if (!TOOL_NAME.test(config.name)) {
    throw new ConfigError(
      `${label} has an invalid name: use 1 to 64 letters, digits, \`_\` or \`-\` (providers reject others).`,
    )
  }
  if (!(config.parameters instanceof z.ZodObject)) {
    throw new ConfigError(
      `${label} needs \`parameters\` to be a zod object, e.g. z.object({ city: z.string() }).`,
    )
  }
  if (typeof config.description !== 'string' || config.description.trim() === '') {
    throw new ConfigError(
      `${label} has an empty \`description\`: say what it does and when to use it; the model chooses tools by it.`,
    )
  }
  if (typeof config.execute !== 'function') throw new ConfigError(`${label} needs an \`execute\` function.`)
  rejectUnknownKeys(label, config)
  checkResultLimit(label, 'maxResultChars', config.maxResultChars)
  const parameters = closeObjects(z.toJSONSchema(config.parameters, { io: 'input', unrepresentable: 'any' }))
  delete parameters.$schema
  return {
    ...config,
    execute: validatingExecute(config as never) as Tool<Parameters, Result, Deps>['execute'],
    schema: { name: config.name, description: config.description, parameters },
  }
}

function rejectUnknownKeys(label: string, config: object): void {
  const known = Object.keys(TOOL_CONFIG_KEYS)
  for (const key of Object.keys(config)) {
    if (Object.hasOwn(TOOL_CONFIG_KEYS, key)) continue
    const suggestion = didYouMean(key, known)
    const hint = suggestion ? ` Did you mean \`${suggestion}\`?` : ` Known options: ${known.join(', ')}.`
    throw new ConfigError(`${label}: unknown option \`${key}\`.${hint}`)
  }
}

/**
 * `tool` with the deps type fixed, so `ctx.deps` is typed while parameters and result are still inferred:
 * `const lookup = tool.withDeps<{ db: Db }>()({ name, description, parameters, execute: (args, ctx) => … })`.
 */
tool.withDeps = function withDeps<Deps>() {
  return <Parameters extends z.ZodObject, Result>(
    config: ToolConfig<Parameters, Result, Deps>,
  ): Tool<Parameters, Result, Deps> => tool(config)
}

/** Checks a tool list: no duplicate names. */
export function indexTools(tools: readonly AnyTool[]): Map<string, AnyTool> {
  const byName = new Map<string, AnyTool>()
  for (const candidate of tools) {
    if (byName.has(candidate.name)) {
      throw new ConfigError(
        `Tool \`${candidate.name}\` is defined twice: tool names must be unique in an agent.`,
      )
    }
    byName.set(candidate.name, candidate)
  }
  return byName
}

/** Marks every object that does not allow extra keys with `additionalProperties: false`, as validation enforces. */
function closeObjects<Schema>(schema: Schema): Schema {
  if (Array.isArray(schema)) {
    for (const item of schema) closeObjects(item)
  } else if (typeof schema === 'object' && schema !== null) {
    const node = schema as Record<string, unknown>
    if (node.type === 'object' && !('additionalProperties' in node)) node.additionalProperties = false
    for (const value of Object.values(node)) closeObjects(value)
  }
  return schema
}
