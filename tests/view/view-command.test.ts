import { join } from 'node:path'
import { beforeAll, expect, test } from 'vitest'
import { ensureBuilt, runCli } from '../e2e/helpers.ts'
import { tempDir } from '../runner/helpers.ts'
import { runInto } from './runs.ts'

beforeAll(() => {
  ensureBuilt()
}, 120_000)

test('evals view prints a loopback URL on a free port, serves the runs, and stops on Ctrl-C', async () => {
  const reports = tempDir()
  await runInto(reports, 'run-1')
  let listed: unknown
  const run = await runCli(['view', reports], {
    onStart: (child) => {
      let out = ''
      child.stdout?.on('data', (chunk: Buffer) => {
        out += chunk.toString()
        const url = /http:\/\/127\.0\.0\.1:\d+\//.exec(out)?.[0]
        if (url === undefined || listed !== undefined) return
        listed = null
        void fetch(`${url}api/runs`)
          .then((response) => response.json() as Promise<{ runs: { runId: string }[] }>)
          .then((body) => {
            listed = body.runs.map((entry) => entry.runId)
            child.kill('SIGINT')
          })
      })
    },
  })
  expect(run.stderr).toBe('')
  expect(run.stdout).toMatch(
    new RegExp(`^evals view: http://127\\.0\\.0\\.1:\\d+/ \\(serving ${reports}; Ctrl-C stops it\\)\\n$`),
  )
  expect(listed).toEqual(['run-1'])
  expect(run.code).toBe(0)
}, 60_000)

test('evals view exits 2 naming the folder or flag that is wrong', async () => {
  const missing = join(tempDir(), 'nope')
  const run = await runCli(['view', missing])
  expect(run.code).toBe(2)
  expect(run.stderr).toBe(
    `evals view: \`${missing}\` is not a folder. Give the reports folder of your runs (\`evals run\` writes \`reports/\`).\n`,
  )
  const port = await runCli(['view', tempDir(), '--port', 'http'])
  expect(port.code).toBe(2)
  expect(port.stderr).toBe('evals view: `--port http` is not a port; give a number from 0 to 65535.\n')
}, 60_000)
