import { ConfigError } from '../errors.ts'
import type { InputPart, Message } from '../types.ts'
import type { AgentInput } from './agent-run.ts'

/** The messages of a run's input. Throws a ConfigError naming the turn or part that is not well formed. */
export function inputMessages(input: AgentInput): Message[] {
  if (typeof input === 'string') return [{ role: 'user', content: input }]
  if (!Array.isArray(input))
    throw new ConfigError(`Run input: expected a string or a list, got ${typeof input}.`)
  const items = input as readonly unknown[]
  if (items.length > 0 && items.every(isPartLike)) return [userMessage(checkParts(items, 'Run input'))]
  return items.map((item, index): Message => {
    const where = `Run input: turn ${index + 1}`
    if (typeof item !== 'object' || item === null || !('role' in item)) {
      throw new ConfigError(
        `${where} must be { role, content } or a content part, got ${JSON.stringify(item)}.`,
      )
    }
    const { role, content } = item as { role: unknown; content: unknown }
    if (role !== 'user' && role !== 'assistant' && role !== 'system') {
      throw new ConfigError(
        `${where}: \`role\` must be user, assistant or system, got ${JSON.stringify(role)}.`,
      )
    }
    if (typeof content === 'string') return { role, content }
    if (role === 'user' && Array.isArray(content)) return userMessage(checkParts(content, where))
    throw new ConfigError(
      `${where}: \`content\` must be a string${role === 'user' ? ' or a list of content parts' : ''}.`,
    )
  })
}

function userMessage(parts: InputPart[]): Message {
  const text = parts.flatMap((part) => (part.type === 'text' ? [part.text] : [])).join('\n')
  return { role: 'user', content: text, parts }
}

function isPartLike(item: unknown): boolean {
  return typeof item === 'object' && item !== null && 'type' in item && !('role' in item)
}

function checkParts(parts: readonly unknown[], where: string): InputPart[] {
  return parts.map((part, index) => {
    const problem = partProblem(part)
    if (problem !== undefined) throw new ConfigError(`${where}, part ${index + 1}: ${problem}`)
    return part as InputPart
  })
}

function partProblem(part: unknown): string | undefined {
  const fields = (typeof part === 'object' && part !== null ? part : {}) as Record<string, unknown>
  switch (fields.type) {
    case 'text':
      return typeof fields.text === 'string' ? undefined : '`text` must be a string.'
    case 'image':
      if (typeof fields.image !== 'string')
        return '`image` must be an https: or data: URL, or base64 with a `mediaType`.'
      return optionalString(fields.mediaType, 'mediaType')
    case 'file':
      if (typeof fields.data !== 'string') return '`data` must be an https: or data: URL, or base64.'
      if (typeof fields.mediaType !== 'string')
        return '`mediaType` is required for a file, e.g. `application/pdf`.'
      return optionalString(fields.filename, 'filename')
    default:
      return `\`type\` must be text, image or file, got ${JSON.stringify(fields.type)}.`
  }
}

function optionalString(value: unknown, name: string): string | undefined {
  return value === undefined || typeof value === 'string' ? undefined : `\`${name}\` must be a string.`
}
