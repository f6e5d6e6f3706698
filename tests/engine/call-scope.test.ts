import type { AsyncLocalStorage } from 'node:async_hooks'
import { afterEach, expect, test } from 'vitest'
import {
  callScopeReader,
  runInCallScope,
  type CallRecorder,
  type CallScope,
} from '../../src/engine/call-scope.ts'

const shared = globalThis as unknown as Record<symbol, unknown>
const READERS = Symbol.for('evals.callScopeReaders')
const storage = shared[Symbol.for('evals.callScope')] as AsyncLocalStorage<CallScope>
const readersBefore = shared[READERS]
afterEach(() => {
  shared[READERS] = readersBefore
})

const recorder: CallRecorder = {
  model: () => ({ replayed: undefined, save: () => undefined }),
  tool: () => ({ replayed: undefined, save: () => undefined }),
}

test('no scope is entered while nothing that reads one is loaded, unless a recorder needs it', () => {
  Reflect.deleteProperty(shared, READERS)
  expect(runInCallScope({ suite: 's', caseId: 'c', trial: 0 }, () => storage.getStore())).toBeUndefined()
  expect(
    runInCallScope({ suite: 's', caseId: 'c', trial: 0, recorder }, () => storage.getStore())?.recorder,
  ).toBe(recorder)
})

test('once a reader is registered every pair gets its own scope', () => {
  Reflect.deleteProperty(shared, READERS)
  const read = callScopeReader()
  const scope = runInCallScope({ suite: 's', caseId: 'c', trial: 2 }, () => read())
  expect(scope).toMatchObject({ suite: 's', caseId: 'c', trial: 2 })
  expect(scope?.seen).toBeInstanceOf(Map)
})
