import { createHash } from 'node:crypto'
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import { loadSuites } from '../../src/cases/load.ts'
import { ConfigError } from '../../src/errors.ts'
import { readPlan } from '../../src/runner/plan/run-json.ts'
import { readFinished } from '../../src/runner/results/read-finished.ts'
import { resumeRun } from '../../src/runner/resume-run.ts'
import { runSuites } from '../../src/runner/run-suite.ts'
import { caseOf, suiteOf, targetsFor, tempDir, transcriptOf } from './helpers.ts'
import { rowsOf, writeCaseFile } from './resume-fixtures.ts'

const sha256 = (bytes: Buffer): string => createHash('sha256').update(bytes).digest('hex')

/** Cuts a finished run back to its first `keep` rows plus half of the next, as `kill -9` mid-write leaves it. */
function interrupt(dir: string, keep: number): void {
  const path = join(dir, 'results.jsonl')
  const lines = readFileSync(path, 'utf8').split('\n').filter(Boolean)
  const torn = (lines[keep] ?? '').slice(0, 40)
  writeFileSync(path, `${lines.slice(0, keep).join('\n')}\n${torn}`)
  rmSync(join(dir, 'summary.json'))
}

async function cleanAndInterrupted(work: string, keep: number) {
  const file = writeCaseFile(work, 'resume', 30, { trials: 2 })
  const suites = await loadSuites([file])
  const clean = await runSuites(suites, { outDir: work, runId: 'clean', concurrency: 4 })
  await runSuites(suites, { outDir: work, runId: 'cut', concurrency: 4 })
  interrupt(join(work, 'cut'), keep)
  return { file, clean }
}

describe('resume', () => {
  test('runs only the missing pairs and ends with the same counts and rows as an uninterrupted run', async () => {
    const work = tempDir()
    const { clean } = await cleanAndInterrupted(work, 17)
    const warnings: string[] = []
    const resumed = await resumeRun(join(work, 'cut'), { force: false, warn: (m) => warnings.push(m) })
    const report = await runSuites(resumed.suites, resumed.options)

    expect(warnings).toEqual([expect.stringContaining('unreadable line')])
    expect(report.counts).toEqual(clean.counts)
    expect(report.total).toBe(clean.total)
    expect(report.notRun).toBe(0)
    expect(report.accuracy).toBe(clean.accuracy)
    // latencies differ between any two runs; everything counted must not
    const counted = (cases: typeof clean.cases) =>
      [...cases].map(({ id, status, passes, trials, errored, passRate }) => ({
        id,
        status,
        passes,
        trials,
        errored,
        passRate,
      }))
    expect(counted(report.cases)).toEqual(counted(clean.cases))
    expect(report.startedAt).toBe(resumed.plan.startedAt)
    expect(rowsOf(report.resultsFile)).toEqual(rowsOf(clean.resultsFile))
    const summary = JSON.parse(readFileSync(join(work, 'cut', 'summary.json'), 'utf8')) as { counts: unknown }
    expect(summary.counts).toEqual(clean.counts)
  })

  test('never runs a pair again: resuming a finished run runs nothing', async () => {
    const work = tempDir()
    const file = writeCaseFile(work, 'done', 8)
    const suites = await loadSuites([file])
    const first = await runSuites(suites, { outDir: work, runId: 'r' })
    const resumed = await resumeRun(join(work, 'r'), { force: false })
    const again = await runSuites(resumed.suites, resumed.options)

    expect(again.counts).toEqual(first.counts)
    expect(rowsOf(again.resultsFile)).toEqual(rowsOf(first.resultsFile))
  })

  test('a row that appears twice counts once, with a warning, and the file is rewritten without it', async () => {
    const work = tempDir()
    const path = join(work, 'results.jsonl')
    const row = (caseId: string, status: string): string =>
      JSON.stringify({
        suite: 's',
        caseId,
        trial: 0,
        tags: [],
        weight: 1,
        durationMs: 0,
        status,
        reason: 'x',
      })
    writeFileSync(path, `${row('a', 'skipped')}\n${row('b', 'skipped')}\n${row('a', 'skipped')}\n`)
    const seen: string[] = []
    const warnings: string[] = []
    const finished = await readFinished(
      path,
      (result) => seen.push(result.caseId),
      (m) => warnings.push(m),
    )

    expect(seen).toEqual(['a', 'b'])
    expect(finished.dropped).toBe(1)
    expect(warnings).toEqual([`ignoring a second row for s/a trial 0 in ${path}; the first one counts`])
    expect(readFileSync(path, 'utf8')).toBe(`${row('a', 'skipped')}\n${row('b', 'skipped')}\n`)
  })

  test('a last row without its newline gets one before new rows are appended', async () => {
    const work = tempDir()
    const path = join(work, 'results.jsonl')
    const row = JSON.stringify({ suite: 's', caseId: 'a', trial: 0, status: 'skipped' })
    writeFileSync(path, row)
    await readFinished(
      path,
      () => undefined,
      () => undefined,
    )
    expect(readFileSync(path, 'utf8')).toBe(`${row}\n`)
  })

  test('refuses, naming the cases, when a case definition changed since the run; --resume-force goes on', async () => {
    const work = tempDir()
    const { file } = await cleanAndInterrupted(work, 10)
    writeFileSync(
      file,
      readFileSync(file, 'utf8')
        .replace('input: ok-c1 }', 'input: ok-c1-changed }')
        .replace(/\n {2}- \{ id: c0,.*\n/, '\n'),
    )
    const error = await resumeRun(join(work, 'cut'), { force: false }).catch((e: unknown) => e)

    expect(error).toBeInstanceOf(ConfigError)
    expect((error as Error).message).toBe(
      [
        'evals run --resume: 2 cases changed since the run (definition hash differs, or the case was added or removed):',
        '  resume/c1',
        '  resume/c0',
        'Results of old and new definitions would be mixed. Start a new run, or pass `--resume-force` to go on anyway.',
      ].join('\n'),
    )
    const warnings: string[] = []
    const forced = await resumeRun(join(work, 'cut'), { force: true, warn: (m) => warnings.push(m) })
    expect(forced.suites[0]?.cases).toHaveLength(29)
    const report = await runSuites(forced.suites, forced.options)
    const rows = rowsOf(report.resultsFile)
    // counts stay consistent with the rows: a removed case's rows are dropped, not counted
    expect(Object.values(report.counts).reduce((a, b) => a + b, 0)).toBe(rows.length)
    expect(rows.length).toBe(report.total)
    expect(warnings).toContain('dropping the row of resume/c0 trial 0: that pair is no longer in the run')
    expect(rows.filter((row) => row.startsWith('resume/c0#'))).toEqual([])
  })

  test('goes on when the case file was edited without changing a case (a comment, a blank line)', async () => {
    const work = tempDir()
    const { file } = await cleanAndInterrupted(work, 10)
    writeFileSync(file, `# a comment added after the run\n${readFileSync(file, 'utf8')}\n`)
    const resumed = await resumeRun(join(work, 'cut'), { force: false })
    const report = await runSuites(resumed.suites, resumed.options)
    expect(rowsOf(report.resultsFile)).toHaveLength(report.total)
  })

  test('run.json records the files, the selection, and a copy and hash of each case file', async () => {
    const work = tempDir()
    const file = writeCaseFile(work, 'plan', 3, { trials: 2 })
    await runSuites(await loadSuites([file]), { outDir: work, runId: 'p', trials: 2, model: 'x:y' })
    const plan = await readPlan(join(work, 'p'), 'test')

    expect(plan).toEqual({
      version: 2,
      runId: 'p',
      startedAt: expect.any(String) as string,
      selection: { files: [file] },
      model: 'x:y',
      trials: 2,
      concurrency: 4,
      suites: [{ name: 'plan', file, fileHash: sha256(readFileSync(file)), snapshot: 'cases/0-plan.yaml' }],
    })
    expect(readFileSync(join(work, 'p', 'cases', '0-plan.yaml'), 'utf8')).toBe(readFileSync(file, 'utf8'))
  })

  test('a case file edited between loading and starting stops the run before anything runs, leaving no copy', async () => {
    const work = tempDir()
    const file = writeCaseFile(work, 'edited', 3)
    const suites = await loadSuites([file])
    writeFileSync(file, `${readFileSync(file, 'utf8')}# edited\n`)
    await expect(runSuites(suites, { outDir: work, runId: 'e' })).rejects.toThrow(
      new ConfigError(`${file} changed after it was loaded; run again to use the new cases.`),
    )
    expect(existsSync(join(work, 'e', 'cases', '0-edited.yaml'))).toBe(false)
    expect(existsSync(join(work, 'e', 'results.jsonl'))).toBe(false)
  })

  test('refuses to resume when a CSV the case file reads changed since the run, and records its hash', async () => {
    const work = tempDir()
    const file = writeCaseFile(work, 'rows', 0, { dataset: 'rows.csv' })
    const csv = join(work, 'rows.csv')
    writeFileSync(csv, 'id,input\nr1,ok-1\nr2,bad-2\n')
    const [suite] = await loadSuites([file])
    await runSuites(suite ? [suite] : [], { outDir: work, runId: 'd' })
    expect((await readPlan(join(work, 'd'), 'test')).suites[0]?.datasetsHash).toBe(suite?.datasetsHash)

    const resumed = await resumeRun(join(work, 'd'), { force: false })
    expect(resumed.suites[0]?.cases).toHaveLength(2)
    writeFileSync(csv, 'id,input\nr1,ok-1\nr2,ok-2\n')
    await expect(resumeRun(join(work, 'd'), { force: true })).rejects.toThrow(
      new ConfigError(
        `${file}: a CSV or JSONL file its \`cases:\` names changed since the run started, so its rows are not the ones the run began with; restore the file, or start a new run.`,
      ),
    )
  })

  test('run.json of a suite made in code names it, with no copy', async () => {
    const work = tempDir()
    const suite = suiteOf([caseOf('a')])
    const target = { id: 'echo', run: (input: string) => Promise.resolve(transcriptOf(input, input)) }
    await runSuites([suite], { outDir: work, runId: 'code', targets: targetsFor(suite, target) })
    const plan = await readPlan(join(work, 'code'), 'test')
    expect(plan.suites).toEqual([{ name: 'demo', file: expect.any(String) as string }])
  })
})
