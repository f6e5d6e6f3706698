export { ScriptedProvider } from './scripted.ts'
export type { ScriptedProviderOptions, ScriptedReply, ScriptedToolCall } from './scripted.ts'
export { startMockLlmServer } from './mock-llm-server/index.ts'
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
} from './mock-llm-server/index.ts'
export { sessionStoreContract } from './session-store-contract.ts'
export type { ContractCheck, SessionStoreContractOptions } from './session-store-contract.ts'
