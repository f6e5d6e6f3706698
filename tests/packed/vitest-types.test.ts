import { spawnSync } from 'node:child_process'
import { mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { packedProject, type PackedProject } from './packed-install.ts'

const body = `
test('the agent cancels', async () => {
  const run = { output: 'cancelled', toolCalls: [{ name: 'cancel', args: { user: 'u-42' } }] }
  expect(run).toCallTool('cancel', { user: 'u-42' })
  expect(run).not.toCallTools(['lookup', { tool: 'cancel' }], { order: 'strict' })
  await expect(run).toPassCase({ expect: { contains: 'cancelled' } })
  expect({ run }).toEqual({ run: expect.toContainOutput('cancel') })
})
`

/** One user's test file per folder of the packed project: its source and `types` as in the user's tsconfig. */
const folders: Record<string, { source: string; types?: string[] }> = {
  before: { source: `import 'agent-evals/vitest'\nimport { expect, test } from 'vitest'\n${body}` },
  after: { source: `import { expect, test } from 'vitest'\nimport 'agent-evals/vitest'\n${body}` },
  'setup-files': {
    source: `import { expect, test } from 'vitest'\n${body}`,
    types: ['node', 'agent-evals/vitest'],
  },
  'no-types-entry': { source: `import { expect, test } from 'vitest'\n${body}` },
  'wrong-arguments': {
    source: `import { expect, test } from 'vitest'\nimport 'agent-evals/vitest'\ntest('x', () => { expect({}).toCallTool(42) })\n`,
  },
}

let project: PackedProject
/** each folder's diagnostics, its path taken off the front */
const diagnostics = new Map<string, string>()

// one `tsc -b` over every folder, each its own project as `tsc -p` would check it: one process parses vitest's and
// the package's declarations once for all five (a third of the CPU of five `tsc -p`)
beforeAll(() => {
  project = packedProject({ manifest: { type: 'module' } })
  for (const [name, { source, types = ['node'] }] of Object.entries(folders)) {
    const dir = join(project.dir, name)
    mkdirSync(dir)
    symlinkSync(join(project.dir, 'node_modules'), join(dir, 'node_modules'))
    const compilerOptions = { module: 'NodeNext', strict: true, noEmit: true, skipLibCheck: true, types }
    writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify({ compilerOptions, include: ['*.ts'] }))
    writeFileSync(join(dir, 'agent.test.ts'), source)
  }
  const tsc = join(project.dir, 'node_modules', 'typescript', 'bin', 'tsc')
  const result = spawnSync(process.execPath, [tsc, '-b', ...Object.keys(folders)], {
    cwd: project.dir,
    encoding: 'utf8',
  })
  // a diagnostic starts at the line's start; its continuation lines are indented
  const reported = `${result.stdout}${result.stderr}`.split(/\n(?=\S)/).filter((text) => text.trim() !== '')
  for (const text of reported) {
    const name = Object.keys(folders).find((folder) => text.startsWith(`${folder}/`))
    if (name === undefined) throw new Error(`tsc -b said what no folder explains:\n${text}`)
    diagnostics.set(name, `${diagnostics.get(name) ?? ''}${text.slice(name.length + 1)}\n`)
  }
}, 120_000)

afterAll(() => {
  rmSync(project.dir, { recursive: true, force: true })
})

const typecheck = (name: string): string => diagnostics.get(name) ?? ''

test("the matchers' types hold when `agent-evals/vitest` is imported before vitest", () => {
  expect(typecheck('before')).toBe('')
})

test("the matchers' types hold when `agent-evals/vitest` is imported after vitest", () => {
  expect(typecheck('after')).toBe('')
})

test('with setupFiles, `types: ["agent-evals/vitest"]` in tsconfig gives the types to files that do not import it', () => {
  expect(typecheck('setup-files')).toBe('')
  expect(typecheck('no-types-entry')).toContain("error TS2339: Property 'toCallTool' does not exist")
})

test('a matcher called with wrong arguments fails the typecheck', () => {
  expect(typecheck('wrong-arguments')).toContain(
    "error TS2345: Argument of type 'number' is not assignable to parameter of type 'string'.",
  )
})
