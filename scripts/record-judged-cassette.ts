// Records cases/__cassettes__/judged.jsonl for `node bin/evals.js run cases/judged.yaml --replay`, with a scripted judge
// standing in for `openai:gpt-4.1-mini`: it gives the best choice when the reply under judgement contains the
// words the rule looks for, and the worst otherwise. Usage: node --import tsx scripts/record-judged-cassette.ts
import { rmSync } from 'node:fs'
import { join } from 'node:path'
import { loadSuite } from '../src/cases/load.ts'
import type { CompletionRequest } from '../src/providers/provider.ts'
import { runSuite } from '../src/runner/run-suite.ts'
import { ScriptedProvider } from '../src/testing/index.ts'

const root = join(import.meta.dirname, '..')
const cassette = join(root, 'cases', '__cassettes__', 'judged.jsonl')

function verdict(request: CompletionRequest): { toolCalls: { name: string; args: unknown }[] } {
  const prompt = request.messages.map((message) => message.content).join('\n')
  const reply = /<reply>\n([\s\S]*?)\n<\/reply>/.exec(prompt)?.[1] ?? ''
  const properties = request.tools[0]?.parameters.properties as
    Record<string, { enum?: string[] }> | undefined
  const enumValues = properties?.choice?.enum ?? []
  const good = /cancelled|arrives/i.test(reply)
  const choice = good ? (enumValues.includes('10') ? '10' : enumValues[0]) : enumValues.at(-1)
  return {
    toolCalls: [
      {
        name: 'verdict',
        args: { reasons: `The reply ${good ? 'does' : 'does not'} answer the request.`, choice },
      },
    ],
  }
}

const replies = Array.from({ length: 50 }, () => verdict)
const judge = new ScriptedProvider(replies, { id: 'openai:gpt-4.1-mini', model: 'gpt-4.1-mini' })
rmSync(cassette, { force: true })
const suite = await loadSuite(join(root, 'cases', 'judged.yaml'))
const report = await runSuite(suite, {
  judgeProvider: judge,
  cassettes: 'record',
  outDir: join(root, 'reports'),
  concurrency: 1,
})
console.log(`recorded ${judge.calls.length} judge calls to ${cassette}: ${JSON.stringify(report.counts)}`)
