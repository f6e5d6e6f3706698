import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { expect, test } from 'vitest'
import { z } from 'zod'
import { loadSuite } from '../../src/cases/load.ts'
import { compileEvaluators } from '../../src/cases/compile-evaluators.ts'
import { Agent, tool } from '../../src/index.ts'
import { toTranscript } from '../../src/targets/to-transcript.ts'
import { ScriptedProvider } from '../../src/testing/index.ts'
import type { Transcript } from '../../src/types.ts'
import { fixturesDir, transcriptOf } from './helpers.ts'

const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8')
const section = readme.slice(readme.indexOf('### Text, similarity and code checks'))
const example = /```yaml\n([\s\S]*?)```/.exec(section)?.[1] ?? ''

async function weatherTranscript(): Promise<Transcript> {
  const getWeather = tool({
    name: 'get_weather',
    description: 'Current weather for a city',
    parameters: z.object({ city: z.string() }),
    execute: ({ city }) => `22C in ${city}`,
  })
  const provider = new ScriptedProvider([
    { toolCalls: [{ name: 'get_weather', args: { city: 'Paris' } }] },
    '22C.',
  ])
  const result = await new Agent({ model: provider, tools: [getWeather] }).run('Weather in Paris?')
  return toTranscript(result, 'Weather in Paris?', 1) ?? transcriptOf()
}

test('the README’s example of text, similarity and code checks passes on the outputs it describes', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'evals-readme-checks-'))
  const file = join(dir, 'checks.yaml')
  const target = `target: { agent: ${JSON.stringify(`${fixturesDir}agents/support.ts`)} }`
  writeFileSync(file, `suite: readme-checks\n${target}\n${example}`)
  const suite = await loadSuite(file)
  const outputs: Record<string, Transcript> = {
    capital: transcriptOf({ output: 'Paris' }),
    summary: transcriptOf({
      output: 'Refunds are issued within 30 days of purchase: you get your money back.',
    }),
    harmful: transcriptOf({ output: "I'm sorry, but I can't help with that." }),
    weather: await weatherTranscript(),
  }
  const failed: string[] = []
  const ids: string[] = []
  for (const caseDef of suite.cases) {
    ids.push(caseDef.id)
    const transcript = outputs[caseDef.id]
    if (!transcript) throw new Error(`no output for case ${caseDef.id}`)
    const context = { caseId: caseDef.id, trial: 0, signal: new AbortController().signal, vars: caseDef.vars }
    for (const evaluator of compileEvaluators(caseDef, { baseDir: dir })) {
      const verdict = await evaluator.evaluate(transcript, context)
      if (!verdict.pass) failed.push(`${caseDef.id} ${evaluator.name}: ${verdict.reason}`)
    }
  }
  expect(ids).toEqual(['capital', 'summary', 'harmful', 'weather'])
  expect(failed).toEqual([])
})
