/**
 * The frameworks `evals init` scaffolds an agent for. Each agent has the scaffold's two tools (`order_status`,
 * `refund_payment`) and is made by `createAgent({ model })`, so the case file's `model:` and `--model` reach it;
 * evals runs it through the framework's adapter. All of them talk to OpenAI (`OPENAI_API_KEY`, and
 * `OPENAI_BASE_URL` when set), which every one of these frameworks speaks.
 */
export const FRAMEWORKS = {
  'agent-evals': {
    label: 'agent-evals — our Agent, on the offline `local` model or any provider',
    packages: [],
  },
  'ai-sdk': { label: 'the AI SDK (ai) — a ToolLoopAgent', packages: ['ai', '@ai-sdk/openai'] },
  'openai-agents': { label: 'the OpenAI Agents SDK (@openai/agents)', packages: ['@openai/agents'] },
  langgraph: {
    label: 'LangGraph (@langchain/langgraph) — createReactAgent',
    packages: ['@langchain/langgraph', '@langchain/core', '@langchain/openai'],
  },
  mastra: { label: 'Mastra (@mastra/core) — an Agent', packages: ['@mastra/core'] },
} as const satisfies Record<string, { label: string; packages: readonly string[] }>

export type Framework = keyof typeof FRAMEWORKS

/** The model a framework's scaffold starts with: OpenAI's, as the agent file talks to OpenAI. */
export const FRAMEWORK_MODEL = 'openai:gpt-4.1-mini'

export function isFramework(name: string): name is Framework {
  return Object.hasOwn(FRAMEWORKS, name)
}

/** The agent file of a framework other than ours. */
export function frameworkAgentFile(framework: Exclude<Framework, 'agent-evals'>): string {
  return `/**
 * The agent under test, built with ${FRAMEWORKS[framework].label.split(' — ')[0] ?? framework}: two tools and a model. evals runs it through its
 * adapter and records its tool calls, model calls, usage and cost. The case file's \`model:\` (or \`--model\`)
 * arrives in createAgent, so the same agent runs on any OpenAI model; it needs OPENAI_API_KEY (and reads
 * OPENAI_BASE_URL when set).
 */
${AGENTS[framework]}`
}

/** `openai:gpt-4.1-mini` → `gpt-4.1-mini` */
const modelLine = "const modelId = (model: string): string => model.replace(/^openai:/, '')"

const AGENTS: Record<Exclude<Framework, 'agent-evals'>, string> = {
  'ai-sdk': `import { openai } from '@ai-sdk/openai'
import { stepCountIs, ToolLoopAgent, tool } from 'ai'
import { z } from 'zod'

${modelLine}

export function createAgent({ model = '${FRAMEWORK_MODEL}' }: { model?: string } = {}) {
  return new ToolLoopAgent({
    model: openai(modelId(model)),
    instructions: 'You are a customer support agent. Use the tools to act and answer in one sentence.',
    tools: {
      order_status: tool({
        description: 'Check where an order is and when it arrives',
        inputSchema: z.object({ order_id: z.string() }),
        execute: ({ order_id }) => Promise.resolve(\`Order \${order_id} shipped on 2024-05-02 and arrives in 2 days\`),
      }),
      refund_payment: tool({
        description: 'Refund a payment for an order',
        inputSchema: z.object({ order_id: z.string(), amount: z.number().positive() }),
        execute: ({ order_id, amount }) => Promise.resolve(\`Refunded $\${amount.toFixed(2)} for order \${order_id}\`),
      }),
    },
    stopWhen: stepCountIs(4),
  })
}
`,
  'openai-agents': `import { Agent, tool } from '@openai/agents'
import { z } from 'zod'

${modelLine}

const orderStatus = tool({
  name: 'order_status',
  description: 'Check where an order is and when it arrives',
  parameters: z.object({ order_id: z.string() }),
  execute: ({ order_id }) => \`Order \${order_id} shipped on 2024-05-02 and arrives in 2 days\`,
})

const refundPayment = tool({
  name: 'refund_payment',
  description: 'Refund a payment for an order',
  parameters: z.object({ order_id: z.string(), amount: z.number().positive() }),
  execute: ({ order_id, amount }) => \`Refunded $\${amount.toFixed(2)} for order \${order_id}\`,
})

export function createAgent({ model = '${FRAMEWORK_MODEL}' }: { model?: string } = {}) {
  return new Agent({
    name: 'support',
    model: modelId(model),
    instructions: 'You are a customer support agent. Use the tools to act and answer in one sentence.',
    tools: [orderStatus, refundPayment],
  })
}
`,
  langgraph: `import { tool } from '@langchain/core/tools'
import { createReactAgent } from '@langchain/langgraph/prebuilt'
import { ChatOpenAI } from '@langchain/openai'
import { z } from 'zod'

${modelLine}

const orderStatus = tool(({ order_id }) => \`Order \${order_id} shipped on 2024-05-02 and arrives in 2 days\`, {
  name: 'order_status',
  description: 'Check where an order is and when it arrives',
  schema: z.object({ order_id: z.string() }),
})

const refundPayment = tool(({ order_id, amount }) => \`Refunded $\${amount.toFixed(2)} for order \${order_id}\`, {
  name: 'refund_payment',
  description: 'Refund a payment for an order',
  schema: z.object({ order_id: z.string(), amount: z.number().positive() }),
})

export function createAgent({ model = '${FRAMEWORK_MODEL}' }: { model?: string } = {}) {
  return createReactAgent({
    llm: new ChatOpenAI({ model: modelId(model) }),
    tools: [orderStatus, refundPayment],
    name: 'support',
    prompt: 'You are a customer support agent. Use the tools to act and answer in one sentence.',
  })
}
`,
  mastra: `import { Agent } from '@mastra/core/agent'
import { createTool } from '@mastra/core/tools'
import { z } from 'zod'

${modelLine}

const orderStatus = createTool({
  id: 'order_status',
  description: 'Check where an order is and when it arrives',
  inputSchema: z.object({ order_id: z.string() }),
  execute: ({ order_id }) => Promise.resolve(\`Order \${order_id} shipped on 2024-05-02 and arrives in 2 days\`),
})

const refundPayment = createTool({
  id: 'refund_payment',
  description: 'Refund a payment for an order',
  inputSchema: z.object({ order_id: z.string(), amount: z.number().positive() }),
  execute: ({ order_id, amount }) => Promise.resolve(\`Refunded $\${amount.toFixed(2)} for order \${order_id}\`),
})

export function createAgent({ model = '${FRAMEWORK_MODEL}' }: { model?: string } = {}) {
  return new Agent({
    id: 'support',
    name: 'support',
    instructions: 'You are a customer support agent. Use the tools to act and answer in one sentence.',
    model: \`openai/\${modelId(model)}\`,
    tools: { order_status: orderStatus, refund_payment: refundPayment },
  })
}
`,
}
