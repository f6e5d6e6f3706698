import { spawnSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'

/** The published JUnit schemas, unmodified (see tests/fixtures/junit/README.md): Jenkins xUnit's and Apache Ant's. */
export const JUNIT_SCHEMAS = {
  'jenkins junit-10.xsd': join(import.meta.dirname, '..', 'fixtures', 'junit', 'junit-10.xsd'),
  'ant JUnit.xsd': join(import.meta.dirname, '..', 'fixtures', 'junit', 'JUnit.xsd'),
} as const

/** Why JUnit schema tests skip, or undefined when xmllint is there. */
export const NO_XMLLINT =
  spawnSync('xmllint', ['--version']).status === 0
    ? undefined
    : 'xmllint not found; install it (apt-get install libxml2-utils) to validate JUnit against the XSD'

/** Validates an XML file against both published JUnit schemas; returns xmllint's complaints by schema, '' when valid. */
export function junitSchemaErrors(file: string): string {
  return Object.entries(JUNIT_SCHEMAS)
    .map(([name, schema]) => {
      const result = spawnSync('xmllint', ['--noout', '--schema', schema, file], { encoding: 'utf8' })
      return result.status === 0 ? '' : `${name}: ${result.stderr}`
    })
    .join('')
}

/** The JSON embedded in a report.html. */
export function embeddedData(file: string): { header: unknown; cases: Record<string, unknown>[] } {
  const html = readFileSync(file, 'utf8')
  const match = /<script type="application\/json" id="evals-data">([\s\S]*?)<\/script>/.exec(html)
  if (!match?.[1]) throw new Error(`no embedded data in ${file}`)
  return JSON.parse(match[1]) as { header: unknown; cases: Record<string, unknown>[] }
}

/** A test name that says why it is skipped, when it is. */
export function named(name: string, skipReason: string | undefined): string {
  return skipReason === undefined ? name : `${name} (skipped: ${skipReason})`
}
