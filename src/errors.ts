import type { RateLimitReading } from './types.ts'

/**
 * Errors are for misuse and for infrastructure that cannot go on; a failing case is a result, not an exception.
 * Each subclass names who must act: the user (ConfigError, CaseFileError), the network or API (ProviderError,
 * TimeoutError), or us (InternalError).
 */
const EVALS_ERROR = Symbol.for('evals.error')

export abstract class EvalsError extends Error {
  /** stable, machine-readable code, e.g. `EVALS_CONFIG` */
  abstract readonly code: `EVALS_${string}`
  constructor(message: string, options?: ErrorOptions) {
    super(message, options)
    this.name = new.target.name
    Object.defineProperty(this, EVALS_ERROR, { value: true })
  }

  /**
   * `instanceof EvalsError` holds for the errors of every copy of this package: a user's agent module imports
   * `evals` from node_modules while the CLI runs its own bundle, and a missing API key thrown there is still ours.
   * Subclasses keep the ordinary prototype check.
   */
  static override [Symbol.hasInstance](value: unknown): boolean {
    if (this !== EvalsError) return Function.prototype[Symbol.hasInstance].call(this, value)
    return typeof value === 'object' && value !== null && EVALS_ERROR in value
  }
}

/** The user's configuration or code is wrong: a bad option, a bad tool definition, a missing API key. */
export class ConfigError extends EvalsError {
  readonly code = 'EVALS_CONFIG'
}

/** One problem found in a case file, located by dotted path and (when known) file:line:column. */
export interface CaseFileIssue {
  file: string
  path: string
  message: string
  line?: number
  column?: number
}

/** A case file failed validation; `issues` lists every problem at once. */
export class CaseFileError extends EvalsError {
  readonly code = 'EVALS_CASE_FILE'
  readonly issues: readonly CaseFileIssue[]
  constructor(issues: readonly CaseFileIssue[], options?: ErrorOptions) {
    super(issues.map(formatCaseFileIssue).join('\n'), options)
    this.issues = issues
  }
}

export function formatCaseFileIssue(issue: CaseFileIssue): string {
  const where = issue.line === undefined ? issue.file : `${issue.file}:${issue.line}:${issue.column ?? 1}`
  return issue.path ? `${where}: ${issue.path}: ${issue.message}` : `${where}: ${issue.message}`
}

export interface ProviderErrorOptions extends ErrorOptions {
  /** provider id, e.g. `openai:gpt-4.1-mini` */
  providerId: string
  /** HTTP status when the API answered; undefined for connection errors and timeouts */
  status?: number
  /** whether trying the same request again may succeed (429, 5xx, 529, timeouts, connection errors) */
  retryable: boolean
  /** server-requested delay before the next attempt, from `retry-after-ms` / `retry-after` */
  retryAfterMs?: number
  /** what the reply's rate-limit headers said, for the rate limiter */
  rateLimit?: RateLimitReading
}

/** A model API failed. Messages never contain API keys. */
export class ProviderError extends EvalsError {
  readonly code = 'EVALS_PROVIDER'
  readonly providerId: string
  readonly status: number | undefined
  readonly retryable: boolean
  readonly retryAfterMs: number | undefined
  readonly rateLimit: RateLimitReading | undefined
  constructor(message: string, options: ProviderErrorOptions) {
    super(message, options)
    this.providerId = options.providerId
    this.status = options.status
    this.retryable = options.retryable
    this.retryAfterMs = options.retryAfterMs
    this.rateLimit = options.rateLimit
  }
}

/** Something took longer than its limit. */
export class TimeoutError extends EvalsError {
  readonly code = 'EVALS_TIMEOUT'
  readonly timeoutMs: number
  constructor(message: string, timeoutMs: number, options?: ErrorOptions) {
    super(message, options)
    this.timeoutMs = timeoutMs
  }
}

/**
 * A check needs a field the target did not report (tool calls, iterations, usage, cost): the case is `errored`, not
 * graded on a made-up value, and the message says how to report it.
 */
export class NotReportedError extends EvalsError {
  readonly code = 'EVALS_NOT_REPORTED'
}

/** The run was aborted through its AbortSignal. */
export class AbortError extends EvalsError {
  readonly code = 'EVALS_ABORTED'
}

/** A bug in evals itself. */
export class InternalError extends EvalsError {
  readonly code = 'EVALS_INTERNAL'
  constructor(message: string, options?: ErrorOptions) {
    super(`${message} (this is a bug in evals: please report it with the stack trace)`, options)
  }
}

/** Turns anything thrown by foreign code into an Error. */
export function toError(value: unknown): Error {
  if (value instanceof Error) return value
  if (typeof value === 'string') return new Error(value)
  try {
    return new Error(JSON.stringify(value))
  } catch {
    return new Error(String(value))
  }
}
