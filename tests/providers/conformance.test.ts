import {
  anthropicOverMock,
  ollamaOverMock,
  openAiOverMock,
  openAiResponsesOverMock,
} from './mock-subjects.ts'
import { describeProvider } from './provider.contract.ts'

describeProvider('openai over the mock server', openAiOverMock, { delays: true })
describeProvider('openai responses over the mock server', openAiResponsesOverMock, { delays: true })
describeProvider('anthropic over the mock server', anthropicOverMock, { delays: true })
describeProvider('ollama-style over the mock server', ollamaOverMock, { delays: true })
