export { startMockLlmServer } from './server.ts'
export type {
  MockErrorReply,
  MockFaultReply,
  MockHandler,
  MockLlmServer,
  MockLlmServerOptions,
  MockMessageReply,
  MockRateLimit,
  MockReply,
  MockRequest,
  MockToolCall,
} from './types.ts'
