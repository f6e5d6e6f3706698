import { describeOpenAIAgentsAdapter } from './openai-agents.suite.ts'

describeOpenAIAgentsAdapter('0.14', `${import.meta.dirname}/fixtures/openai-agents.ts`)
