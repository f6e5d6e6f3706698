import { ConfigError } from '../errors.ts'
import type { AnyTool } from '../tools/tool.ts'
import { McpConnection } from './mcp-connection.ts'
import type { McpServerOptions } from './options.ts'

/** An agent's MCP servers: their tools joined to the agent's own, rebuilt when a server's list changes. */
export class McpToolsets {
  #connections: McpConnection[]
  #local: ReadonlyMap<string, AnyTool>
  #merged: ReadonlyMap<string, AnyTool> | undefined

  constructor(servers: readonly McpServerOptions[], local: ReadonlyMap<string, AnyTool>) {
    this.#local = local
    this.#connections = servers.map(
      (server) =>
        new McpConnection(server, () => {
          this.#merged = undefined
        }),
    )
  }

  /** Starts the servers that are not running, then returns every tool by name. */
  async tools(): Promise<ReadonlyMap<string, AnyTool>> {
    await Promise.all(this.#connections.map((connection) => connection.start()))
    this.#merged ??= this.#merge()
    return this.#merged
  }

  async close(): Promise<void> {
    await Promise.all(this.#connections.map((connection) => connection.close()))
  }

  #merge(): ReadonlyMap<string, AnyTool> {
    const merged = new Map(this.#local)
    const owners = new Map<string, string>()
    for (const connection of this.#connections) {
      for (const tool of connection.tools) {
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
