import { join } from 'node:path'
import type { CaseDefinition } from '../../src/cases/case-definition.ts'
import { CaseList } from '../../src/cases/case-list.ts'
import type { Suite } from '../../src/cases/suite.ts'
import {
  startMockLlmServer,
  type MockLlmServer,
  type MockRateLimit,
  type MockReply,
  type MockRequest,
} from '../../src/testing/index.ts'

export const sdkAgents = join(import.meta.dirname, 'fixtures', 'sdk-agents.ts')

/** A suite in `dir` whose target is an export of the SDK agents fixture, run as a function target. */
export function sdkSuite(
  dir: string,
  exportName: string,
  cases: CaseDefinition[],
  fields: Partial<Suite> = {},
): Suite {
  return {
    name: 'sdk',
    file: join(dir, 'sdk.yaml'),
    target: { type: 'function', module: sdkAgents, exportName },
    trials: 1,
    cases: CaseList.of(cases),
    ...fields,
  }
}

/**
 * A tiny model on every API the mock speaks: asked about an order it calls `lookup_order`, given a tool result it
 * answers with it, otherwise it echoes.
 */
export function startOrderModel(rateLimit?: MockRateLimit): Promise<MockLlmServer> {
  return startMockLlmServer({ handler: answer, ...(rateLimit && { rateLimit }) })
}

function answer(request: MockRequest): MockReply {
  const body = request.body as { messages?: Item[]; input?: Item[] | string }
  const items: Item[] =
    body.messages ??
    (typeof body.input === 'string' ? [{ role: 'user', content: body.input }] : (body.input ?? []))
  const last = items.at(-1)
  if (last?.role === 'tool') return { text: `Done: ${textOf(last.content)}` }
  if (last?.type === 'function_call_output') return { text: `Done: ${textOf(last.output)}` }
  const text = textOf(last?.content)
  const order = /order (\w+)/i.exec(text)?.[1]
  if (order !== undefined) return { toolCalls: [{ name: 'lookup_order', args: { id: order } }] }
  return { text: `Echo: ${text}`, usage: { inputTokens: 11, outputTokens: 3 } }
}

interface Item {
  role?: string
  type?: string
  content?: unknown
  output?: unknown
}

function textOf(content: unknown): string {
  if (typeof content === 'string') return content
  if (Array.isArray(content)) return content.map((part) => (part as { text?: string }).text ?? '').join('')
  return JSON.stringify(content ?? '')
}
