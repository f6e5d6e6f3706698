import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { format } from 'prettier'
import { describe, expect, test } from 'vitest'
import { openReport } from '../../src/report-file/read.ts'
import { reportJsonSchema, reportSchema } from '../../src/report-file/schema.ts'
import { writeJsonReport } from '../../src/report-file/write-json.ts'
import type { CaseResult } from '../../src/model/case-result.ts'
import { syntheticResult, syntheticResults, writeRun } from '../reporters/synthetic.ts'

const temp = (): string => mkdtempSync(join(tmpdir(), 'evals-report-'))

async function reportOf(
  results: Iterable<CaseResult>,
  extra: object = {},
): Promise<{ text: string; path: string }> {
  const dir = temp()
  const path = await writeJsonReport({ ...writeRun(dir, results), ...extra }, { env: {}, cwd: dir })
  return { text: readFileSync(path, 'utf8'), path }
}

describe('writeJsonReport', () => {
  test('sorts cases by suite, case id and trial, whatever order they finished in', async () => {
    const results = [
      { ...syntheticResult(2), trial: 1 },
      syntheticResult(3),
      { ...syntheticResult(2), trial: 0 },
      syntheticResult(1),
    ]
    const report = JSON.parse((await reportOf(results)).text) as { cases: CaseResult[] }
    expect(report.cases.map((c) => `${c.caseId}#${c.trial}`)).toEqual([
      'case-00001#0',
      'case-00002#0',
      'case-00002#1',
      'case-00003#0',
    ])
  })

  test('is byte-for-byte the same for the same results in another order', async () => {
    const results = [...syntheticResults(50)]
    const a = await reportOf(results)
    const b = await reportOf([...results].reverse())
    expect(a.text).toBe(b.text)
  })

  test('writes object keys in code-point order inside cases, and one case per line', async () => {
    const { text } = await reportOf([syntheticResult(20)])
    const line = text.split('\n').find((candidate) => candidate.startsWith('    {"caseId"'))
    expect(line).toMatch(/^ {4}\{"caseId":"case-00020","durationMs":\d+,"score":1,"status":"passed","suite"/)
  })

  test('round-trips through the zod schema unchanged', async () => {
    const { text } = await reportOf(syntheticResults(40))
    const parsed: unknown = JSON.parse(text)
    expect(reportSchema.parse(parsed)).toEqual(parsed)
  })

  test('leaves git out outside a repository and records the run metadata', async () => {
    const report = JSON.parse((await reportOf([syntheticResult(20)])).text) as Record<string, unknown>
    expect(Object.keys(report)).toEqual(['schemaVersion', 'run', 'summary', 'cases'])
    expect(report.run).toEqual({
      id: 'synthetic',
      startedAt: '2026-01-31T12:00:00.000Z',
      endedAt: '2026-01-31T12:00:01.234Z',
      durationMs: 1234,
      cliVersion: expect.any(String) as string,
      suites: [
        {
          name: 'support',
          file: 'cases/support.yaml',
          targetId: 'agent:support',
          model: 'openai:gpt-4.1-mini',
        },
      ],
      judges: [],
      concurrency: 8,
    })
  })

  test('records the commit and branch when run inside a git repository', async () => {
    const dir = temp()
    await writeJsonReport(writeRun(dir, [syntheticResult(20)]), { env: {}, cwd: process.cwd() })
    const report = JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8')) as {
      run: { git?: { commit: string } }
    }
    expect(report.run.git?.commit).toMatch(/^[0-9a-f]{40}$/)
  })

  test('lists each judge named in verdict details once', async () => {
    const judged = (i: number): CaseResult => {
      const result = syntheticResult(i)
      if (result.status !== 'passed') throw new Error('expected a passing case')
      const details = {
        judgeModel: 'openai:gpt-4.1-mini',
        specHash: 'abc123',
        reasons: ['polite'],
        costUsd: 0.0001,
      }
      return {
        ...result,
        verdicts: [...result.verdicts, { evaluator: 'rubric', weight: 1, pass: true, reason: 'ok', details }],
      }
    }
    const report = JSON.parse((await reportOf([judged(20), judged(21)])).text) as { run: { judges: unknown } }
    expect(report.run.judges).toEqual([
      { evaluator: 'rubric', model: 'openai:gpt-4.1-mini', specHash: 'abc123' },
    ])
  })

  test('includes the gate and the comparisons when the run has them', async () => {
    const gate = { decision: 'fail', reasons: ['Critical case `x` regressed'], warnings: [] }
    const report = JSON.parse((await reportOf([syntheticResult(20)], { gate })).text) as Record<
      string,
      unknown
    >
    expect(Object.keys(report)).toEqual(['schemaVersion', 'run', 'summary', 'gate', 'cases'])
    expect(report.gate).toEqual(gate)
  })

  test('redacts secrets from every field', async () => {
    const dir = temp()
    const leaky = {
      ...syntheticResult(20),
      caseId: 'id eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJsZWFrZWQifQ.c2lnbmF0dXJlLXZhbHVl',
      output: 'x hunter2-hunter2',
    }
    await writeJsonReport(writeRun(dir, [leaky]), { env: { OPENAI_API_KEY: 'hunter2-hunter2' }, cwd: dir })
    const text = readFileSync(join(dir, 'report.json'), 'utf8')
    expect(text).toContain('"caseId":"id [redacted]"')
    expect(text).not.toContain('eyJzdWIiOiJsZWFrZWQifQ')
  })
})

describe('openReport', () => {
  test('streams back the cases of a report it wrote', async () => {
    const { path } = await reportOf(syntheticResults(30))
    const source = await openReport(path)
    const ids: string[] = []
    for await (const result of source.cases()) ids.push(result.caseId)
    expect(ids).toHaveLength(30)
    expect(source.header.summary.total).toBe(30)
  })

  test('redacts secrets on the way in, unless told the report was redacted as it was written', async () => {
    const { path, text } = await reportOf([syntheticResult(20), syntheticResult(21)])
    const credential = 'https://evals:hunter2-hunter2@proxy.example.com'
    writeFileSync(path, text.replace('"output":"', `"output":"${credential} `))
    const outputs = async (redact?: boolean): Promise<string[]> => {
      const source = await openReport(path, { env: {}, ...(redact === undefined ? {} : { redact }) })
      const found: string[] = []
      for await (const result of source.cases())
        found.push('transcript' in result ? (result.transcript?.output ?? '') : '')
      return found
    }
    expect((await outputs())[0]).toMatch(/^https:\/\/evals:\[redacted\]@proxy\.example\.com Your order/)
    expect((await outputs(false))[0]).toContain(credential)
  })

  test('reads a report reformatted by another tool whole', async () => {
    const { path, text } = await reportOf(syntheticResults(5))
    writeFileSync(path, await format(text, { parser: 'json' }))
    const source = await openReport(path)
    const ids: string[] = []
    for await (const result of source.cases()) ids.push(result.caseId)
    expect(ids).toEqual(['case-00000', 'case-00001', 'case-00002', 'case-00003', 'case-00004'])
  })

  test('names the file and the first problems when it is not a report', async () => {
    const path = join(temp(), 'bad.json')
    writeFileSync(path, JSON.stringify({ schemaVersion: 1, run: {}, summary: {}, cases: [] }))
    await expect(openReport(path)).rejects.toThrow(
      `${path}: not a valid evals report:\n  run.id: Invalid input: expected string, received undefined`,
    )
  })

  test('refuses a report from a newer evals', async () => {
    const path = join(temp(), 'new.json')
    writeFileSync(path, JSON.stringify({ schemaVersion: 5, cases: [] }))
    await expect(openReport(path)).rejects.toThrow(
      `${path}: report schemaVersion 5 is newer than this evals reads (4); upgrade evals.`,
    )
  })

  test('still reads a version 1 report, written before `partial` existed', async () => {
    const source = await openReport(
      fileURLToPath(new URL('../fixtures/reports/report.v1.json', import.meta.url)),
    )
    expect(source.header).toMatchObject({ schemaVersion: 1, summary: { counts: { passed: 1 } } })
    const statuses: string[] = []
    for await (const result of source.cases()) statuses.push(`${result.caseId}:${result.status}`)
    expect(statuses).toEqual(['cancel-subscription:passed'])
  })

  test('still reads a version 2 report, written before variants existed', async () => {
    const source = await openReport(
      fileURLToPath(new URL('../fixtures/reports/report.v2.json', import.meta.url)),
    )
    expect(source.header).toMatchObject({ schemaVersion: 2, summary: { counts: { passed: 4 } } })
    const ids: string[] = []
    for await (const result of source.cases()) ids.push(`${result.caseId}:${String(result.variant)}`)
    expect(ids).toEqual([
      'opening-hours:undefined',
      'out-of-scope:undefined',
      'returns:undefined',
      'shipping:undefined',
    ])
  })
})

test('the committed schema/report.schema.json matches the zod schema (run `npm run schema:build`)', () => {
  const committed: unknown = JSON.parse(
    readFileSync(new URL('../../schema/report.schema.json', import.meta.url), 'utf8'),
  )
  expect(committed).toEqual(reportJsonSchema())
})
