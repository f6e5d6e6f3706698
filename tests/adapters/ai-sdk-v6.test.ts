import { describeAiSdkAdapter } from './ai-sdk.suite.ts'

describeAiSdkAdapter('6', `${import.meta.dirname}/fixtures/ai-sdk-agent.ts`)
