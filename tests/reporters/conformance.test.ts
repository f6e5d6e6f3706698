import { readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { beforeAll, describe, expect, test } from 'vitest'
import { reportSchema } from '../../src/report-file/schema.ts'
import { MARKDOWN_MAX_BYTES } from '../../src/reporters/markdown.ts'
import type { RunReport } from '../../src/model/run-report.ts'
import { runScenario, SCENARIOS } from './helpers.ts'
import { embeddedData, junitSchemaErrors, named, NO_XMLLINT } from './tools.ts'

describe.each(SCENARIOS)('every report format for $name', (scenario) => {
  let run: RunReport
  const file = (name: string): string => join(run.dir, name)

  beforeAll(async () => {
    run = await runScenario(scenario)
  })

  test('report.json passes the schema and holds every case run with its counts', () => {
    const report = reportSchema.parse(JSON.parse(readFileSync(file('report.json'), 'utf8')))
    expect(report.cases).toHaveLength(
      run.counts.passed + run.counts.failed + run.counts.errored + run.counts.skipped,
    )
    expect(report.summary.counts).toEqual(run.counts)
    expect(report.run.id).toBe('run-1')
  })

  test.skipIf(NO_XMLLINT !== undefined)(
    named('report.junit.xml is valid against the JUnit XSD and counts the same', NO_XMLLINT),
    () => {
      expect(junitSchemaErrors(file('report.junit.xml'))).toBe('')
      const xml = readFileSync(file('report.junit.xml'), 'utf8')
      const { passed, failed, errored, skipped } = run.counts
      expect(xml).toContain(
        `tests="${passed + failed + errored + skipped}" failures="${failed}" errors="${errored}" skipped="${skipped}"`,
      )
    },
  )

  test('report.html embeds every case run and the summary', () => {
    const data = embeddedData(file('report.html'))
    expect(data.cases).toHaveLength(
      run.counts.passed + run.counts.failed + run.counts.errored + run.counts.skipped,
    )
    expect(data.header).toMatchObject({ schemaVersion: 4, summary: { counts: run.counts } })
  })

  test('report.md gives the counts and stays under the size cap', () => {
    const markdown = readFileSync(file('report.md'), 'utf8')
    expect(statSync(file('report.md')).size).toBeLessThan(MARKDOWN_MAX_BYTES)
    expect(markdown).toContain(`✅ ${run.counts.passed} passed · ❌ ${run.counts.failed} failed`)
  })
})

describe('the JUnit shape', () => {
  test('a failing case carries the failing evaluator and its reason', async () => {
    const run = await runScenario(SCENARIOS[2]!)
    const xml = readFileSync(join(run.dir, 'report.junit.xml'), 'utf8')
    expect(xml).toContain(
      '<failure message="contains: output does not contain `refunded` (ignoring case): &quot;hello refund&quot;" type="contains">',
    )
  })

  test('an errored case is an <error>, a skipped one <skipped> with its reason', async () => {
    const errored = readFileSync(join((await runScenario(SCENARIOS[3]!)).dir, 'report.junit.xml'), 'utf8')
    expect(errored).toMatch(/<error message="the target fell over" type="Error">/)
    const skipped = readFileSync(join((await runScenario(SCENARIOS[4]!)).dir, 'report.junit.xml'), 'utf8')
    expect(skipped).toContain('<skipped message="not ready yet"/>')
  })

  test('each trial of a multi-trial case is its own testcase, named with its trial', async () => {
    const xml = readFileSync(join((await runScenario(SCENARIOS[5]!)).dir, 'report.junit.xml'), 'utf8')
    expect(xml.match(/<testcase classname="demo" name="flaky \[trial \d\/3\]"/g)).toEqual([
      '<testcase classname="demo" name="flaky [trial 1/3]"',
      '<testcase classname="demo" name="flaky [trial 2/3]"',
      '<testcase classname="demo" name="flaky [trial 3/3]"',
    ])
  })
})
