import { ConfigError } from '../errors.ts'
import { AnthropicProvider } from './anthropic.ts'
import { replayOnlyKey, whyReplayNeedsKey } from './keyless.ts'
import { OpenAiProvider } from './openai.ts'
import { OpenAiResponsesProvider } from './openai-responses.ts'
import type { Provider } from './provider.ts'

/** The model-string prefixes this module turns into providers. */
export const modelPrefixes = [
  'openai',
  'openai-responses',
  'anthropic',
  'ollama',
  'vllm',
  'openai-compatible',
] as const

export type ModelPrefix = (typeof modelPrefixes)[number]

/** Where keys and base URLs come from when a model string is resolved. */
export interface ModelStringOptions {
  /** read for API keys and base URLs @default process.env */
  env?: Record<string, string | undefined>
  /** base URL per prefix; wins over the environment */
  baseURLs?: Partial<Record<ModelPrefix, string>>
  /** API key per prefix; wins over the environment */
  apiKeys?: Partial<Record<ModelPrefix, string>>
  /** per-request timeout of the SDK @default 600_000 */
  timeoutMs?: number
}

interface PrefixConfig {
  keyVar: string
  /** key sent when the variable is unset; undefined means the key is required */
  defaultKey?: string
  baseURLVar: string
  /** undefined means the SDK default (OpenAI, Anthropic) or, for `openai-compatible`, required */
  defaultBaseURL?: string
  /** add `/v1` to a base URL given without a path */
  appendV1: boolean
  apiName: string
}

const configs: Record<ModelPrefix, PrefixConfig> = {
  openai: { keyVar: 'OPENAI_API_KEY', baseURLVar: 'OPENAI_BASE_URL', appendV1: false, apiName: 'OpenAI' },
  'openai-responses': {
    keyVar: 'OPENAI_API_KEY',
    baseURLVar: 'OPENAI_BASE_URL',
    appendV1: false,
    apiName: 'OpenAI Responses',
  },
  anthropic: {
    keyVar: 'ANTHROPIC_API_KEY',
    baseURLVar: 'ANTHROPIC_BASE_URL',
    appendV1: false,
    apiName: 'Anthropic',
  },
  ollama: {
    keyVar: 'OLLAMA_API_KEY',
    defaultKey: 'ollama',
    baseURLVar: 'OLLAMA_BASE_URL',
    defaultBaseURL: 'http://localhost:11434/v1',
    appendV1: true,
    apiName: 'Ollama',
  },
  vllm: {
    keyVar: 'VLLM_API_KEY',
    defaultKey: 'EMPTY',
    baseURLVar: 'VLLM_BASE_URL',
    defaultBaseURL: 'http://localhost:8000/v1',
    appendV1: true,
    apiName: 'vLLM',
  },
  'openai-compatible': {
    keyVar: 'OPENAI_COMPATIBLE_API_KEY',
    defaultKey: 'none',
    baseURLVar: 'OPENAI_COMPATIBLE_BASE_URL',
    appendV1: false,
    apiName: 'OpenAI-compatible server',
  },
}

/** The environment variable a prefix reads its API key from, e.g. `OPENAI_API_KEY`. */
export function keyVariableOf(prefix: ModelPrefix): string {
  return configs[prefix].keyVar
}

export function isModelPrefix(prefix: string): prefix is ModelPrefix {
  return (modelPrefixes as readonly string[]).includes(prefix)
}

/**
 * Makes a provider from `openai:…` (Chat Completions), `openai-responses:…` (the Responses API), `anthropic:…`,
 * `ollama:…`, `vllm:…` or `openai-compatible:…`; the provider id
 * is the model string itself. Throws `ConfigError` naming the variable to set when a key or base URL is missing.
 */
export function createProviderFromModelString(model: string, options: ModelStringOptions = {}): Provider {
  const resolved = resolveModelString(model, options)
  const common = {
    id: model,
    model: resolved.name,
    apiKey: resolved.apiKey,
    ...(resolved.baseURL === undefined ? {} : { baseURL: resolved.baseURL }),
    ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
  }
  if (resolved.prefix === 'anthropic') return new AnthropicProvider(common)
  if (resolved.prefix === 'openai-responses') return new OpenAiResponsesProvider(common)
  return new OpenAiProvider({ ...common, apiName: configs[resolved.prefix].apiName })
}

/**
 * Checks a model string's key and base URL without touching the network, so a run can fail before any case runs.
 * Throws the same `ConfigError` that `createProviderFromModelString` would.
 */
export function checkModelCredentials(model: string, options: ModelStringOptions = {}): void {
  resolveModelString(model, options)
}

interface ResolvedModelString {
  prefix: ModelPrefix
  name: string
  apiKey: string
  baseURL: string | undefined
}

function resolveModelString(model: string, options: ModelStringOptions): ResolvedModelString {
  const env = options.env ?? process.env
  const colon = model.indexOf(':')
  const prefix = colon === -1 ? model : model.slice(0, colon)
  if (!isModelPrefix(prefix)) {
    throw new ConfigError(
      `Unknown model \`${model}\`: expected one of ${modelPrefixes.map((p) => `\`${p}:…\``).join(', ')}.`,
    )
  }
  const name = colon === -1 ? '' : model.slice(colon + 1).trim()
  if (!name) throw new ConfigError(`Model string \`${model}\` names no model: write \`${prefix}:<model>\`.`)
  const config = configs[prefix]
  const apiKey =
    options.apiKeys?.[prefix] ?? nonEmpty(env[config.keyVar]) ?? config.defaultKey ?? replayOnlyKey(model)
  if (apiKey === undefined) {
    const replay = whyReplayNeedsKey(model)
    throw new ConfigError(
      `No API key for \`${model}\`: set the ${config.keyVar} environment variable.${replay === undefined ? '' : ` ${replay}`}`,
    )
  }
  const baseURL = options.baseURLs?.[prefix] ?? nonEmpty(env[config.baseURLVar]) ?? config.defaultBaseURL
  if (baseURL === undefined && prefix === 'openai-compatible') {
    throw new ConfigError(
      `No base URL for \`${model}\`: set the ${config.baseURLVar} environment variable (e.g. http://localhost:8080/v1).`,
    )
  }
  return {
    prefix,
    name,
    apiKey,
    baseURL: baseURL === undefined ? undefined : checkURL(baseURL, config, model),
  }
}

function checkURL(value: string, config: PrefixConfig, model: string): string {
  let url: URL
  try {
    url = new URL(value)
  } catch {
    throw new ConfigError(`Invalid base URL "${value}" for \`${model}\`: check ${config.baseURLVar}.`)
  }
  if (config.appendV1 && (url.pathname === '/' || url.pathname === '')) url.pathname = '/v1'
  return url.toString().replace(/\/$/, '')
}

function nonEmpty(value: string | undefined): string | undefined {
  return value?.trim() ? value.trim() : undefined
}
