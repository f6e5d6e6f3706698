/** The support agent of cases/quickstart.yaml. */
import { Agent, tool } from 'agent-evals'
import { z } from 'zod'

const lookupUser = tool({
  name: 'lookup_user',
  description: 'Look up a user account by id',
  parameters: z.object({ user_id: z.string() }),
  readOnly: true,
  execute: ({ user_id }) => `User ${user_id} is Ada Lovelace on the Pro plan`,
})

const cancelSubscription = tool({
  name: 'cancel_subscription',
  description: 'Cancel the subscription of a user',
  parameters: z.object({ user_id: z.string() }),
  execute: ({ user_id }) => `Subscription for ${user_id} is cancelled; access ends with the billing period`,
})

const refundPayment = tool({
  name: 'refund_payment',
  description: 'Refund a payment for an order',
  parameters: z.object({ order_id: z.string(), amount: z.number().positive() }),
  execute: ({ order_id, amount }) => `Refunded $${amount.toFixed(2)} for order ${order_id}`,
})

const orderStatus = tool({
  name: 'order_status',
  description: 'Check where an order is and when it arrives',
  parameters: z.object({ order_id: z.string() }),
  readOnly: true,
  execute: ({ order_id }) => `Order ${order_id} shipped on 2024-05-02 and arrives in 2 days`,
})

const openTicket = tool({
  name: 'open_ticket',
  description: 'Open a ticket for the support team',
  parameters: z.object({ subject: z.string(), priority: z.enum(['low', 'normal', 'urgent']) }),
  // a terminal tool ends the run: its JSON result is the agent's output
  terminal: true,
  execute: ({ subject, priority }) => ({ ticket: 'T-1001', priority, subject }),
})

/** The suite's `model:` (or `--model`) arrives here, so the same agent runs on `local` or a real model. */
export function createAgent({ model = 'local' }: { model?: string } = {}): Agent {
  return new Agent({
    name: 'support',
    model,
    instructions:
      'You are a customer support agent. Use the tools to act; never reveal personal data; answer in one sentence.',
    tools: [lookupUser, cancelSubscription, refundPayment, orderStatus, openTicket],
    maxIterations: 6,
    // the local stand-in is free; real models are priced from @pydantic/genai-prices
    prices: { local: { inputMtok: 0, outputMtok: 0 } },
  })
}
