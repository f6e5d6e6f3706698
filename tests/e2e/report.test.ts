import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { beforeAll, describe, expect, test } from 'vitest'
import { ensureBuilt, runCli } from './helpers.ts'

beforeAll(() => {
  ensureBuilt()
}, 120_000)

describe('reports from the built bin', () => {
  test('evals run writes report.json, JUnit and HTML by default and lists them', async () => {
    const out = mkdtempSync(join(tmpdir(), 'evals-e2e-reports-'))
    const run = await runCli(['run', 'cases/quickstart.yaml', '--out', out])
    expect(run.code).toBe(0)
    const [runId = ''] = readdirSync(out)
    const dir = join(out, runId)
    expect(readdirSync(dir).filter((name) => name.startsWith('report.'))).toEqual([
      'report.html',
      'report.json',
      'report.junit.xml',
    ])
    expect(run.stdout).toContain(
      `Reports   ${join(dir, 'report.json')}\n          ${join(dir, 'report.junit.xml')}\n          ${join(dir, 'report.html')}\n`,
    )
  })

  test('--reporter picks the formats; evals report re-renders from report.json', async () => {
    const out = mkdtempSync(join(tmpdir(), 'evals-e2e-reports-'))
    const run = await runCli(['run', 'cases/quickstart.yaml', '--out', out, '--reporter', 'json'])
    expect(run.code).toBe(0)
    const [runId = ''] = readdirSync(out)
    const json = join(out, runId, 'report.json')
    expect(readdirSync(join(out, runId))).not.toContain('report.html')
    const again = await runCli(['report', json, '--reporter', 'markdown,html', '--out', join(out, 'again')])
    expect(again).toMatchObject({ code: 0, stderr: '' })
    expect(again.stdout).toBe(`${join(out, 'again', 'report.md')}\n${join(out, 'again', 'report.html')}\n`)
    expect(readFileSync(join(out, 'again', 'report.md'), 'utf8')).toContain('✅ 10 passed')
  })

  test('evals report exits 2 with the problems of a file that is not a report', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'evals-e2e-reports-')), 'bad.json')
    writeFileSync(file, '{"schemaVersion":1}')
    const run = await runCli(['report', file])
    expect(run.code).toBe(2)
    expect(run.stderr).toBe(
      `${file}: not a valid evals report:\n  run: Invalid input: expected object, received undefined\n  summary: Invalid input: expected object, received undefined\n  cases: Invalid input: expected array, received undefined\n`,
    )
  })

  test('an unknown reporter exits 2 with a did-you-mean before anything runs', async () => {
    const run = await runCli([
      'run',
      'cases/quickstart.yaml',
      '--reporter',
      'junt',
      '--out',
      mkdtempSync(join(tmpdir(), 'x-')),
    ])
    expect(run.code).toBe(2)
    expect(run.stderr).toBe(
      'Unknown reporter `junt`. Did you mean `junit`? Known reporters: console, json, junit, html, markdown; or give a module path, e.g. `./my-reporter.ts`.\n',
    )
  })
})
