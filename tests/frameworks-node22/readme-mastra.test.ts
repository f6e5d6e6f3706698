import { execFileSync } from 'node:child_process'
import { readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { packedProject, type PackedProject } from '../packed/packed-install.ts'

// the README's Mastra example, left out of tests/readme-examples.test.ts (Node 20): the packed package, with
// this folder's @mastra/core linked beside it
const readme = readFileSync(join(import.meta.dirname, '..', '..', 'README.md'), 'utf8')
const blocks = [...readme.matchAll(/```ts\n([\s\S]*?)```/g)]
  .map((match) => match[1] ?? '')
  .filter((code) => code.includes("from '@mastra/"))
let project: PackedProject

beforeAll(() => {
  project = packedProject()
  symlinkSync(
    join(import.meta.dirname, 'node_modules', '@mastra'),
    join(project.dir, 'node_modules', '@mastra'),
  )
}, 120_000)

afterAll(() => {
  rmSync(project.dir, { recursive: true, force: true })
})

test('the README has a Mastra example', () => {
  expect(blocks).toHaveLength(1)
})

test.each(blocks.map((code, index) => [index + 1, code] as const))(
  'Mastra example %i runs and prints what its comments say',
  (index, code) => {
    const file = join(project.dir, `mastra-${index}.mts`)
    writeFileSync(file, code)
    const output = execFileSync(process.execPath, ['--import', 'tsx', file], {
      cwd: project.dir,
      encoding: 'utf8',
    })
    // a call prettier wrapped over several lines ends with its comment too
    const promised = [...code.matchAll(/console\.log\([\s\S]*?\) \/\/ "(.*)"/g)].map((match) => match[1])
    expect(promised.length).toBeGreaterThan(0)
    for (const line of promised) expect(output).toContain(line)
  },
)
