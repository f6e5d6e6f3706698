import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { loadSuite } from '../../src/cases/load.ts'
import { CaseFileError } from '../../src/errors.ts'
import { fixturesDir } from './helpers.ts'

/**
 * The CaseFileError message of loading a case file with these `cases:` lines (indented under `cases:`), the file
 * written to a scratch directory and shown as `checks.yaml`.
 */
export async function caseFileErrorOf(caseLines: string[]): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'evals-checks-'))
  const file = join(dir, 'checks.yaml')
  const header = [
    'suite: checks',
    `target: { agent: ${JSON.stringify(`${fixturesDir}agents/support.ts`)} }`,
    'cases:',
  ]
  writeFileSync(file, [...header, ...caseLines, ''].join('\n'))
  try {
    await loadSuite(file)
  } catch (error) {
    if (error instanceof CaseFileError) return error.message.replaceAll(file, 'checks.yaml')
    throw error
  }
  throw new Error('expected the load to fail')
}
