import { envRedactor, type Redactor } from '../util/redact.ts'
import type { Observer } from './observer.ts'

export interface JsonLinesLoggerOptions {
  /** where each line goes @default process.stderr.write */
  write?: (line: string) => void
  /** what each event's values go through @default the environment's secrets (`envRedactor`) */
  redactor?: Redactor
}

/**
 * An observer that writes one JSON object per event: `{ event, time, runId, … }`, secrets redacted. Requests are
 * summarized.
 */
export function jsonLinesLogger(options: JsonLinesLoggerOptions = {}): Observer {
  const write = options.write ?? ((line: string) => process.stderr.write(line))
  const redactor = options.redactor ?? envRedactor()
  const log = (event: string, fields: Record<string, unknown>): void => {
    write(`${JSON.stringify(redactor.value({ event, time: new Date().toISOString(), ...fields }))}\n`)
  }
  return {
    onRunStart: ({ runId, agent }) => {
      log('run_start', { runId, agent })
    },
    onLlmStart: ({ runId, iteration, providerId, request }) => {
      log('llm_start', { runId, iteration, providerId, messages: request.messages.length })
    },
    onLlmEnd: ({ runId, iteration, providerId, completion, durationMs, cached }) => {
      log('llm_end', {
        runId,
        iteration,
        providerId,
        model: completion.model,
        usage: completion.usage,
        toolCalls: completion.message.toolCalls.length,
        durationMs,
        cached,
      })
    },
    onRetry: ({ runId, attempt, delayMs, error }) => {
      log('retry', { runId, attempt, delayMs, error: error.message })
    },
    onFallback: ({ runId, from, to, error }) => {
      log('fallback', { runId, from, to, error: error.message })
    },
    onToolStart: ({ runId, callId, name, args }) => {
      log('tool_start', { runId, callId, name, args })
    },
    onToolEnd: ({ runId, callId, call }) => {
      log('tool_end', { runId, callId, name: call.name, durationMs: call.durationMs })
    },
    onToolError: ({ runId, callId, call }) => {
      log('tool_error', { runId, callId, name: call.name, error: call.error })
    },
    onPolicyDecision: ({ runId, callId, name, decision, reason }) => {
      log('policy', { runId, callId, name, decision, reason })
    },
    onRunEnd: ({ runId, result }) => {
      log('run_end', {
        runId,
        stopReason: result.stopReason,
        iterations: result.iterations,
        usage: result.usage,
        costUsd: result.costUsd,
        durationMs: result.durationMs,
      })
    },
  }
}
