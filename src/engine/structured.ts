import type { z } from 'zod'

export type StructuredCheck<Output> = { ok: true; value: Output } | { ok: false; error: string }

/**
 * Validates a final reply against the output schema (async refinements included). A `plainText` schema (one whose
 * input is a string, such as `z.string()`) takes the reply as it is; any other finds the JSON value in the reply
 * (bare, in a code fence, or inside prose).
 */
export async function parseStructuredOutput<Output>(
  text: string,
  schema: z.ZodType<Output>,
  plainText = false,
): Promise<StructuredCheck<Output>> {
  const json = plainText ? text : extractJson(text)
  if (json === undefined) {
    return {
      ok: false,
      error: 'The reply contained no JSON value. Reply with only a JSON object matching the schema.',
    }
  }
  const result = await schema.safeParseAsync(json)
  if (result.success) return { ok: true, value: result.data }
  const lines = result.error.issues.map((issue) => `- ${issueLine(issue)}`)
  const what = plainText ? 'The reply did not match the expected output' : 'The JSON did not match the schema'
  const next = plainText ? 'Reply again with a corrected answer.' : 'Reply again with corrected JSON only.'
  return { ok: false, error: `${what}:\n${lines.join('\n')}\n${next}` }
}

/** One schema issue as the model reads it: `path: message`. */
export function issueLine(issue: z.core.$ZodIssue): string {
  const where = issue.path.length > 0 ? issue.path.join('.') : '(root)'
  return `${where}: ${issue.message.replace(/^Invalid input: /, '')}`
}

/** The first parseable JSON object or array in the text, trying fenced blocks first. */
export function extractJson(text: string): unknown {
  for (const { value } of jsonValuesIn(text)) return value
  return undefined
}

/**
 * Every JSON value the text holds, in the order `extractJson` tries them: the whole text, each fenced block, then
 * each balanced object or array in the prose, left to right (not the values nested in one already found).
 * `source` is the value's text.
 */
export function* jsonValuesIn(text: string): Generator<{ value: unknown; source: string }> {
  const candidates: string[] = [text.trim()]
  for (const match of text.matchAll(/```(?:json|JSON)?\s*\n?([\s\S]*?)```/g)) {
    if (match[1] !== undefined) candidates.push(match[1].trim())
  }
  // the same text found twice (the whole reply, then as prose) is one value
  const seen = new Set<string>()
  for (const candidate of candidates) {
    const parsed = tryParse(candidate)
    if (parsed === undefined || seen.has(candidate)) continue
    seen.add(candidate)
    yield { value: parsed, source: candidate }
  }
  for (let start = 0; start < text.length; start++) {
    const open = text[start]
    if (open !== '{' && open !== '[') continue
    const end = matchingBracket(text, start)
    if (end === -1) continue
    const source = text.slice(start, end + 1)
    const parsed = tryParse(source)
    if (parsed === undefined) continue
    start = end
    if (seen.has(source)) continue
    seen.add(source)
    yield { value: parsed, source }
  }
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
