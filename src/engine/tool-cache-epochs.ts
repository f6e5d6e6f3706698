import { ConfigError } from '../errors.ts'
import type { AnyTool } from '../tools/tool.ts'
import { didYouMean } from '../util/did-you-mean.ts'

/**
 * Invalidation of cached tool results by the tools that write. Each cacheable tool that some tool `invalidates` has
 * epochs (one for all its results, one per resource, and one for its calls without a resource); a cached result's
 * key holds the epochs it was made in, so bumping one makes those results unreachable.
 */
export class ToolCacheEpochs {
  readonly #epochs = new Map<string, number>()
  /** tool names some tool invalidates: only their keys carry epochs */
  readonly #invalidated: ReadonlySet<string>

  constructor(invalidated: ReadonlySet<string>) {
    this.#invalidated = invalidated
  }

  /** The epochs a result of `tool` for `resource` belongs to; undefined when nothing ever invalidates the tool. */
  of(tool: string, resource: string | undefined): readonly number[] | undefined {
    if (!this.#invalidated.has(tool)) return undefined
    return [
      this.#get(tool),
      this.#get(resource === undefined ? `${tool}\u0000*` : `${tool}\u0000=${resource}`),
    ]
  }

  /** After a successful write on `resource` (or on anything, when undefined), drops the results it makes stale. */
  bump(tools: readonly string[], resource: string | undefined): void {
    for (const tool of tools) {
      if (resource === undefined) this.#bump(tool)
      else {
        this.#bump(`${tool}\u0000=${resource}`)
        this.#bump(`${tool}\u0000*`)
      }
    }
  }

  #get(key: string): number {
    return this.#epochs.get(key) ?? 0
  }

  #bump(key: string): void {
    this.#epochs.set(key, this.#get(key) + 1)
  }
}

/**
 * The epochs of an agent's tools. Throws a ConfigError when a tool invalidates a name that is not one of the agent's
 * tools (MCP tools, listed only when their servers start, are taken on trust) or a tool that caches nothing.
 */
export function cacheEpochsOf(
  agent: string,
  tools: ReadonlyMap<string, AnyTool>,
  hasMcpServers: boolean,
): ToolCacheEpochs {
  const invalidated = new Set<string>()
  for (const writer of tools.values()) {
    for (const name of writer.invalidates ?? []) {
      const target = tools.get(name)
      if (!target && !hasMcpServers) {
        const suggestion = didYouMean(name, [...tools.keys()])
        throw new ConfigError(
          `Tool \`${writer.name}\` invalidates \`${name}\`, which is not a tool of agent \`${agent}\`.${suggestion ? ` Did you mean \`${suggestion}\`?` : ''}`,
        )
      }
      if (target && target.cache === undefined) {
        throw new ConfigError(
          `Tool \`${writer.name}\` invalidates \`${name}\`, which caches nothing: give \`${name}\` a \`cache\` option or drop it from \`invalidates\`.`,
        )
      }
      invalidated.add(name)
    }
  }
  return new ToolCacheEpochs(invalidated)
}
