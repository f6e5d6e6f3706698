import { describeProvider } from '../providers/provider.contract.ts'
import { ScriptedProvider } from '../../src/testing/index.ts'

describeProvider('scripted', (script) => ({
  provider: new ScriptedProvider(
    script.map((reply) =>
      'text' in reply
        ? { text: reply.text }
        : { toolCalls: reply.toolCalls.map(({ name, arguments: raw }) => ({ name, arguments: raw })) },
    ),
    { capabilities: { structuredOutput: true } },
  ),
}))
