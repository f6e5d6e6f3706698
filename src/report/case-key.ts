import type { Chunk } from './lines.ts'

/** What a report sorts a case by. */
export interface CaseKey {
  suite: string
  caseId: string
  trial: number
}

/**
 * Reads suite, caseId and trial off the start of the results.jsonl line at `[start, end)` in a chunk without
 * parsing it, when it starts the way JSON.stringify writes a CaseResult (`{"suite":"…","caseId":"…","trial":N,`)
 * with strings free of escapes; undefined otherwise. A guess: later members could repeat these keys, or the line be
 * no JSON at all. SortableLines taking the line rules both out.
 */
export function peekCaseKey({ bytes, latin1 }: Chunk, start: number, end: number): CaseKey | undefined {
  if (!latin1.startsWith(SUITE, start)) return undefined
  const suiteEnd = stringEnd(latin1, start + SUITE.length, end)
  if (suiteEnd === -1 || !latin1.startsWith(CASE_ID, suiteEnd)) return undefined
  const caseIdEnd = stringEnd(latin1, suiteEnd + CASE_ID.length, end)
  if (caseIdEnd === -1 || !latin1.startsWith(TRIAL, caseIdEnd)) return undefined
  const digitsStart = caseIdEnd + TRIAL.length
  let pos = digitsStart
  let trial = 0
  for (let c = latin1.charCodeAt(pos); c >= ZERO && c <= NINE; c = latin1.charCodeAt(++pos))
    trial = trial * 10 + c - ZERO
  const digits = pos - digitsStart
  if (digits === 0 || digits > 15 || (digits > 1 && latin1.charCodeAt(digitsStart) === ZERO)) return undefined
  const next = latin1.charCodeAt(pos)
  if (pos >= end || (next !== COMMA && next !== CLOSE_BRACE)) return undefined
  return {
    suite: bytes.toString('utf8', start + SUITE.length, suiteEnd),
    caseId: bytes.toString('utf8', suiteEnd + CASE_ID.length, caseIdEnd),
    trial,
  }
}

const SUITE = '{"suite":"'
const CASE_ID = '","caseId":"'
const TRIAL = '","trial":'
const BACKSLASH = 0x5c
const COMMA = 0x2c
const CLOSE_BRACE = 0x7d
const ZERO = 0x30
const NINE = 0x39

/** Where the string whose content starts at `pos` ends (its closing quote), or -1 if it has an escape. */
function stringEnd(latin1: string, pos: number, end: number): number {
  const close = latin1.indexOf('"', pos)
  if (close === -1 || close >= end) return -1
  for (let i = pos; i < close; i++) if (latin1.charCodeAt(i) === BACKSLASH) return -1
  return close
}
