export { ScriptedProvider } from './scripted.ts'
export type { ScriptedProviderOptions, ScriptedReply, ScriptedToolCall } from './scripted.ts'
