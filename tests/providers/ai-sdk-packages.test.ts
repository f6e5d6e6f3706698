import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { afterEach, beforeEach, describe, expect, test } from 'vitest'
import { ConfigError } from '../../src/errors.ts'
import { createAiSdkModelProvider } from '../../src/providers/ai-sdk-packages.ts'
import { knowsModel, resolveModel } from '../../src/providers/registry.ts'
import { startMockLlmServer, type MockLlmServer } from '../../src/testing/index.ts'

const live = () => ({ signal: new AbortController().signal })
const ask = { messages: [{ role: 'user' as const, content: 'hi' }], tools: [] }

let project: string
let server: MockLlmServer | undefined
beforeEach(() => {
  project = mkdtempSync(join(tmpdir(), 'evals-ai-sdk-packages-'))
})
afterEach(async () => {
  rmSync(project, { recursive: true, force: true })
  await server?.close()
  server = undefined
})

/** The real `@ai-sdk/openai`, imported by the stand-in packages below so their models speak HTTP to the mock. */
const realOpenAi = pathToFileURL(createRequire(import.meta.url).resolve('@ai-sdk/openai')).href.replace(
  /index\.js$/,
  'index.mjs',
)

/**
 * A package installed in a user's project, as `npm install` leaves it. Its code notes on `globalThis` that it was
 * loaded and with which key, and makes `@ai-sdk/openai` chat models aimed at the mock server.
 */
function installPackage(name: string, body: string): void {
  const dir = join(project, 'node_modules', ...name.split('/'))
  mkdirSync(dir, { recursive: true })
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name, version: '1.0.0', main: 'index.mjs' }))
  writeFileSync(
    join(dir, 'index.mjs'),
    `import { createOpenAI } from ${JSON.stringify(realOpenAi)}
globalThis.evalsLoaded = [...(globalThis.evalsLoaded ?? []), ${JSON.stringify(name)}]
const chat = (apiKey) => (model) => createOpenAI({ apiKey, baseURL: globalThis.evalsMockBase }).chat(model)
${body}
`,
  )
}

const loaded = () => (globalThis as { evalsLoaded?: string[] }).evalsLoaded ?? []

async function mockServer(): Promise<MockLlmServer> {
  server = await startMockLlmServer({ script: [{ text: 'hello from the package' }] })
  ;(globalThis as { evalsMockBase?: string }).evalsMockBase = server.openaiBaseURL
  return server
}

describe('model strings of AI SDK provider packages', () => {
  test('a package that is not installed is one line naming what to install', () => {
    const make = () =>
      createAiSdkModelProvider('google:gemini-2.5-flash', {
        env: { GOOGLE_GENERATIVE_AI_API_KEY: 'k' },
        searchFrom: [project],
      })
    expect(make).toThrow(ConfigError)
    expect(make).toThrow(
      new ConfigError(
        '`google:gemini-2.5-flash` needs the `@ai-sdk/google` package: run `npm install @ai-sdk/google`.',
      ),
    )
  })

  test.each([
    ['mistral:mistral-small-latest', '@ai-sdk/mistral'],
    ['bedrock:anthropic.claude-sonnet-4-20250514-v1:0', '@ai-sdk/amazon-bedrock'],
    ['openrouter:anthropic/claude-sonnet-4', '@openrouter/ai-sdk-provider'],
    ['aisdk:@ai-sdk/cohere/command-a', '@ai-sdk/cohere'],
  ])('resolveModel(%j) says to install %s', (model, name) => {
    expect(() => resolveModel(model)).toThrow(`needs the \`${name}\` package: run \`npm install ${name}\`.`)
  })

  test('every prefix is known to the registry', () => {
    for (const prefix of [
      'google',
      'vertex',
      'bedrock',
      'azure',
      'mistral',
      'groq',
      'xai',
      'openrouter',
      'aisdk',
    ]) {
      expect(knowsModel(`${prefix}:some-model`)).toBe(true)
    }
  })

  test('a missing key names the variable to set', () => {
    installPackage('@ai-sdk/groq', 'export const createGroq = ({ apiKey }) => chat(apiKey)')
    expect(() =>
      createAiSdkModelProvider('groq:llama-3.3-70b-versatile', { env: {}, searchFrom: [project] }),
    ).toThrow(
      new ConfigError(
        'No API key for `groq:llama-3.3-70b-versatile`: set the GROQ_API_KEY environment variable.',
      ),
    )
  })

  test('loads the package on the first call, not before, and calls the model with the key from the environment', async () => {
    installPackage('@ai-sdk/google', 'export const createGoogleGenerativeAI = ({ apiKey }) => chat(apiKey)')
    const { journal } = await mockServer()
    const provider = createAiSdkModelProvider('google:gemini-2.5-flash', {
      env: { GOOGLE_GENERATIVE_AI_API_KEY: 'g-key' },
      searchFrom: [project],
    })
    expect(provider.id).toBe('google:gemini-2.5-flash')
    expect(loaded()).not.toContain('@ai-sdk/google')
    const completion = await provider.complete(ask, live())
    expect(loaded()).toContain('@ai-sdk/google')
    expect(completion.message.text).toBe('hello from the package')
    expect(journal[0]?.headers['authorization']).toBe('Bearer g-key')
    expect(journal[0]?.body).toMatchObject({ model: 'gemini-2.5-flash' })
  })

  test('aisdk:<package>/<model> uses the package’s ready-made provider instance, with a model id that has slashes', async () => {
    installPackage(
      '@acme/ai-sdk-provider',
      `const acme = Object.assign((model) => chat('acme-key')(model), { languageModel: (model) => chat('acme-key')(model) })
export { acme }
export const createAcme = () => acme`,
    )
    const { journal } = await mockServer()
    const provider = createAiSdkModelProvider('aisdk:@acme/ai-sdk-provider/meta/llama-4', {
      searchFrom: [project],
    })
    await provider.complete(ask, live())
    expect(journal[0]?.body).toMatchObject({ model: 'meta/llama-4' })
  })

  test('aisdk: with a package that has no ready-made instance says how to make the model instead', async () => {
    installPackage('plain-package', 'export const createPlain = () => chat("k")')
    const provider = createAiSdkModelProvider('aisdk:plain-package/m1', { searchFrom: [project] })
    await expect(provider.complete(ask, live())).rejects.toThrow(
      '`aisdk:plain-package/m1`: `plain-package` exports no single ready-made provider instance (found none). Make the model yourself and pass it to `new AiSdkProvider({ model })`.',
    )
  })

  test('aisdk: without a model says how to write one', () => {
    expect(() => createAiSdkModelProvider('aisdk:@ai-sdk/openai')).toThrow(
      'Model string `aisdk:@ai-sdk/openai` needs a package and a model: write `aisdk:<package>/<model>`',
    )
  })
})
