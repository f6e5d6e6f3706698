import {
  anthropicOverMock,
  ollamaOverMock,
  openAiOverMock,
  openAiResponsesOverMock,
} from './mock-subjects.ts'
import { aiSdkAnthropicOverMock, aiSdkMockSubject, aiSdkOpenAiOverMock } from './ai-sdk-subjects.ts'
import { describeProvider } from './provider.contract.ts'

describeProvider('openai over the mock server', openAiOverMock, { delays: true })
describeProvider('openai responses over the mock server', openAiResponsesOverMock, { delays: true })
describeProvider('anthropic over the mock server', anthropicOverMock, { delays: true })
describeProvider('ollama-style over the mock server', ollamaOverMock, { delays: true })
describeProvider('the AI SDK bridge with the AI SDK mock model', aiSdkMockSubject, { delays: true })
describeProvider(
  'the AI SDK bridge to @ai-sdk/openai chat over the mock server',
  aiSdkOpenAiOverMock('chat'),
  {
    delays: true,
  },
)
describeProvider(
  'the AI SDK bridge to @ai-sdk/openai responses over the mock server',
  aiSdkOpenAiOverMock('responses'),
  { delays: true },
)
describeProvider('the AI SDK bridge to @ai-sdk/anthropic over the mock server', aiSdkAnthropicOverMock, {
  delays: true,
})
