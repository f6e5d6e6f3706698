import { spawnSync } from 'node:child_process'
import { mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { packedProject, type PackedProject } from './packed-install.ts'

let project: PackedProject

/** tsc over one test file in its own folder of the packed project; `types` as in the user's tsconfig. */
function typecheck(name: string, source: string, types: string[] = ['node']): string {
  const dir = join(project.dir, name)
  mkdirSync(dir)
  symlinkSync(join(project.dir, 'node_modules'), join(dir, 'node_modules'))
  const compilerOptions = { module: 'NodeNext', strict: true, noEmit: true, skipLibCheck: true, types }
  writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify({ compilerOptions, include: ['*.ts'] }))
  writeFileSync(join(dir, 'agent.test.ts'), source)
  const tsc = join(project.dir, 'node_modules', 'typescript', 'bin', 'tsc')
  const result = spawnSync(process.execPath, [tsc, '-p', dir], { encoding: 'utf8' })
  return `${result.stdout}${result.stderr}`.replaceAll(`${dir}/`, '')
}

const body = `
test('the agent cancels', async () => {
  const run = { output: 'cancelled', toolCalls: [{ name: 'cancel', args: { user: 'u-42' } }] }
  expect(run).toCallTool('cancel', { user: 'u-42' })
  expect(run).not.toCallTools(['lookup', { tool: 'cancel' }], { order: 'strict' })
  await expect(run).toPassCase({ expect: { contains: 'cancelled' } })
  expect({ run }).toEqual({ run: expect.toContainOutput('cancel') })
})
`

beforeAll(() => {
  project = packedProject({ manifest: { type: 'module' } })
}, 120_000)

afterAll(() => {
  rmSync(project.dir, { recursive: true, force: true })
})

test("the matchers' types hold when `agent-evals/vitest` is imported before vitest", () => {
  expect(
    typecheck('before', `import 'agent-evals/vitest'\nimport { expect, test } from 'vitest'\n${body}`),
  ).toBe('')
}, 60_000)

test("the matchers' types hold when `agent-evals/vitest` is imported after vitest", () => {
  expect(
    typecheck('after', `import { expect, test } from 'vitest'\nimport 'agent-evals/vitest'\n${body}`),
  ).toBe('')
}, 60_000)

test('with setupFiles, `types: ["agent-evals/vitest"]` in tsconfig gives the types to files that do not import it', () => {
  const source = `import { expect, test } from 'vitest'\n${body}`
  expect(typecheck('setup-files', source, ['node', 'agent-evals/vitest'])).toBe('')
  expect(typecheck('no-types-entry', source)).toContain("error TS2339: Property 'toCallTool' does not exist")
}, 60_000)

test('a matcher called with wrong arguments fails the typecheck', () => {
  const source = `import { expect, test } from 'vitest'\nimport 'agent-evals/vitest'\ntest('x', () => { expect({}).toCallTool(42) })\n`
  expect(typecheck('wrong-arguments', source)).toContain(
    "error TS2345: Argument of type 'number' is not assignable to parameter of type 'string'.",
  )
}, 60_000)
