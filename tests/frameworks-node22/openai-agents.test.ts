import { describeOpenAIAgentsAdapter } from '../adapters/openai-agents.suite.ts'

describeOpenAIAgentsAdapter('0.20', `${import.meta.dirname}/fixtures/openai-agents.ts`)
