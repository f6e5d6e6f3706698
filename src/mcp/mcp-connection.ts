import type { Client } from '@modelcontextprotocol/sdk/client/index.js'
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js'
import type { CallToolResult, Tool as McpToolInfo } from '@modelcontextprotocol/sdk/types.js'
import { ConfigError, toError } from '../errors.ts'
import type { AnyTool } from '../tools/tool.ts'
import { toAgentTool } from './mcp-tool.ts'
import type { McpServerOptions } from './options.ts'

// setTimeout's ceiling: the engine's tool timeout governs, not the SDK's 60 s default
const NO_SDK_TIMEOUT = 2 ** 31 - 1
const STDERR_TAIL = 2000

/**
 * One MCP server: started on first use, its tools kept current through list-changed notifications. When the
 * server exits, calls fail with the reason and the next `start()` starts it again.
 */
export class McpConnection {
  readonly label: string
  #options: McpServerOptions
  #onToolsChanged: () => void
  #client: Client | undefined
  #starting: Promise<void> | undefined
  #refreshing: Promise<void> | undefined
  #tools: readonly AnyTool[] = []
  #stopped: string | undefined
  #closing = false
  #stderr = ''

  constructor(options: McpServerOptions, onToolsChanged: () => void) {
    this.#options = options
    this.#onToolsChanged = onToolsChanged
    this.label =
      options.name ??
      ('url' in options ? options.url : [options.command, ...(options.args ?? [])].join(' ').slice(0, 80))
  }

  get tools(): readonly AnyTool[] {
    return this.#tools
  }

  /** Connects and lists the tools, or waits for a list refresh under way. Throws a ConfigError when the server cannot start. */
  async start(): Promise<void> {
    await this.#connected()
    await this.#refreshing
  }

  #connected(): Promise<void> {
    this.#starting ??= this.#connect().catch((error: unknown) => {
      this.#starting = undefined
      throw new ConfigError(
        `MCP server \`${this.label}\` could not start: ${toError(error).message}${this.#stderrTail()}. ` +
          `Check its ${'url' in this.#options ? '`url`' : '`command` and `args`'} (try it by hand).`,
        { cause: error },
      )
    })
    return this.#starting
  }

  /** Stops the server; one still starting is stopped once it has started, so no child outlives the agent. */
  async close(): Promise<void> {
    this.#closing = true
    await this.#starting?.catch(() => undefined)
    this.#closing = true
    const client = this.#client
    this.#client = undefined
    this.#starting = undefined
    await client?.close()
  }

  /**
   * The tools last listed, each failing with `reason` when called: what the agent offers while the server cannot
   * start again, so the model's calls become tool errors that say why.
   */
  unavailableTools(reason: string): readonly AnyTool[] {
    return this.#tools.map((known) => ({
      ...known,
      execute: () => Promise.reject(new Error(reason)),
    }))
  }

  async #connect(): Promise<void> {
    const [{ Client }, { ToolListChangedNotificationSchema }] = await Promise.all([
      import('@modelcontextprotocol/sdk/client/index.js'),
      import('@modelcontextprotocol/sdk/types.js'),
    ])
    this.#closing = false
    this.#stopped = undefined
    this.#stderr = ''
    const client = new Client({ name: 'evals', version: '1' })
    // handled as it arrives (no debounce), so a run that starts after a call that changed the list sees the change
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
      this.#refreshing = this.#refresh(client).catch(() => undefined)
    })
    client.onclose = () => {
      if (this.#client !== client) return
      this.#client = undefined
      this.#starting = undefined
      if (!this.#closing) this.#stopped = `the server stopped${this.#stderrTail()}`
    }
    await client.connect(await this.#transport())
    this.#client = client
    await this.#refresh(client)
  }

  async #transport(): Promise<Transport> {
    const options = this.#options
    if ('url' in options) {
      const { StreamableHTTPClientTransport } =
        await import('@modelcontextprotocol/sdk/client/streamableHttp.js')
      return new StreamableHTTPClientTransport(new URL(options.url), {
        requestInit: { headers: options.headers ?? {} },
      })
    }
    const { StdioClientTransport, getDefaultEnvironment } =
      await import('@modelcontextprotocol/sdk/client/stdio.js')
    const transport = new StdioClientTransport({
      command: options.command,
      args: [...(options.args ?? [])],
      env: { ...getDefaultEnvironment(), ...options.env },
      stderr: 'pipe',
      ...(options.cwd === undefined ? {} : { cwd: options.cwd }),
    })
    transport.stderr?.on('data', (chunk: Buffer) => {
      this.#stderr = (this.#stderr + chunk.toString()).slice(-STDERR_TAIL)
    })
    return transport
  }

  async #refresh(client: Client): Promise<void> {
    const listed: McpToolInfo[] = []
    let cursor: string | undefined
    do {
      const page = await client.listTools(cursor === undefined ? {} : { cursor })
      listed.push(...page.tools)
      cursor = page.nextCursor
    } while (cursor !== undefined)
    if (this.#client !== client) return
    const call = (name: string, args: unknown, signal: AbortSignal): Promise<CallToolResult> =>
      this.#call(client, name, args, signal)
    this.#tools = listed.map((info) => toAgentTool(info, exposedName(this.#options.prefix, info.name), call))
    this.#onToolsChanged()
  }

  async #call(client: Client, name: string, args: unknown, signal: AbortSignal): Promise<CallToolResult> {
    if (this.#client !== client) throw new Error(this.#goneMessage())
    try {
      return (await client.callTool({ name, arguments: args as Record<string, unknown> }, undefined, {
        signal,
        timeout: NO_SDK_TIMEOUT,
      })) as CallToolResult
    } catch (error) {
      if (this.#client !== client) throw new Error(this.#goneMessage(), { cause: error })
      throw error
    }
  }

  #goneMessage(): string {
    const why = this.#stopped ?? 'the agent was closed'
    return `MCP server \`${this.label}\` is not running (${why}); it starts again on the agent's next run.`
  }

  #stderrTail(): string {
    const tail = this.#stderr.trim()
    return tail === '' ? '' : `; its stderr ends: ${tail.split('\n').slice(-3).join(' | ')}`
  }
}

/** The name the model sees: the prefix plus the server's name, with characters providers reject made `_`. */
function exposedName(prefix: string | undefined, name: string): string {
  return `${prefix ?? ''}${name}`.replace(/[^a-zA-Z0-9_-]/g, '_').slice(0, 64)
}
