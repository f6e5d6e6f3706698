import assert from 'node:assert/strict'
import type { SessionRecord, SessionStore } from '../engine/sessions/session-store.ts'

/** One check of the session-store contract: run it with any test runner. */
export interface ContractCheck {
  name: string
  run: () => Promise<void>
}

export interface SessionStoreContractOptions {
  /** a store whose sessions expire this many ms after their last save; the expiry checks are skipped without it */
  withTtl?: (ttlMs: number) => SessionStore | Promise<SessionStore>
}

/**
 * The checks every session store must pass: what it saves loads back equal, saves replace, deletes remove, expired
 * sessions are gone, and its lock makes runs of one session take turns while runs of others go on. Each check gets a
 * fresh store from `create`. With vitest: `for (const check of sessionStoreContract(make)) test(check.name, check.run)`.
 */
export function sessionStoreContract(
  create: () => SessionStore | Promise<SessionStore>,
  options: SessionStoreContractOptions = {},
): ContractCheck[] {
  const checks: ContractCheck[] = [
    {
      name: 'loads nothing for a session never saved',
      run: async () => {
        assert.equal(await (await create()).load('never-saved'), undefined)
      },
    },
    {
      name: 'loads what it saved, equal and as a copy',
      run: async () => {
        const store = await create()
        const record = sampleRecord('s-1')
        await store.save(record)
        const loaded = await store.load('s-1')
        assert.deepEqual(loaded, record)
        loaded.messages.push({ role: 'user', content: 'changed after loading' })
        assert.deepEqual(await store.load('s-1'), record)
      },
    },
    {
      name: 'a save replaces the session, and sessions are kept apart',
      run: async () => {
        const store = await create()
        await store.save(sampleRecord('s-1'))
        await store.save(sampleRecord('s-2'))
        const later = { ...sampleRecord('s-1'), messages: [{ role: 'user' as const, content: 'only this' }] }
        await store.save(later)
        assert.deepEqual(await store.load('s-1'), later)
        assert.deepEqual(await store.load('s-2'), sampleRecord('s-2'))
      },
    },
    {
      name: 'delete removes the session, and deleting a missing one is fine',
      run: async () => {
        const store = await create()
        await store.save(sampleRecord('s-1'))
        await store.delete('s-1')
        await store.delete('s-missing')
        assert.equal(await store.load('s-1'), undefined)
      },
    },
    {
      name: 'the lock makes holders of one session take turns, in order',
      run: async () => {
        const store = await create()
        const order: string[] = []
        const hold = async (who: string, ms: number) => {
          const release = await store.lock('s-1')
          order.push(`${who} in`)
          await new Promise((resolve) => setTimeout(resolve, ms))
          order.push(`${who} out`)
          await release()
        }
        const first = hold('a', 30)
        await new Promise((resolve) => setTimeout(resolve, 5))
        await Promise.all([first, hold('b', 0)])
        assert.deepEqual(order, ['a in', 'a out', 'b in', 'b out'])
      },
    },
    {
      name: 'the lock of one session does not hold up another',
      run: async () => {
        const store = await create()
        const release = await store.lock('s-1')
        const other = await Promise.race([
          store.lock('s-2'),
          new Promise<'stuck'>((resolve) => {
            setTimeout(() => {
              resolve('stuck')
            }, 2_000)
          }),
        ])
        assert.notEqual(other, 'stuck', 'locking s-2 waited for the lock of s-1')
        if (other !== 'stuck') await other()
        await release()
      },
    },
    {
      name: 'a lock wait ends when its signal aborts, and the lock stays usable',
      run: async () => {
        const store = await create()
        const release = await store.lock('s-1')
        const controller = new AbortController()
        const waiting = store.lock('s-1', controller.signal)
        controller.abort(new Error('gave up'))
        await assert.rejects(waiting, /gave up/)
        await release()
        const again = await store.lock('s-1')
        await again()
      },
    },
  ]
  const { withTtl } = options
  if (withTtl)
    checks.push({
      name: 'a session is gone once its time to live has passed since its last save',
      run: async () => {
        // a second of life: long enough for a save and a load on a loaded machine, short enough to wait out
        const store = await withTtl(1000)
        await store.save({ ...sampleRecord('s-1'), updatedAt: Date.now() })
        assert.notEqual(await store.load('s-1'), undefined)
        await new Promise((resolve) => setTimeout(resolve, 1100))
        assert.equal(await store.load('s-1'), undefined)
      },
    })
  return checks
}

function sampleRecord(id: string): SessionRecord {
  return {
    id,
    messages: [
      { role: 'user', content: `Hello from ${id}` },
      { role: 'assistant', content: '', toolCalls: [{ id: 'c1', name: 'lookup', arguments: '{"q":"é ✓"}' }] },
      { role: 'tool', toolCallId: 'c1', name: 'lookup', content: '{"found":true}' },
      { role: 'assistant', content: 'Found it.', agent: 'support' },
    ],
    summary: 'The user said hello.',
    agent: 'support',
    updatedAt: 1_700_000_000_000,
  }
}
