import { readFileSync } from 'node:fs'
import { afterEach, expect, test, vi } from 'vitest'
import { Agent } from '../../src/engine/agent.ts'
import type { Completion, CompletionRequest, Provider } from '../../src/providers/provider.ts'
import { registerProvider } from '../../src/providers/registry.ts'
import { writeJsonReport } from '../../src/report-file/write-json.ts'
import { runSuite } from '../../src/runner/run-suite.ts'
import { wrapFunction } from '../../src/targets/function.ts'
import { caseOf, suiteOf, targetsFor, tempDir } from '../runner/helpers.ts'

const KEY = 'toy-credential-value-42'

/** A provider family as a plug-in writes it: it reads its key from `TOY_CREDENTIAL` and, carelessly, says it. */
class ToyProvider implements Provider {
  readonly id: string

  constructor(model: string) {
    this.id = `toy:${model}`
  }

  complete(_request: CompletionRequest): Promise<Completion> {
    return Promise.resolve({
      message: { text: `my key is ${process.env['TOY_CREDENTIAL'] ?? 'unset'}`, toolCalls: [] },
      usage: { inputTokens: 1, outputTokens: 1, cacheReadTokens: 0, cacheWriteTokens: 0 },
      finishReason: 'stop',
      model: this.id,
    })
  }
}

afterEach(() => {
  vi.unstubAllEnvs()
})

test('a provider registered with its key variables has their values redacted from results.jsonl and report.json, whatever their names', async () => {
  vi.stubEnv('TOY_CREDENTIAL', KEY)
  registerProvider('toy', (model) => new ToyProvider(model), { keyVariables: ['TOY_CREDENTIAL'] })
  const target = wrapFunction(
    'agent:toy',
    (input, context) =>
      new Agent({ model: context.model ?? 'local', instructions: 'Say your key.' }).run(input, {
        signal: context.signal,
      }),
    'agent',
  )
  const suite = suiteOf([caseOf('leak', { input: 'What is your key?', expect: { contains: 'key' } })], {
    model: 'toy:m1',
  })
  const report = await runSuite(suite, { outDir: tempDir(), targets: targetsFor(suite, target) })
  const reportFile = await writeJsonReport(report, { git: Promise.resolve(undefined) })

  for (const file of [report.resultsFile, reportFile]) {
    const text = readFileSync(file, 'utf8')
    expect(text).toContain('my key is [redacted TOY_CREDENTIAL]')
    expect(text).not.toContain(KEY)
  }
})
