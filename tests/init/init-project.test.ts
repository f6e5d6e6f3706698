import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { beforeAll, describe, expect, test } from 'vitest'
import { packedProject } from '../packed/packed-install.ts'
import { evalsBin, packageName, run, tscIn } from './packed-project.ts'

/** A project with the packed package installed and no package.json unless `files` has one: init writes it. */
const projectWith = (files: Record<string, string> = {}): string =>
  packedProject({ manifest: null, files }).dir
const evals = (dir: string, args: readonly string[]) => run(dir, process.execPath, [evalsBin(dir), ...args])

describe('evals init in a project installed from npm pack', () => {
  let dir = ''

  beforeAll(() => {
    dir = projectWith()
  })

  test('writes the scaffold and a first baseline without asking, and lists every file', () => {
    const init = evals(dir, ['init', '--yes'])
    expect(init.code, init.output).toBe(0)
    for (const path of [
      'evals/agent.ts',
      'evals/checks.ts',
      'evals/cases/support.yaml',
      '.github/workflows/evals.yml',
      'tsconfig.json',
      '.gitignore',
      'package.json',
      'baselines/support.json',
    ])
      expect(init.output).toContain(`  created  ${path}`)
    expect(readFileSync(join(dir, '.gitignore'), 'utf8')).toBe('reports/\n')
    const cases = readFileSync(join(dir, 'evals/cases/support.yaml'), 'utf8')
    expect(cases.split('\n')[0]).toBe(
      `# yaml-language-server: $schema=../../node_modules/${packageName}/schema/cases.schema.json`,
    )
    expect(existsSync(join(dir, `node_modules/${packageName}/schema/cases.schema.json`))).toBe(true)
    expect(cases).toContain('custom: ../checks.ts#quotesEveryToolResult')
    const workflow = readFileSync(join(dir, '.github/workflows/evals.yml'), 'utf8')
    expect(workflow).toMatch(
      /uses: \.\/node_modules\/agent-evals\/action\n {8}with:\n {10}cases: evals\/cases\/\*\.yaml\n {10}baseline-dir: baselines\n/,
    )
    // the workflow's action is the one the package ships
    expect(existsSync(join(dir, `node_modules/${packageName}/action/action.yml`))).toBe(true)
    expect(existsSync(join(dir, `node_modules/${packageName}/action/dist/index.js`))).toBe(true)
    const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as {
      scripts: Record<string, string>
    }
    expect(Object.keys(manifest.scripts)).toEqual(['evals:run', 'evals:baseline', 'evals:view'])
    const baseline = JSON.parse(readFileSync(join(dir, 'baselines/support.json'), 'utf8')) as {
      modelId: string
      cases: { id: string; status: string }[]
    }
    expect(baseline.modelId).toBe('local')
    expect(baseline.cases.map((entry) => `${entry.id} ${entry.status}`)).toEqual([
      'answer-quotes-tool-results passed',
      'order-status passed',
      'refund passed',
    ])
  }, 60_000)

  test('the written files pass tsc', () => {
    const tsc = tscIn(dir)
    expect(tsc.output).toBe('')
    expect(tsc.code).toBe(0)
  }, 60_000)

  test('the written files pass evals run against the first baseline', () => {
    const result = evals(dir, ['run', 'evals/cases/*.yaml', '--baseline', 'baselines', '--no-color'])
    expect(result.code, result.output).toBe(0)
    expect(result.output).toContain('3 unchanged')
  }, 60_000)

  test('a second init overwrites nothing and lists what it skipped', () => {
    writeFileSync(join(dir, 'evals/agent.ts'), '// mine\n')
    const init = evals(dir, ['init', '--yes'])
    expect(init.code, init.output).toBe(0)
    expect(readFileSync(join(dir, 'evals/agent.ts'), 'utf8')).toBe('// mine\n')
    expect(init.output).toContain('  skipped  evals/agent.ts (exists)')
    expect(init.output).toContain('  skipped  .gitignore (already ignores reports/)')
    expect(init.output).toContain('  skipped  package.json (has the evals:* scripts already)')
    expect(init.output).toContain('  skipped  the first baseline: baselines/support.json exists')
    expect(init.output).not.toContain('created')
  }, 60_000)
})

test('init in an existing CommonJS project keeps its scripts and .gitignore lines, adds its own, and writes .mts files that run', () => {
  const dir = projectWith({
    'package.json': `{\n    "name": "mine",\n    "scripts": { "test": "vitest" }\n}\n`,
    '.gitignore': 'node_modules',
  })
  const init = evals(dir, ['init', '--yes', '--dir', 'qa'])
  expect(init.code, init.output).toBe(0)
  expect(init.output).toContain('  updated  .gitignore')
  expect(init.output).toContain('  updated  package.json')
  expect(readFileSync(join(dir, '.gitignore'), 'utf8')).toBe('node_modules\nreports/\n')
  const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as {
    scripts: Record<string, string>
    devDependencies: Record<string, string>
  }
  expect(manifest.scripts).toEqual({
    test: 'vitest',
    'evals:run': 'evals run "qa/cases/*.yaml" --baseline baselines',
    'evals:baseline': 'evals run "qa/cases/*.yaml" --update-baseline',
    'evals:view': 'evals view reports',
  })
  expect(Object.keys(manifest.devDependencies).sort()).toEqual([packageName, 'zod'].sort())
  expect(readFileSync(join(dir, 'package.json'), 'utf8')).toMatch(/^\{\n {4}"name"/)
  // no "type": "module": .ts files would be CommonJS, loaded through tsx; .mts files are ES modules
  expect(existsSync(join(dir, 'qa/agent.ts'))).toBe(false)
  expect(init.output).toContain('  created  qa/agent.mts')
  expect(init.output).toContain('  created  qa/checks.mts')
  expect(init.output).toContain('So the agent and the check are .mts files')
  const cases = readFileSync(join(dir, 'qa/cases/support.yaml'), 'utf8')
  expect(cases).toContain('agent: ../agent.mts')
  expect(cases).toContain('custom: ../checks.mts#quotesEveryToolResult')
  expect(init.output).toContain('  created  baselines/support.json')
  const result = evals(dir, ['run', 'qa/cases/*.yaml', '--baseline', 'baselines', '--no-color'])
  expect(result.code, result.output).toBe(0)
  const tsc = tscIn(dir)
  expect(tsc.output).toBe('')
}, 120_000)
