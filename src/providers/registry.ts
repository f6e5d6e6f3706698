import { ConfigError } from '../errors.ts'
import { aiSdkPrefixes, createAiSdkModelProvider, genericAiSdkPrefix } from './ai-sdk-packages.ts'
import { didYouMean } from '../util/did-you-mean.ts'
import { declareKeyVariables } from '../util/redact.ts'
import { LocalProvider } from './local.ts'
import { createProviderFromModelString, keyVariableOf, modelPrefixes } from './models.ts'
import type { Provider } from './provider.ts'

/** Makes a provider from the part of a model string after `prefix:` (empty for a bare `local`). */
export type ProviderFactory = (model: string) => Provider

/** What a provider family declares besides its factory. */
export interface RegisterProviderOptions {
  /** environment variables holding its API keys: their values are redacted from every file and log the run writes */
  keyVariables?: readonly string[]
}

const factories = new Map<string, ProviderFactory>([['local', () => new LocalProvider()]])

/**
 * Adds a `prefix:` to model strings, e.g.
 * `registerProvider('acme', (model) => new AcmeProvider(model), { keyVariables: ['ACME_KEY'] })`.
 */
export function registerProvider(
  prefix: string,
  factory: ProviderFactory,
  options: RegisterProviderOptions = {},
): void {
  factories.set(prefix, factory)
  declareKeyVariables(options.keyVariables ?? [])
}

for (const prefix of modelPrefixes) {
  registerProvider(prefix, (model) => createProviderFromModelString(`${prefix}:${model}`), {
    keyVariables: [keyVariableOf(prefix)],
  })
}

// provider packages of the AI SDK, optional peers: checked when a model string names them, loaded on its first call
for (const [prefix, bridged] of Object.entries(aiSdkPrefixes)) {
  registerProvider(prefix, (model) => createAiSdkModelProvider(`${prefix}:${model}`), {
    keyVariables: bridged.secretVars,
  })
}
registerProvider(genericAiSdkPrefix, (model) => createAiSdkModelProvider(`${genericAiSdkPrefix}:${model}`))

/** Whether the prefix of `model` has a factory: a built-in one, or one registered so far. */
export function knowsModel(model: string): boolean {
  const colon = model.indexOf(':')
  return factories.has(colon === -1 ? model : model.slice(0, colon))
}

/** Turns a model string (`local`, `openai:gpt-4.1-mini`, …) into a Provider; a Provider passes through. */
export function resolveModel(model: string | Provider): Provider {
  if (typeof model !== 'string') return model
  const colon = model.indexOf(':')
  const prefix = colon === -1 ? model : model.slice(0, colon)
  const factory = factories.get(prefix)
  if (!factory) {
    const suggestion = didYouMean(prefix, factories.keys())
    const hint = suggestion ? ` Did you mean \`${suggestion}\`?` : ''
    throw new ConfigError(
      `Unknown model \`${model}\`.${hint} Use \`provider:model\` with one of: ${[...factories.keys()].join(', ')}; or registerProvider() your own.`,
    )
  }
  return factory(colon === -1 ? '' : model.slice(colon + 1))
}
