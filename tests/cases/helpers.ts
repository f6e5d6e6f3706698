import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { CaseFileError } from '../../src/errors.ts'

export const fixturesDir = fileURLToPath(new URL('../fixtures/cases/', import.meta.url))

export function fixture(name: string): string {
  return `${fixturesDir}${name}`
}

const scratchDir = mkdtempSync(join(tmpdir(), 'evals-cases-'))
// removed when the test process ends: test files may share this module (the `unit` project does not isolate them),
// so no one file's afterAll may remove it
process.once('exit', () => {
  rmSync(scratchDir, { recursive: true, force: true })
})

/** Writes a case file that cannot live in the fixtures (Prettier would reformat or reject it). */
export function scratchFile(name: string, text: string): string {
  const file = join(scratchDir, name)
  writeFileSync(file, text)
  return file
}

/** The CaseFileError message of a failing load, with the fixtures and scratch directories masked. */
export async function loadErrorOf(load: Promise<unknown>): Promise<string> {
  try {
    await load
  } catch (error) {
    if (error instanceof CaseFileError)
      return error.message.replaceAll(fixturesDir, '').replaceAll(`${scratchDir}/`, '')
    throw error
  }
  throw new Error('expected the load to fail')
}
