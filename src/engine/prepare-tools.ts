import { ConfigError } from '../errors.ts'
import type { ToolSchema } from '../providers/provider.ts'
import type { AnyTool } from '../tools/tool.ts'
import type { RunContext } from '../types.ts'

/** The agent-level hook with its deps type erased, as the loop holds it. */
export type ErasedPrepareTools = (
  context: RunContext,
  tools: readonly ToolSchema[],
) => readonly ToolSchema[] | Promise<readonly ToolSchema[]>

/** The tools offered at one step: what the model is sent, and which calls the runner accepts. */
export interface OfferedTools {
  schemas: ToolSchema[]
  tools: ReadonlyMap<string, AnyTool>
}

/** Runs each tool's `prepare`, then the agent's `prepareTools`, for the model call about to be made. */
export async function prepareTools(
  tools: ReadonlyMap<string, AnyTool>,
  prepareAll: ErasedPrepareTools | undefined,
  context: RunContext,
): Promise<OfferedTools> {
  const prepared: ToolSchema[] = []
  for (const tool of tools.values()) {
    const schema = tool.prepare ? await tool.prepare(context, tool.schema) : tool.schema
    if (!schema) continue
    if (schema.name !== tool.name) {
      throw new ConfigError(
        `Tool \`${tool.name}\`: \`prepare\` renamed it to \`${schema.name}\`; it may change the description and parameters, not the name.`,
      )
    }
    prepared.push(schema)
  }
  const schemas = prepareAll ? await prepareAll(context, prepared) : prepared
  const offered = new Map<string, AnyTool>()
  for (const schema of schemas) {
    const tool = tools.get(schema.name)
    if (!tool) {
      throw new ConfigError(
        `\`prepareTools\` returned a tool named \`${schema.name}\`, which the agent does not have; it may drop or edit tools, not add them.`,
      )
    }
    offered.set(schema.name, tool)
  }
  return { schemas: [...schemas], tools: offered }
}
