import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import type { CaseResult } from '../../src/model/case-result.ts'
import { readResults } from './helpers.ts'

const fns = join(import.meta.dirname, '..', 'e2e', 'fixtures', 'fns.ts')

/**
 * Writes `<dir>/<name>.yaml`: `count` echo cases, every third one failing, `c5` skipped, then the rows of
 * `dataset` when given; returns its path.
 */
export function writeCaseFile(
  dir: string,
  name: string,
  count: number,
  fields: { trials?: number; dataset?: string } = {},
): string {
  const cases = Array.from({ length: count }, (_, i) => {
    const id = `c${String(i)}`
    if (i === 5) return `  - { id: ${id}, input: ${id}, skip: not today }`
    return `  - { id: ${id}, input: ${i % 3 === 0 ? 'bad' : 'ok'}-${id} }`
  })
  const file = join(dir, `${name}.yaml`)
  writeFileSync(
    file,
    [
      `suite: ${name}`,
      'target:',
      `  function: ${fns}#echo`,
      ...(fields.trials === undefined ? [] : [`trials: ${String(fields.trials)}`]),
      'defaults:',
      '  expect: { contains: ok }',
      'cases:',
      ...cases,
      ...(fields.dataset === undefined ? [] : [`  - ./${fields.dataset}`]),
      '',
    ].join('\n'),
  )
  return file
}

/** `suite/case#trial:status` of every row, sorted. */
export function rowsOf(resultsFile: string): string[] {
  return readResults(resultsFile)
    .map((row: CaseResult) => `${row.suite}/${row.caseId}#${String(row.trial)}:${row.status}`)
    .sort()
}
