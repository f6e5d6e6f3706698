import { readFileSync } from 'node:fs'
import { reportHeader, type ReportInput } from '../../src/report-file/header.ts'
import { JudgeSet } from '../../src/report-file/judge-set.ts'
import { createRedactor } from '../../src/util/redact.ts'
import type { CaseResult } from '../../src/model/case-result.ts'
import { canonicalJson } from '../../src/util/canonical-json.ts'

/**
 * report.json by its definition: every line parsed, sorted by suite, case id and trial, and written as canonical
 * JSON, redacted line by line. The reference the copying writer must match byte for byte; reads the whole file, so
 * for tests only.
 */
export function referenceJsonReport(
  run: ReportInput,
  options: { cliVersion: string; env: NodeJS.ProcessEnv; git?: { commit: string; branch?: string } },
): string {
  const redact = createRedactor({ env: options.env })
  const suiteOrder = new Map(run.suites.map((suite, i) => [suite.name, i]))
  const judges = new JudgeSet()
  const entries: { suite: number; caseId: string; trial: number; text: string }[] = []
  for (const text of lines(readFileSync(run.resultsFile))) {
    if (text.trim() === '') continue
    const result = JSON.parse(text) as CaseResult
    if (result.status !== 'skipped') judges.add(result.verdicts)
    const { caseId, trial } = result
    entries.push({ suite: suiteOrder.get(result.suite) ?? run.suites.length, caseId, trial, text })
  }
  entries.sort((a, b) => {
    if (a.suite !== b.suite) return a.suite - b.suite
    if (a.caseId !== b.caseId) return a.caseId < b.caseId ? -1 : 1
    return a.trial - b.trial
  })
  const header = reportHeader(run, {
    cliVersion: options.cliVersion,
    git: options.git,
    judges: judges.list(),
  })
  const text = JSON.stringify({ ...header, cases: [] }, null, 2)
  if (entries.length === 0) return redact(`${text}\n`)
  const opener = '  "cases": ['
  let out = redact(`${text.slice(0, text.lastIndexOf(`${opener}]`))}${opener}\n`)
  entries.forEach((entry, i) => {
    out += `${i === 0 ? '' : ',\n'}    ${canonicalJson(redact.value(JSON.parse(entry.text)))}`
  })
  return `${out}\n  ]\n}\n`
}

/** The lines of a file as readLines split them: at each newline byte, a last line without one kept. */
function lines(bytes: Buffer): string[] {
  const out: string[] = []
  let start = 0
  for (let newline = bytes.indexOf(10); newline !== -1; newline = bytes.indexOf(10, start)) {
    out.push(bytes.toString('utf8', start, newline))
    start = newline + 1
  }
  if (start < bytes.length) out.push(bytes.toString('utf8', start))
  return out
}
