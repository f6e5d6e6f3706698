import type { CallToolResult, Tool as McpToolInfo } from '@modelcontextprotocol/sdk/types.js'
import { z } from 'zod'
import { validatingExecute } from '../tools/direct-execute.ts'
import type { AnyTool, ToolContext } from '../tools/tool.ts'

/** Calls one tool on the server; rejects when the server is gone or the call fails. */
export type McpCall = (name: string, args: unknown, signal: AbortSignal) => Promise<CallToolResult>

/**
 * An MCP server's tool as an agent tool: its JSON Schema becomes a zod schema, so arguments are checked (with
 * did-you-mean hints) exactly as for tools defined with `tool()`, and the model sees the server's own schema.
 */
export function toAgentTool(info: McpToolInfo, exposedName: string, call: McpCall): AnyTool {
  const { $schema: _, ...parameters } = info.inputSchema
  const description = info.description ?? info.title ?? info.name
  const zodParameters = parametersOf(info.inputSchema)
  const execute = async (args: unknown, context: ToolContext): Promise<unknown> =>
    resultOf(await call(info.name, args, context.signal))
  return {
    name: exposedName,
    description,
    parameters: zodParameters,
    readOnly: info.annotations?.readOnlyHint === true,
    schema: { name: exposedName, description, parameters },
    execute: validatingExecute({ name: exposedName, parameters: zodParameters, execute }),
  }
}

function parametersOf(inputSchema: McpToolInfo['inputSchema']): z.ZodObject {
  try {
    const schema = z.fromJSONSchema(inputSchema as z.core.JSONSchema.JSONSchema)
    if (schema instanceof z.ZodObject) return schema
  } catch {
    // a schema zod cannot read: accept any object and let the server judge the arguments
  }
  return z.looseObject({})
}

/** What the model reads: the text of the result, or its blocks as JSON when some are not text. */
function resultOf(result: CallToolResult): unknown {
  const blocks = result.content
  const text = blocks.every((block) => block.type === 'text')
    ? blocks.map((block) => block.text).join('\n')
    : undefined
  if (result.isError === true) throw new Error(text ?? JSON.stringify(blocks))
  if (text !== undefined && (text !== '' || result.structuredContent === undefined)) return text
  return result.structuredContent ?? blocks
}
