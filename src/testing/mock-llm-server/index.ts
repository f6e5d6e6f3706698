export { startMockLlmServer } from './server.ts'
export type {
  MockErrorReply,
  MockFaultReply,
  MockHandler,
  MockLlmServer,
  MockLlmServerOptions,
  MockMessageReply,
  MockReply,
  MockRequest,
  MockToolCall,
} from './types.ts'
export type { MockRateLimit } from './rate-limit.ts'
