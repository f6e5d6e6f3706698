import type { Transcript } from '../../../src/types.ts'

/** What a transcript may leave unknown (null), and so what a check may need reported. */
export type Reportable = 'toolCalls' | 'iterations' | 'usage' | 'costUsd' | 'agent' | 'trace' | 'spans'

/** An agent's refund, every field known: what every check is run on. */
export const full: Transcript = {
  input: 'Please refund 25 for order o-7',
  messages: [
    { role: 'user', content: 'Please refund 25 for order o-7' },
    {
      role: 'assistant',
      content: '',
      toolCalls: [{ id: 'c1', name: 'refund_payment', arguments: '{"order_id":"o-7","amount":25}' }],
    },
    { role: 'tool', toolCallId: 'c1', name: 'refund_payment', content: 'Refunded $25.00 for order o-7' },
    { role: 'assistant', content: 'Refunded $25.00 for order o-7', agent: 'support' },
  ],
  output: 'Refunded $25.00 for order o-7',
  toolCalls: [
    {
      id: 'c1',
      name: 'refund_payment',
      args: { order_id: 'o-7', amount: 25 },
      result: 'Refunded $25.00 for order o-7',
      durationMs: 3,
    },
  ],
  usage: { inputTokens: 120, outputTokens: 30, cacheReadTokens: 0, cacheWriteTokens: 0 },
  costUsd: 0.0012,
  latencyMs: 840,
  iterations: 2,
  stopReason: 'final',
  agent: 'support',
  trace: [],
  spans: {
    traceId: '0af7651916cd43dd8448eb211c80319c',
    spans: [
      {
        name: 'invoke_agent support',
        startedAt: 1_700_000_000_000,
        durationMs: 820,
        status: 'unset',
        attributes: {},
      },
      {
        name: 'execute_tool refund_payment',
        parent: 0,
        startedAt: 1_700_000_000_300,
        durationMs: 3,
        status: 'unset',
        attributes: {},
      },
    ],
    total: 2,
    omitted: 0,
    errors: 0,
    maxDurationMs: 820,
  },
  source: 'adapter:contract',
}

/**
 * One `expect:` value per registered check, and the fields it cannot be graded without. The contract test fails
 * when a check is registered without a line here, so every new check joins the contract.
 */
export const SAMPLES: Record<string, { value: unknown; needs?: Reportable[] }> = {
  tool: { value: 'refund_payment', needs: ['toolCalls'] },
  tools: { value: ['refund_payment'], needs: ['toolCalls'] },
  tool_args: { value: { refund_payment: { order_id: 'o-7' } }, needs: ['toolCalls'] },
  tool_order: { value: ['refund_payment'], needs: ['toolCalls'] },
  trajectory: { value: ['refund_payment'], needs: ['toolCalls'] },
  contains: { value: 'Refunded' },
  not_contains: { value: 'sorry' },
  output: { value: 'Refunded $25.00 for order o-7' },
  output_regex: { value: 'o-\\d' },
  json: { value: true },
  parsed: { value: { order_id: 'o-7' } },
  json_schema: { value: { type: 'object' } },
  starts_with: { value: 'Refunded' },
  ends_with: { value: 'o-7' },
  min_length: { value: 5 },
  max_length: { value: 100 },
  latency_ms_lte: { value: 1000 },
  cost_usd_lte: { value: 0.01, needs: ['costUsd'] },
  iterations_lte: { value: 3, needs: ['iterations'] },
  no_pii: { value: true },
  no_injection: { value: true },
  custom: { value: './checks.ts#namesTheOrder' },
  equals: { value: 'Refunded $25.00 for order o-7' },
  icontains: { value: 'refunded' },
  contains_any: { value: ['sorry', 'Refunded'] },
  contains_all: { value: ['Refunded', 'o-7'] },
  levenshtein: { value: 'Refunded $25 for order o-7' },
  rouge_n: { value: 'Refunded 25 dollars for order o-7' },
  bleu: { value: 'Refunded $25.00 for the order o-7' },
  is_refusal: { value: false },
  javascript: { value: 'output.includes("o-7")' },
  is_valid_tool_call: {
    value: { refund_payment: { type: 'object', required: ['order_id', 'amount'] } },
    needs: ['toolCalls'],
  },
  stop_reason: { value: 'final' },
  similar: { value: { value: 'Refunded the payment for order o-7', threshold: 0.1, model: 'local' } },
  // the last assistant message names its agent too: the transcript's `agent` alone is not needed
  answered_by: { value: 'support' },
  guardrail_tripped: { value: false, needs: ['trace'] },
  interrupted: { value: false, needs: ['trace'] },
  span_count: { value: { name: 'execute_tool *', min: 1 }, needs: ['spans'] },
  error_spans_lte: { value: 0, needs: ['spans'] },
  span_duration_lte: { value: 1000, needs: ['spans'] },
}
