import { execFileSync } from 'node:child_process'
import { readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { transformSync } from 'esbuild'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { packedProject, type PackedProject } from './packed/packed-install.ts'

const root = join(import.meta.dirname, '..')
const readme = readFileSync(join(root, 'README.md'), 'utf8')
// blocks for the vitest matchers need vitest's runner: tests/vitest runs them in an example project; blocks for
// frameworks that need Node >= 22 (Mastra) run under Node 24 in tests/frameworks-node22
const blocks = [...readme.matchAll(/```ts\n([\s\S]*?)```/g)]
  .map((match) => match[1] ?? '')
  .filter((code) => !code.includes("'agent-evals/vitest'") && !code.includes("from '@mastra/"))
let project: PackedProject

// a CommonJS project (no "type": "module"), as the README's advice for one says: the examples as .mts files
beforeAll(() => {
  project = packedProject()
}, 120_000)

afterAll(() => {
  rmSync(project.dir, { recursive: true, force: true })
})

/** what the example's comments say it prints (a call prettier wrapped over several lines ends with its comment too) */
function promised(code: string): string[] {
  return [...code.matchAll(/console\.log\([\s\S]*?\) \/\/ "(.*)"/g)].map((match) => match[1] ?? '')
}

describe('README TypeScript examples, against the packed package', () => {
  test('there are examples to run', () => {
    expect(blocks.length).toBeGreaterThanOrEqual(2)
  })

  // each example in a process of its own, compiled ahead by esbuild as tsx compiles it (for the running Node, so
  // `await using` is lowered on Node 20): under tsx's loader hooks each module the example loads costs more, about
  // 1 s of CPU per example in all
  test.each(blocks.map((code, index) => [index + 1, code] as const))(
    'example %i runs and prints what its comments say',
    (index, code) => {
      const file = join(project.dir, `example-${index}.mjs`)
      const target = `node${process.versions.node}`
      writeFileSync(file, transformSync(code, { loader: 'ts', format: 'esm', target }).code)
      const output = execFileSync(process.execPath, [file], { cwd: project.dir, encoding: 'utf8' })
      for (const line of promised(code)) expect(output).toContain(line)
    },
  )

  test('an example runs as the README says to run one in a CommonJS project: `tsx example.mts`', () => {
    const code = blocks.find((block) => block.includes('type RunState'))
    expect(code, 'the example that imports a type').toBeDefined()
    const file = join(project.dir, 'example.mts')
    writeFileSync(file, code ?? '')
    const output = execFileSync(process.execPath, ['--import', 'tsx', file], {
      cwd: project.dir,
      encoding: 'utf8',
    })
    expect(promised(code ?? '').length).toBeGreaterThan(0)
    for (const line of promised(code ?? '')) expect(output).toContain(line)
  })
})

describe('the packed package', () => {
  test('ships its license, no source maps, and only built files besides the manifest, README, schemas and Action', () => {
    expect(project.files).toContain('LICENSE')
    expect(project.files.filter((file) => file.endsWith('.map'))).toEqual([])
    expect(project.files.filter((file) => !/^(dist|schema|bin|action\/dist)\//.test(file)).sort()).toEqual([
      'LICENSE',
      'README.md',
      'action/action.yml',
      'package.json',
    ])
  })

  test('the bin runs from the install', () => {
    const bin = join(project.dir, 'node_modules', 'agent-evals', 'bin', 'evals.js')
    const { version } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string }
    expect(execFileSync(process.execPath, [bin, '--version'], { encoding: 'utf8' })).toBe(`${version}\n`)
  })
})
