/** What a report sorts a case by. */
export interface CaseKey {
  suite: string
  caseId: string
  trial: number
}

/**
 * Reads suite, caseId and trial off the start of the results.jsonl line in `bytes[start, end)` without parsing it,
 * when it starts the way JSON.stringify writes a CaseResult (`{"suite":"…","caseId":"…","trial":N,`) with strings
 * free of escapes, within its first 512 bytes; undefined otherwise. A guess: later members could repeat these keys,
 * or the line be no JSON at all. SortableLines taking the line rules both out.
 */
export function peekCaseKey(bytes: Buffer, start: number, end: number): CaseKey | undefined {
  // the line's start as latin1, a character per byte, for cheap string searches
  const head = bytes.toString('latin1', start, Math.min(end, start + HEAD_BYTES))
  if (!head.startsWith(SUITE)) return undefined
  const suiteEnd = stringEnd(head, SUITE.length)
  if (suiteEnd === -1 || !head.startsWith(CASE_ID, suiteEnd)) return undefined
  const caseIdEnd = stringEnd(head, suiteEnd + CASE_ID.length)
  if (caseIdEnd === -1 || !head.startsWith(TRIAL, caseIdEnd)) return undefined
  const digitsStart = caseIdEnd + TRIAL.length
  let pos = digitsStart
  let trial = 0
  for (let c = head.charCodeAt(pos); c >= ZERO && c <= NINE; c = head.charCodeAt(++pos))
    trial = trial * 10 + c - ZERO
  const digits = pos - digitsStart
  if (digits === 0 || digits > 15 || (digits > 1 && head.charCodeAt(digitsStart) === ZERO)) return undefined
  const next = head.charCodeAt(pos)
  if (next !== COMMA && next !== CLOSE_BRACE) return undefined
  return {
    suite: bytes.toString('utf8', start + SUITE.length, start + suiteEnd),
    caseId: bytes.toString('utf8', start + suiteEnd + CASE_ID.length, start + caseIdEnd),
    trial,
  }
}

const HEAD_BYTES = 512
const SUITE = '{"suite":"'
const CASE_ID = '","caseId":"'
const TRIAL = '","trial":'
const BACKSLASH = 0x5c
const COMMA = 0x2c
const CLOSE_BRACE = 0x7d
const ZERO = 0x30
const NINE = 0x39

/** Where the string whose content starts at `pos` ends (its closing quote), or -1 if it has an escape. */
function stringEnd(head: string, pos: number): number {
  const close = head.indexOf('"', pos)
  if (close === -1) return -1
  for (let i = pos; i < close; i++) if (head.charCodeAt(i) === BACKSLASH) return -1
  return close
}
