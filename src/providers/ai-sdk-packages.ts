import { createRequire } from 'node:module'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { ConfigError } from '../errors.ts'
import { AiSdkProvider } from './ai-sdk.ts'
import type { AiSdkLanguageModel } from './ai-sdk-model.ts'
import { replayOnlyKey, whyReplayNeedsKey } from './keyless.ts'

/** An AI SDK provider package behind a model-string prefix. */
interface BridgedPackage {
  package: string
  /** the package's `create…` function, called with `{ apiKey }` when `keyVar` is set */
  create: string
  /** the package's ready-made instance, used when it finds its credentials itself (AWS, Google Cloud) */
  instance: string
  /** the one variable holding its API key; undefined when credentials come from a chain (AWS, Google Cloud) */
  keyVar?: string
  /** every variable holding a secret it reads: redacted from what a run writes */
  secretVars: readonly string[]
}

/** Model-string prefixes served by AI SDK provider packages (optional peers, imported on first use). */
export const aiSdkPrefixes = {
  google: {
    package: '@ai-sdk/google',
    create: 'createGoogleGenerativeAI',
    instance: 'google',
    keyVar: 'GOOGLE_GENERATIVE_AI_API_KEY',
    secretVars: ['GOOGLE_GENERATIVE_AI_API_KEY'],
  },
  vertex: {
    package: '@ai-sdk/google-vertex',
    create: 'createVertex',
    instance: 'vertex',
    secretVars: ['GOOGLE_VERTEX_API_KEY', 'GOOGLE_APPLICATION_CREDENTIALS'],
  },
  bedrock: {
    package: '@ai-sdk/amazon-bedrock',
    create: 'createAmazonBedrock',
    instance: 'bedrock',
    secretVars: ['AWS_SECRET_ACCESS_KEY', 'AWS_SESSION_TOKEN', 'AWS_BEARER_TOKEN_BEDROCK'],
  },
  azure: {
    package: '@ai-sdk/azure',
    create: 'createAzure',
    instance: 'azure',
    keyVar: 'AZURE_API_KEY',
    secretVars: ['AZURE_API_KEY'],
  },
  mistral: {
    package: '@ai-sdk/mistral',
    create: 'createMistral',
    instance: 'mistral',
    keyVar: 'MISTRAL_API_KEY',
    secretVars: ['MISTRAL_API_KEY'],
  },
  groq: {
    package: '@ai-sdk/groq',
    create: 'createGroq',
    instance: 'groq',
    keyVar: 'GROQ_API_KEY',
    secretVars: ['GROQ_API_KEY'],
  },
  xai: {
    package: '@ai-sdk/xai',
    create: 'createXai',
    instance: 'xai',
    keyVar: 'XAI_API_KEY',
    secretVars: ['XAI_API_KEY'],
  },
  openrouter: {
    package: '@openrouter/ai-sdk-provider',
    create: 'createOpenRouter',
    instance: 'openrouter',
    keyVar: 'OPENROUTER_API_KEY',
    secretVars: ['OPENROUTER_API_KEY'],
  },
} as const satisfies Record<string, BridgedPackage>

export type AiSdkPrefix = keyof typeof aiSdkPrefixes

/** The prefix for any other provider package: `aisdk:<package>/<model>`, e.g. `aisdk:@ai-sdk/cohere/command-a`. */
export const genericAiSdkPrefix = 'aisdk'

/** Where `createAiSdkModelProvider` looks for keys and packages. */
export interface AiSdkModelStringOptions {
  /** read for API keys @default process.env */
  env?: Record<string, string | undefined>
  /** folders whose node_modules may hold the package, searched after agent-evals' own @default [process.cwd()] */
  searchFrom?: readonly string[]
}

export function isAiSdkPrefix(prefix: string): prefix is AiSdkPrefix {
  return Object.hasOwn(aiSdkPrefixes, prefix)
}

/**
 * Makes a provider from `google:…`, `vertex:…`, `bedrock:…`, `azure:…` (a deployment), `mistral:…`, `groq:…`,
 * `xai:…`, `openrouter:…` or `aisdk:<package>/<model>`. Checks, without loading it, that the package is installed
 * and that its key is set; the package loads on the first call. Throws `ConfigError` saying what to install or set.
 */
export function createAiSdkModelProvider(
  modelString: string,
  options: AiSdkModelStringOptions = {},
): AiSdkProvider {
  const colon = modelString.indexOf(':')
  const prefix = modelString.slice(0, colon === -1 ? undefined : colon)
  const rest = colon === -1 ? '' : modelString.slice(colon + 1).trim()
  const searchFrom = options.searchFrom ?? [process.cwd()]
  if (prefix === genericAiSdkPrefix) return genericProvider(modelString, rest, searchFrom)
  if (!isAiSdkPrefix(prefix)) {
    throw new ConfigError(`\`${modelString}\` is not a model string of an AI SDK provider package.`)
  }
  const bridged: BridgedPackage = aiSdkPrefixes[prefix]
  if (!rest)
    throw new ConfigError(`Model string \`${modelString}\` names no model: write \`${prefix}:<model>\`.`)
  const location = locatePackage(bridged.package, searchFrom, modelString)
  const apiKey = bridged.keyVar === undefined ? undefined : keyFor(modelString, bridged.keyVar, options.env)
  return new AiSdkProvider({
    id: modelString,
    model: async () => {
      const module = await importPackage(location)
      const make =
        apiKey === undefined
          ? module[bridged.instance]
          : callExport(module, bridged.create, bridged, { apiKey })
      return modelFrom(make, rest, bridged.package, modelString)
    },
    ...(apiKey === undefined ? {} : { secrets: [apiKey] }),
  })
}

function genericProvider(modelString: string, rest: string, searchFrom: readonly string[]): AiSdkProvider {
  const parts = rest.split('/')
  const nameParts = rest.startsWith('@') ? 2 : 1
  const packageName = parts.slice(0, nameParts).join('/')
  const model = parts.slice(nameParts).join('/')
  if (!packageName || !model) {
    throw new ConfigError(
      `Model string \`${modelString}\` needs a package and a model: write \`aisdk:<package>/<model>\`, e.g. \`aisdk:@ai-sdk/cohere/command-a\`.`,
    )
  }
  const location = locatePackage(packageName, searchFrom, modelString)
  return new AiSdkProvider({
    id: modelString,
    model: async () => {
      const module = await importPackage(location)
      const instances = Object.entries(module).filter(([, value]) => isProviderInstance(value))
      const tail = packageName.split('/').at(-1) ?? ''
      const chosen =
        instances.length === 1
          ? instances[0]
          : instances.find(([name]) => tail.startsWith(name.toLowerCase()))
      if (!chosen) {
        const found = instances.length === 0 ? 'none' : instances.map(([name]) => `\`${name}\``).join(', ')
        throw new ConfigError(
          `\`${modelString}\`: \`${packageName}\` exports no single ready-made provider instance (found ${found}). Make the model yourself and pass it to \`new AiSdkProvider({ model })\`.`,
        )
      }
      return modelFrom(chosen[1], model, packageName, modelString)
    },
  })
}

type PackageLocation = { specifier: string } | { url: string }

/**
 * Finds a package without loading it: beside agent-evals (where a peer is installed), then in the user's project
 * (agent-evals run with npx from elsewhere).
 */
function locatePackage(name: string, searchFrom: readonly string[], modelString: string): PackageLocation {
  // beside agent-evals is the user's project too when it is installed there; a plain import then finds its ESM entry
  if (resolveFrom(createRequire(import.meta.url), name) !== undefined) return { specifier: name }
  for (const dir of searchFrom) {
    const found = resolveFrom(createRequire(join(dir, 'package.json')), name)
    if (found !== undefined && found !== 'esm-only') return { url: pathToFileURL(found).href }
  }
  throw new ConfigError(`\`${modelString}\` needs the \`${name}\` package: run \`npm install ${name}\`.`)
}

function resolveFrom(require: NodeJS.Require, name: string): string | undefined {
  try {
    return require.resolve(name)
  } catch (error) {
    return (error as { code?: unknown }).code === 'ERR_PACKAGE_PATH_NOT_EXPORTED' ? 'esm-only' : undefined
  }
}

async function importPackage(location: PackageLocation): Promise<Record<string, unknown>> {
  return (await import('specifier' in location ? location.specifier : location.url)) as Record<
    string,
    unknown
  >
}

function callExport(
  module: Record<string, unknown>,
  name: string,
  bridged: BridgedPackage,
  settings: Record<string, unknown>,
): unknown {
  const create = module[name]
  if (typeof create !== 'function') {
    throw new ConfigError(
      `\`${bridged.package}\` has no \`${name}\` export: is it an AI SDK provider package?`,
    )
  }
  return (create as (settings: Record<string, unknown>) => unknown)(settings)
}

function modelFrom(
  instance: unknown,
  model: string,
  packageName: string,
  modelString: string,
): AiSdkLanguageModel {
  if (typeof instance !== 'function') {
    throw new ConfigError(`\`${modelString}\`: \`${packageName}\` did not give a provider instance.`)
  }
  return (instance as (model: string) => AiSdkLanguageModel)(model)
}

function isProviderInstance(value: unknown): boolean {
  return (
    typeof value === 'function' && typeof (value as { languageModel?: unknown }).languageModel === 'function'
  )
}

function keyFor(modelString: string, keyVar: string, env = process.env): string {
  const key = env[keyVar]?.trim() || replayOnlyKey(modelString)
  if (key) return key
  const replay = whyReplayNeedsKey(modelString)
  throw new ConfigError(
    `No API key for \`${modelString}\`: set the ${keyVar} environment variable.${replay === undefined ? '' : ` ${replay}`}`,
  )
}
