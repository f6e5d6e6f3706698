import type { CallScope } from '../../engine/call-scope.ts'
import { ReplayMissError, type Cassette, type HttpCassetteEntry } from '../cassette.ts'
import { entryBase, keyOf, nearestOf } from '../cassette-keys.ts'
import { formatChanges, jsonChanges } from '../diff.ts'
import { requestLine, type CanonicalHttpRequest } from './canonical-http.ts'

/** An exchange looked up in a cassette: the recorded reply, a miss (replaying), or `save` to record the live one. */
export type HttpLookup =
  | { replayed: HttpCassetteEntry['response'] }
  | { miss: ReplayMissError }
  | { save: (response: HttpCassetteEntry['response']) => void }

/** Looks the request up in the case's cassette, as the model layer looks up a model call. */
export function lookUpExchange(
  cassette: Cassette,
  scope: CallScope,
  request: CanonicalHttpRequest,
): HttpLookup {
  // the case is part of the key: two cases that send the same request (at once, or not) keep their own replies
  const { key, seq } = keyOf(scope, { kind: 'http', caseId: scope.caseId, request })
  const found = cassette.find(key)
  if (found?.kind === 'http') return { replayed: structuredClone(found.response) }
  if (cassette.mode === 'replay') return { miss: missOf(cassette, scope, request, seq) }
  return {
    save: (response) => {
      cassette.record({ ...entryBase(scope, key, seq), kind: 'http', request, response })
    },
  }
}

function missOf(
  cassette: Cassette,
  scope: CallScope,
  request: CanonicalHttpRequest,
  seq: number,
): ReplayMissError {
  const all = cassette.httpEntries()
  const same = all.filter((entry) => requestLine(entry.request) === requestLine(request))
  const nearest = nearestOf(scope, same, (entry) => jsonChanges(entry.request.body, request.body))
  const where = `case \`${scope.caseId}\`, trial ${scope.trial}${seq > 0 ? `, repeat ${seq + 1} of this request` : ''}`
  let detail: string
  if (!nearest)
    detail = `The cassette holds no \`${requestLine(request)}\` exchanges (${cassette.describe()}).`
  else if (nearest.changes.length === 0 && nearest.entry.trial !== scope.trial)
    detail = `The same request is recorded for trial ${nearest.entry.trial}: the trial index is part of the key, so record with as many trials as you replay.`
  else if (nearest.changes.length === 0)
    detail = `The same request was recorded ${seq} time${seq === 1 ? '' : 's'} in this case; this is repeat ${seq + 1}.`
  else
    detail = `Nearest recorded request (case \`${nearest.entry.caseId}\`, trial ${nearest.entry.trial}), recorded → now:\n${formatChanges(nearest.changes)}`
  return new ReplayMissError(
    `Replay miss: no recorded \`${requestLine(request)}\` in ${cassette.display()} for this request (${where}). ${detail}\nRecord it with \`--record\` or \`--replay auto\`.`,
  )
}
