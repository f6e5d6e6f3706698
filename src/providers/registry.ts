import { ConfigError } from '../errors.ts'
import { didYouMean } from '../util/did-you-mean.ts'
import { LocalProvider } from './local.ts'
import { createProviderFromModelString, modelPrefixes } from './models.ts'
import type { Provider } from './provider.ts'

/** Makes a provider from the part of a model string after `prefix:` (empty for a bare `local`). */
export type ProviderFactory = (model: string) => Provider

const factories = new Map<string, ProviderFactory>([
  ['local', () => new LocalProvider()],
  ...modelPrefixes.map((prefix): [string, ProviderFactory] => [
    prefix,
    (model) => createProviderFromModelString(`${prefix}:${model}`),
  ]),
])

/** Adds a `prefix:` to model strings, e.g. `registerProvider('acme', (model) => new AcmeProvider(model))`. */
export function registerProvider(prefix: string, factory: ProviderFactory): void {
  factories.set(prefix, factory)
}

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
