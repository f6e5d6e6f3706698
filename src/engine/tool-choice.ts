import { ConfigError } from '../errors.ts'
import type { ToolChoice, ToolSchema } from '../providers/provider.ts'
import { didYouMean } from '../util/did-you-mean.ts'

/** Throws a ConfigError unless `choice` is a tool choice naming, if any, a tool of `tools`. */
export function checkToolChoice(where: string, choice: unknown, tools: Iterable<string>): void {
  if (choice === undefined || choice === 'auto' || choice === 'none' || choice === 'required') return
  if (typeof choice === 'string') {
    throw new ConfigError(
      `${where}: \`toolChoice\` must be 'auto', 'none', 'required' or { name: '<tool>' }, got '${choice}'. To force a tool, write { name: '${choice}' }.`,
    )
  }
  const name: unknown =
    typeof choice === 'object' && choice !== null ? (choice as { name?: unknown }).name : undefined
  if (typeof name !== 'string') {
    throw new ConfigError(
      `${where}: \`toolChoice\` must be 'auto', 'none', 'required' or { name: '<tool>' }, got ${JSON.stringify(choice)}.`,
    )
  }
  const known = [...tools]
  if (known.includes(name)) return
  const suggestion = didYouMean(name, known)
  throw new ConfigError(
    `${where}: \`toolChoice\` names the tool \`${name}\`, which the agent does not have.${suggestion ? ` Did you mean \`${suggestion}\`?` : ''} Its tools: ${known.map((tool) => `\`${tool}\``).join(', ') || 'none'}.`,
  )
}

/**
 * The tool choice of one model call: none when the caller gave none; `required` and a named tool only until the
 * model has called a tool in the run when `reset` is on, and a named tool only in steps that offer it.
 */
export function toolChoiceOfStep(
  choice: ToolChoice | undefined,
  offered: readonly ToolSchema[],
  calledTool: boolean,
  reset: boolean,
): ToolChoice | undefined {
  if (choice === undefined || offered.length === 0) return undefined
  if (choice === 'auto' || choice === 'none') return choice
  if (reset && calledTool) return undefined
  if (choice === 'required') return choice
  return offered.some((tool) => tool.name === choice.name) ? choice : undefined
}
