import { ConfigError, toError } from '../errors.ts'
import type { AnyTool } from '../tools/tool.ts'
import { McpConnection } from './mcp-connection.ts'
import type { McpServerOptions } from './options.ts'

/** The tools of a run, and why some servers' tools are missing from it. */
export interface McpTools {
  tools: ReadonlyMap<string, AnyTool>
  /** one line per server that could not start, e.g. ``MCP server `fs` could not start: …`` */
  failures: readonly string[]
}

/**
 * An agent's MCP servers, started independently: their tools joined to the agent's own, rebuilt when a server's
 * list changes. A server that cannot start leaves the others working; tools it listed before fail with the reason.
 */
export class McpToolsets {
  #connections: McpConnection[]
  #local: ReadonlyMap<string, AnyTool>
  #merged: ReadonlyMap<string, AnyTool> | undefined
  #failed = new Map<McpConnection, string>()

  constructor(servers: readonly McpServerOptions[], local: ReadonlyMap<string, AnyTool>) {
    this.#local = local
    this.#connections = servers.map(
      (server) =>
        new McpConnection(server, () => {
          this.#merged = undefined
        }),
    )
  }

  /** Starts the servers that are not running, then returns every tool by name and the servers that failed. */
  async tools(): Promise<McpTools> {
    const failed = new Map<McpConnection, string>()
    await Promise.all(
      this.#connections.map((connection) =>
        connection.start().catch((error: unknown) => {
          failed.set(connection, toError(error).message)
        }),
      ),
    )
    if (!sameFailures(failed, this.#failed)) this.#merged = undefined
    this.#failed = failed
    this.#merged ??= this.#merge()
    const failures = this.#connections.flatMap((connection) => failed.get(connection) ?? [])
    return { tools: this.#merged, failures }
  }

  /** Starts every server now; throws one ConfigError naming each server that could not start. */
  async connect(): Promise<void> {
    const { failures } = await this.tools()
    if (failures.length > 0) throw new ConfigError(failures.join('\n'))
  }

  async close(): Promise<void> {
    await Promise.all(this.#connections.map((connection) => connection.close()))
  }

  #merge(): ReadonlyMap<string, AnyTool> {
    const merged = new Map(this.#local)
    const owners = new Map<string, string>()
    for (const connection of this.#connections) {
      const failure = this.#failed.get(connection)
      const tools = failure === undefined ? connection.tools : connection.unavailableTools(failure)
      for (const tool of tools) {
        if (merged.has(tool.name)) {
          const other = owners.get(tool.name)
          throw new ConfigError(
            `MCP server \`${connection.label}\` has a tool \`${tool.name}\`, as ${other === undefined ? 'the agent' : `MCP server \`${other}\``} does: ` +
              `give the server a \`prefix\` (e.g. \`${connection.label.replace(/\W+/g, '_')}_\`) to keep the names apart.`,
          )
        }
        merged.set(tool.name, tool)
        owners.set(tool.name, connection.label)
      }
    }
    return merged
  }
}

function sameFailures(a: ReadonlyMap<McpConnection, string>, b: ReadonlyMap<McpConnection, string>): boolean {
  return a.size === b.size && [...a].every(([connection, reason]) => b.get(connection) === reason)
}
