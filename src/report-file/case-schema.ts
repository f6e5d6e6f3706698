import type { TraceStep } from '../types.ts'
import { z } from 'zod'

/** Token counts, as in `Usage` of src/types.ts. */
export const usageSchema = z.object({
  inputTokens: z.number(),
  outputTokens: z.number(),
  cacheReadTokens: z.number(),
  cacheWriteTokens: z.number(),
})

const turnSchema = z.object({ role: z.enum(['system', 'user', 'assistant']), content: z.string() })

const toolCallRequestSchema = z.object({ id: z.string(), name: z.string(), arguments: z.string() })

const messageSchema = z.discriminatedUnion('role', [
  z.object({ role: z.literal('system'), content: z.string() }),
  z.object({ role: z.literal('user'), content: z.string() }),
  z.object({
    role: z.literal('assistant'),
    content: z.string(),
    toolCalls: z.array(toolCallRequestSchema).optional(),
    agent: z.string().optional(),
  }),
  z.object({
    role: z.literal('tool'),
    toolCallId: z.string(),
    name: z.string(),
    content: z.string(),
    isError: z.boolean().optional(),
  }),
])

const toolCallRecordSchema = z.object({
  id: z.string(),
  name: z.string(),
  args: z.unknown(),
  result: z.unknown().optional(),
  error: z.string().optional(),
  /** absent when the framework does not report it (v4) */
  durationMs: z.number().optional(),
})

const step = { startedAt: z.number(), durationMs: z.number() }

/** One step of the trace, as in `TraceStep` of src/types.ts. */
export const traceStepSchema = z.discriminatedUnion('type', [
  z.object({
    ...step,
    type: z.literal('llm_call'),
    iteration: z.number(),
    providerId: z.string(),
    model: z.string(),
    usage: usageSchema,
    finishReason: z.enum(['stop', 'tool_calls', 'length', 'content_filter', 'other']),
    toolCalls: z.number(),
    costUsd: z.number().nullable().optional(),
    /** the model's reasoning in this reply, when it showed any */
    reasoning: z.string().optional(),
  }),
  z.object({
    ...step,
    type: z.literal('cache_hit'),
    iteration: z.number(),
    providerId: z.string(),
    key: z.string(),
  }),
  z.object({
    ...step,
    type: z.literal('retry'),
    iteration: z.number(),
    providerId: z.string(),
    attempt: z.number(),
    delayMs: z.number(),
    error: z.string(),
  }),
  z.object({ ...step, type: z.literal('fallback'), from: z.string(), to: z.string(), error: z.string() }),
  z.object({
    ...step,
    type: z.literal('tool_call'),
    callId: z.string(),
    name: z.string(),
    args: z.unknown(),
  }),
  z.object({
    ...step,
    type: z.literal('tool_cache_hit'),
    callId: z.string(),
    name: z.string(),
    key: z.string(),
  }),
  z.object({
    ...step,
    type: z.literal('tool_result'),
    callId: z.string(),
    name: z.string(),
    ok: z.boolean(),
    resultChars: z.number().optional(),
    truncatedFrom: z.number().optional(),
    /** older reports kept the result here too; still read */
    result: z.unknown().optional(),
    error: z.string().optional(),
  }),
  z.object({
    ...step,
    type: z.literal('policy'),
    callId: z.string(),
    name: z.string(),
    decision: z.enum(['allow', 'review', 'deny']),
    reason: z.string(),
  }),
  z.object({ ...step, type: z.literal('structured_retry'), attempt: z.number(), error: z.string() }),
  z.object({ ...step, type: z.literal('limit'), limit: z.string(), reason: z.string() }),
  z.object({ ...step, type: z.literal('error'), error: z.string() }),
  z.object({
    ...step,
    type: z.literal('memory_trim'),
    dropped: z.number(),
    kept: z.number(),
    tokens: z.number(),
  }),
  z.object({
    ...step,
    type: z.literal('memory_summary'),
    providerId: z.string(),
    summarized: z.number(),
    summary: z.string(),
    usage: usageSchema,
  }),
  z.object({
    ...step,
    type: z.literal('guardrail'),
    stage: z.enum(['input', 'tool_result', 'output']),
    name: z.string(),
    action: z.enum(['pass', 'block', 'rewrite', 'warn']),
    reason: z.string(),
    tool: z.string().optional(),
  }),
  z.object({
    ...step,
    type: z.literal('approval'),
    callId: z.string(),
    name: z.string(),
    status: z.enum(['pending', 'approved', 'rejected']),
    reason: z.string(),
  }),
  z.object({ ...step, type: z.literal('handoff'), callId: z.string(), from: z.string(), to: z.string() }),
  z.object({
    ...step,
    type: z.literal('agent_run'),
    callId: z.string(),
    agent: z.string(),
    runId: z.string(),
    stopReason: z.string(),
    usage: usageSchema,
    costUsd: z.number().nullable(),
    /** the sub-agent's own steps, checked loosely: one level of the union is enough to read a report */
    steps: z.array(
      z.custom<TraceStep>(
        (value) =>
          typeof value === 'object' &&
          value !== null &&
          typeof (value as { type?: unknown }).type === 'string',
      ),
    ),
  }),
])

/** The normalized record of one target run, as in `Transcript` of src/types.ts. */
export const transcriptSchema = z.object({
  input: z.union([z.string(), z.array(turnSchema)]),
  messages: z.array(messageSchema),
  output: z.string(),
  parsed: z.unknown().optional(),
  /** null when the target did not report them (v4); `[]` when it called none */
  toolCalls: z.array(toolCallRecordSchema).nullable(),
  /** null when the target did not report it (v4) */
  usage: usageSchema.nullable(),
  costUsd: z.number().nullable(),
  latencyMs: z.number(),
  /** null when the target did not report it (v4) */
  iterations: z.number().nullable(),
  stopReason: z
    .enum([
      'final',
      'terminal_tool',
      'max_iterations',
      'usage_limit',
      'tool_failures',
      'invalid_output',
      'truncated',
      'content_filter',
      'aborted',
      'error',
      'interrupted',
      'guardrail',
    ])
    .optional(),
  /** what stopped the agent, for one of its own stops (v4) */
  stopDetail: z.string().optional(),
  /** the agent that answered, after handoffs (v4) */
  agent: z.string().optional(),
  /** `engine`, `adapter:<framework>`, `traces` or `target`; absent before v4 */
  source: z.string().optional(),
  trace: z.array(traceStepSchema).optional(),
  /** the OpenTelemetry spans the case produced, with trace capture on (`CaseSpans` of src/traces/span.ts) */
  spans: z
    .object({
      traceId: z.string(),
      spans: z.array(
        z.object({
          /** the index of the span's parent among the kept spans */
          parent: z.number().optional(),
          name: z.string(),
          startedAt: z.number(),
          durationMs: z.number(),
          status: z.enum(['unset', 'ok', 'error']),
          error: z.string().optional(),
          attributes: z.record(
            z.string(),
            z.union([
              z.string(),
              z.number(),
              z.boolean(),
              z.array(z.union([z.string(), z.number(), z.boolean(), z.null()])),
            ]),
          ),
        }),
      ),
      /** spans captured in all; `spans` keeps the first 500 */
      total: z.number(),
      omitted: z.number(),
      errors: z.number(),
      maxDurationMs: z.number().nullable(),
    })
    .optional(),
  error: z.string().optional(),
})

/** A verdict with its evaluator. `details` is open: LLM judges put judgeModel, specHash, reasons, costUsd there. */
export const verdictSchema = z.object({
  evaluator: z.string(),
  weight: z.number(),
  pass: z.boolean(),
  score: z.number().optional(),
  reason: z.string(),
  /** the evaluator did not apply (e.g. a judge without a key); not counted as pass or fail */
  skipped: z.boolean().optional(),
  details: z.record(z.string(), z.unknown()).optional(),
  /** the conversation turn (1-based) whose reply it checked; absent for a check of the whole case */
  turn: z.number().int().positive().optional(),
})

/** One turn of a conversation case, as in `ConversationTurn` of src/model/case-result.ts. */
const conversationTurnSchema = z.object({
  user: z.string(),
  output: z.string(),
  /** null when the target does not report its tool calls (v4) */
  tools: z.array(z.string()).nullable(),
  latencyMs: z.number(),
})

const serializedErrorSchema = z.object({
  name: z.string(),
  message: z.string(),
  code: z.string().optional(),
  stack: z.string().optional(),
})

const base = {
  suite: z.string(),
  /** the variant the pair ran under, when its suite has variants (v3) */
  variant: z.string().optional(),
  caseId: z.string(),
  trial: z.number().int().nonnegative(),
  tags: z.array(z.string()),
  weight: z.number(),
  durationMs: z.number(),
  /** the case is a known failure (`expect_fail:`): `true` or its reason */
  expectFail: z.union([z.literal(true), z.string()]).optional(),
}

/** One (case, trial) result, as in `CaseResult` of src/model/case-result.ts: a union on `status`. */
export const caseResultSchema = z.discriminatedUnion('status', [
  z.object({
    ...base,
    status: z.enum(['passed', 'failed']),
    /** a pass of which some checks were skipped (a judge with no model); the skipped verdicts say which (v2) */
    partial: z.literal(true).optional(),
    score: z.number(),
    verdicts: z.array(verdictSchema),
    transcript: transcriptSchema,
    turns: z.array(conversationTurnSchema).optional(),
    snapshot: z
      .object({
        status: z.enum(['new', 'unchanged', 'changed', 'updated']),
        file: z.string(),
        diff: z.string().optional(),
      })
      .optional(),
  }),
  z.object({
    ...base,
    status: z.literal('errored'),
    error: serializedErrorSchema,
    verdicts: z.array(verdictSchema),
    transcript: transcriptSchema.optional(),
    turns: z.array(conversationTurnSchema).optional(),
  }),
  z.object({ ...base, status: z.literal('skipped'), reason: z.string() }),
])
