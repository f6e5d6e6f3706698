import type { CallScope } from '../engine/call-scope.ts'
import { hashOf } from './canonical.ts'
import type { JsonChange } from './diff.ts'

/** The fields every cassette entry has. */
export interface EntryBase {
  v: 1
  /** sha256 of kind, provider or tool, canonical request or args, trial and the repeat number */
  key: string
  suite: string
  caseId: string
  trial: number
  /** 0 for the first identical request in a (case, trial), 1 for the next, … */
  seq: number
  recordedAt: string
}

/** The fields every entry of a (case, trial) shares. */
export function entryBase(scope: CallScope, key: string, seq: number): EntryBase {
  const { suite, caseId, trial } = scope
  return { v: 1, key, suite, caseId, trial, seq, recordedAt: new Date().toISOString() }
}

/** The key of a call in a (case, trial), and which repeat of the same call it is there. */
export function keyOf(scope: CallScope, identity: Record<string, unknown>): { key: string; seq: number } {
  const base = hashOf({ ...identity, trial: scope.trial })
  const seq = scope.seen.get(base) ?? 0
  scope.seen.set(base, seq + 1)
  return { key: seq === 0 ? base : hashOf({ base, seq }), seq }
}

const MAX_CANDIDATES = 500

/** The entry with the fewest changed leaves, looking at the same (case, trial) first. */
export function nearestOf<Entry extends Pick<EntryBase, 'caseId' | 'trial'>>(
  scope: CallScope,
  entries: readonly Entry[],
  diff: (entry: Entry) => JsonChange[],
): { entry: Entry; changes: JsonChange[] } | undefined {
  const own = entries.filter((entry) => entry.caseId === scope.caseId && entry.trial === scope.trial)
  const pool = (own.length > 0 ? own : entries).slice(-MAX_CANDIDATES)
  let best: { entry: Entry; changes: JsonChange[] } | undefined
  for (const entry of pool) {
    const changes = diff(entry)
    if (!best || changes.length < best.changes.length) best = { entry, changes }
  }
  return best
}
