/**
 * The system the target contract runs behind each kind of target. It behaves by its input: `answer` answers,
 * `slow` takes 30 s unless aborted, `crash` fails. The same behaviour backs the function target (`behave`), the
 * agent target (`createAgent`: our Agent on a provider that behaves so), the command target (`command.mjs`) and
 * the HTTP target (the test's server).
 */
import { Agent } from '../../../src/index.ts'
import type { Completion, CompletionRequest, Provider } from '../../../src/providers/provider.ts'
import type { TargetContext } from '../../../src/targets/target.ts'

export const SLOW_MS = 30_000

function wait(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(resolve, ms)
    signal.addEventListener('abort', () => {
      clearTimeout(timer)
      reject(signal.reason as Error)
    })
  })
}

async function reply(input: string, signal: AbortSignal): Promise<string> {
  if (input === 'crash') throw new Error('the subject crashed')
  if (input === 'slow') await wait(SLOW_MS, signal)
  return `answer to ${input}`
}

export function behave(input: unknown, context: TargetContext): Promise<string> {
  return reply(String(input), context.signal)
}

const provider: Provider = {
  id: 'contract:subject',
  async complete(request: CompletionRequest, { signal }): Promise<Completion> {
    const last = request.messages.at(-1)
    const text = await reply(typeof last?.content === 'string' ? last.content : '', signal)
    return {
      message: { text, toolCalls: [] },
      usage: { inputTokens: 3, outputTokens: 2, cacheReadTokens: 0, cacheWriteTokens: 0 },
      finishReason: 'stop',
      model: 'contract-subject',
    }
  },
}

export function createAgent(): Agent {
  return new Agent({ name: 'contract', model: provider, retry: { maxRetries: 0 } })
}
