import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { expect, test } from 'vitest'
import { createReporters } from '../../src/reporters/index.ts'
import { runSuites } from '../../src/runner/run-suite.ts'
import { caseOf, suiteOf, targetOf, targetsFor, transcriptOf } from '../runner/helpers.ts'
import { tempDir } from './helpers.ts'
import { embeddedData } from './tools.ts'

async function run(snapshotDir: string, answer: string) {
  const suite = suiteOf([caseOf('greet', { expect: { contains: 'hello' }, snapshot: true })])
  return runSuites([suite], {
    outDir: tempDir(),
    targets: targetsFor(
      suite,
      targetOf((input) => transcriptOf(input, answer)),
    ),
    snapshots: { dir: snapshotDir },
    reporters: await createReporters(['json', 'html', 'markdown'], { env: {} }),
  })
}

test('a moved snapshot shows with its diff in report.json, report.html and report.md', async () => {
  const snapshotDir = tempDir()
  await run(snapshotDir, 'hello there')
  const { dir } = await run(snapshotDir, 'hello again')

  const report = JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8')) as { cases: unknown[] }
  expect(report.cases[0]).toMatchObject({
    status: 'passed',
    snapshot: { status: 'changed', diff: '@@ -1,1 +1,1 @@\n-hello there\n+hello again' },
  })
  expect(embeddedData(join(dir, 'report.html')).cases[0]).toMatchObject({
    sn: { st: 'changed', d: '@@ -1,1 +1,1 @@\n-hello there\n+hello again' },
  })
  const markdown = readFileSync(join(dir, 'report.md'), 'utf8')
  expect(markdown).toContain('Every case passed.')
  expect(markdown).toContain(
    '### Moved snapshots (1, not failures unless `snapshot: strict`)\n\n- demo › greet (changed)\n\n```diff\n@@ -1,1 +1,1 @@\n-hello there\n+hello again\n```',
  )
})
