import { describeAiSdkAdapter } from '../adapters/ai-sdk.suite.ts'

describeAiSdkAdapter('7', `${import.meta.dirname}/fixtures/ai-sdk-agent.ts`)
