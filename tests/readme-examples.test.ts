import { execFileSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, describe, expect, test } from 'vitest'

const root = join(import.meta.dirname, '..')
const readme = readFileSync(join(root, 'README.md'), 'utf8')
// blocks for the vitest matchers need vitest's runner: tests/vitest runs them in an example project
const blocks = [...readme.matchAll(/```ts\n([\s\S]*?)```/g)]
  .map((match) => match[1] ?? '')
  .filter((code) => !code.includes("'agent-evals/vitest'"))
const scratch = mkdtempSync(join(root, 'node_modules', '.readme-'))

afterAll(() => {
  rmSync(scratch, { recursive: true, force: true })
})

describe('README TypeScript examples', () => {
  test('there are examples to run', () => {
    expect(blocks.length).toBeGreaterThanOrEqual(2)
  })

  test.each(blocks.map((code, index) => [index + 1, code] as const))(
    'example %i runs and prints what its comments say',
    (index, code) => {
      const source = code
        .replaceAll("from 'agent-evals/testing'", `from '${join(root, 'src/testing/index.ts')}'`)
        .replaceAll("from 'agent-evals'", `from '${join(root, 'src/index.ts')}'`)
      const file = join(scratch, `example-${index}.mts`)
      writeFileSync(file, source)
      const output = execFileSync(process.execPath, ['--import', 'tsx', file], {
        cwd: root,
        encoding: 'utf8',
      })
      const promised = [...code.matchAll(/console\.log\(.*\) \/\/ "(.*)"/g)].map((match) => match[1])
      for (const line of promised) expect(output).toContain(line)
    },
  )
})
