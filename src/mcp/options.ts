/** What every MCP server entry may set besides how to reach the server. */
interface McpServerCommon {
  /** names the server in errors and traces @default the command, or the URL's host */
  name?: string
  /** put before each of the server's tool names, to keep two servers' tools apart, e.g. `fs_` */
  prefix?: string
}

/** A server the agent starts as a child process and talks to over stdin/stdout. */
export interface McpStdioServer extends McpServerCommon {
  command: string
  args?: readonly string[]
  /** added to the safe default environment (PATH, HOME, …); the rest of the parent's is not passed on */
  env?: Record<string, string>
  cwd?: string
}

/** A server the agent reaches over streamable HTTP. */
export interface McpHttpServer extends McpServerCommon {
  /** the server's MCP endpoint, e.g. `http://127.0.0.1:3001/mcp` */
  url: string
  /** sent with every request, e.g. an `authorization` header */
  headers?: Record<string, string>
}

/**
 * An MCP server whose tools become the agent's tools. It starts on the agent's first run and stops with
 * `agent.close()`; a server that exits or drops the connection turns its tools' calls into tool errors.
 */
export type McpServerOptions = McpStdioServer | McpHttpServer
