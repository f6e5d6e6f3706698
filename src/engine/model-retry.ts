import { EvalsError } from '../errors.ts'

/**
 * Thrown by a tool or an output validator to send `message` back to the model and let it try again. From a tool
 * it counts against the tool's retry budget (`maxRetries` / `toolRetries`); from an output validator against the
 * agent's `outputRetries`.
 */
export class ModelRetry extends EvalsError {
  readonly code = 'EVALS_MODEL_RETRY'
}
