import type { z } from 'zod'

export type StructuredCheck<Output> = { ok: true; value: Output } | { ok: false; error: string }

/** Finds the JSON value in a reply (bare, in a code fence, or inside prose) and validates it against the schema. */
export function parseStructuredOutput<Output>(
  text: string,
  schema: z.ZodType<Output>,
): StructuredCheck<Output> {
  const json = extractJson(text)
  if (json === undefined) {
    return {
      ok: false,
      error: 'The reply contained no JSON value. Reply with only a JSON object matching the schema.',
    }
  }
  const result = schema.safeParse(json)
  if (result.success) return { ok: true, value: result.data }
  const lines = result.error.issues.map((issue) => {
    const where = issue.path.length > 0 ? issue.path.join('.') : '(root)'
    return `- ${where}: ${issue.message.replace(/^Invalid input: /, '')}`
  })
  return {
    ok: false,
    error: `The JSON did not match the schema:\n${lines.join('\n')}\nReply again with corrected JSON only.`,
  }
}

/** The first parseable JSON object or array in the text, trying fenced blocks first. */
export function extractJson(text: string): unknown {
  const candidates: string[] = [text.trim()]
  for (const match of text.matchAll(/```(?:json|JSON)?\s*\n?([\s\S]*?)```/g)) {
    if (match[1] !== undefined) candidates.push(match[1].trim())
  }
  for (const candidate of candidates) {
    const parsed = tryParse(candidate)
    if (parsed !== undefined) return parsed
  }
  for (let start = 0; start < text.length; start++) {
    const open = text[start]
    if (open !== '{' && open !== '[') continue
    const end = matchingBracket(text, start)
    if (end === -1) continue
    const parsed = tryParse(text.slice(start, end + 1))
    if (parsed !== undefined) return parsed
  }
  return undefined
}

function tryParse(text: string): unknown {
  if (text === '') return undefined
  try {
    return JSON.parse(text) as unknown
  } catch {
    return undefined
  }
}

function matchingBracket(text: string, start: number): number {
  let depth = 0
  let inString = false
  for (let i = start; i < text.length; i++) {
    const char = text[i]
    if (inString) {
      if (char === '\\') i++
      else if (char === '"') inString = false
    } else if (char === '"') inString = true
    else if (char === '{' || char === '[') depth++
    else if (char === '}' || char === ']') {
      depth--
      if (depth === 0) return i
    }
  }
  return -1
}
