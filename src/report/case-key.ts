/** What a report sorts a case by. */
export interface CaseKey {
  suite: string
  caseId: string
  trial: number
}

/**
 * Reads suite, caseId and trial off the start of the results.jsonl line in `line[start, end)` without parsing it,
 * when it starts the way JSON.stringify writes a CaseResult (`{"suite":"…","caseId":"…","trial":N,`) with plain
 * strings; undefined otherwise. A guess: later members could repeat these keys, or the line be no JSON at all.
 * `copySorted` accepting the line rules both out.
 */
export function peekCaseKey(line: Buffer, start: number, end: number): CaseKey | undefined {
  let pos = expect(line, start, end, SUITE)
  const suiteEnd = pos === -1 ? -1 : plainStringEnd(line, pos, end)
  pos = suiteEnd === -1 ? -1 : expect(line, suiteEnd, end, CASE_ID)
  const caseIdEnd = pos === -1 ? -1 : plainStringEnd(line, pos, end)
  pos = caseIdEnd === -1 ? -1 : expect(line, caseIdEnd, end, TRIAL)
  if (pos === -1) return undefined
  const digitsStart = pos
  let trial = 0
  for (let c = line[pos]; pos < end && c !== undefined && c >= ZERO && c <= NINE; c = line[++pos]) {
    trial = trial * 10 + c - ZERO
  }
  const digits = pos - digitsStart
  if (digits === 0 || digits > 15 || (digits > 1 && line[digitsStart] === ZERO)) return undefined
  if (pos >= end || (line[pos] !== COMMA && line[pos] !== CLOSE_BRACE)) return undefined
  return {
    suite: line.toString('utf8', start + SUITE.length, suiteEnd),
    caseId: line.toString('utf8', suiteEnd + CASE_ID.length, caseIdEnd),
    trial,
  }
}

const SUITE = Buffer.from('{"suite":"')
const CASE_ID = Buffer.from('","caseId":"')
const TRIAL = Buffer.from('","trial":')
const QUOTE = 0x22
const BACKSLASH = 0x5c
const COMMA = 0x2c
const CLOSE_BRACE = 0x7d
const ZERO = 0x30
const NINE = 0x39

/** The position after `literal` when the line has it at `pos`, else -1. */
function expect(line: Buffer, pos: number, end: number, literal: Buffer): number {
  if (pos + literal.length > end) return -1
  for (let i = 0; i < literal.length; i++) if (line[pos + i] !== literal[i]) return -1
  return pos + literal.length
}

/** Where the string whose content starts at `pos` ends (its closing quote), or -1 if it has escapes or control bytes. */
function plainStringEnd(line: Buffer, pos: number, end: number): number {
  for (let i = pos; i < end; i++) {
    const c = line[i] as number
    if (c === QUOTE) return i
    if (c === BACKSLASH || c < 0x20) return -1
  }
  return -1
}
