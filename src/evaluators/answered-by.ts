import { z } from 'zod'
import { defineEvaluator } from './definition.ts'
import { code } from './describe.ts'
import { reported } from './reported.ts'

export const answeredBy = defineEvaluator({
  kind: 'answered_by',
  description:
    'The agent that gave the final answer, after any handoffs, has this name (OpenAI Agents SDK, LangGraph, Mastra).',
  options: z.strictObject({ value: z.string().min(1) }),
  shorthand: z.string().min(1),
  fromShorthand: (value) => ({ value }),
  create: ({ value }) => ({
    name: 'answered_by',
    evaluate: (transcript) => {
      const agent = reported(transcript, 'agent', 'answered_by')
      return agent === value
        ? { pass: true, reason: `agent ${code(agent)} answered` }
        : { pass: false, reason: `expected agent ${code(value)} to answer, ${code(agent)} did` }
    },
  }),
})
