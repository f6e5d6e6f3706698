import { z } from 'zod'

/** the cassette format this version writes and reads */
export const CASSETTE_VERSION = 1

const base = {
  key: z.string().min(1),
  suite: z.string(),
  caseId: z.string(),
  trial: z.number().int().nonnegative(),
  seq: z.number().int().nonnegative(),
  recordedAt: z.string(),
}

const toolCall = z.looseObject({ id: z.string(), name: z.string() })

const modelEntry = z.looseObject({
  ...base,
  kind: z.literal('model'),
  providerId: z.string().min(1),
  request: z.unknown(),
  completion: z.looseObject({
    message: z.looseObject({ text: z.string(), toolCalls: z.array(toolCall) }),
    usage: z.looseObject({ inputTokens: z.number(), outputTokens: z.number() }),
    finishReason: z.string(),
    model: z.string(),
  }),
})

const toolEntry = z.looseObject({
  ...base,
  kind: z.literal('tool'),
  tool: z.string().min(1),
  args: z.unknown(),
  outcome: z.union([
    z.looseObject({ ok: z.literal(true), result: z.unknown() }),
    z.looseObject({ ok: z.literal(false), error: z.string() }),
  ]),
})

// an exchange recorded under an SDK the engine does not own (fetch or node:http in the target's process, or the
// loopback proxy of a command target): the canonical request, and the reply whole or as its stream's events
const httpEntry = z.looseObject({
  ...base,
  kind: z.literal('http'),
  request: z.looseObject({ method: z.string(), host: z.string(), path: z.string(), body: z.unknown() }),
  response: z.looseObject({
    status: z.number().int(),
    headers: z.record(z.string(), z.string()),
    body: z.unknown().optional(),
    chunks: z.array(z.string()).optional(),
  }),
})

const entry = z.discriminatedUnion('kind', [modelEntry, toolEntry, httpEntry])

/** A cassette line read: the entry's fields, or what is wrong with the line, in words for the user. */
export type ReadLine = { ok: true; entry: unknown } | { ok: false; problem: string }

/**
 * Reads one line of a cassette. What is wrong is said in the user's terms: not JSON (a torn write), another
 * format version (written by another release), or the first field that does not fit.
 */
export function readCassetteLine(line: string): ReadLine {
  let value: unknown
  try {
    value = JSON.parse(line)
  } catch {
    return { ok: false, problem: 'is not JSON (a write cut short, or an edit)' }
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    return { ok: false, problem: 'is not a cassette entry (a JSON object on one line)' }
  const { v } = value as { v?: unknown }
  if (v !== CASSETTE_VERSION) {
    return {
      ok: false,
      problem:
        v === undefined
          ? 'has no format version `v`'
          : `is a version ${JSON.stringify(v)} entry; this release of agent-evals reads version ${String(CASSETTE_VERSION)}`,
    }
  }
  const parsed = entry.safeParse(value)
  if (parsed.success) return { ok: true, entry: parsed.data }
  const issue = parsed.error.issues[0]
  const where = issue?.path.length ? `\`${issue.path.join('.')}\`` : 'the entry'
  return { ok: false, problem: `is not a cassette entry: ${where}: ${issue?.message ?? 'invalid'}` }
}
