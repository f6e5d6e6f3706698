import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { ensureBuilt, repo, runShell } from './e2e/helpers.ts'

/**
 * Every `evals` command in the README's sh blocks (`node bin/evals.js …`, as in a clone) runs against the built bin. `npm ci` / `npm test` are left out
 * (they reinstall or recurse), as are commands that need an API key that is not set or start a background server.
 * A command is expected to exit 0 unless its comment says `exit code N`.
 */
interface ReadmeCommand {
  command: string
  expectedCode: number
}

function readmeCommands(): ReadmeCommand[] {
  const readme = readFileSync(join(repo, 'README.md'), 'utf8')
  const blocks = [...readme.matchAll(/```(?:sh|bash|shell|console)\n([\s\S]*?)```/g)].map(
    (match) => match[1] ?? '',
  )
  const commands = blocks
    .flatMap((block) => block.split('\n'))
    .flatMap((line) => {
      const [code = '', comment = ''] = line.split(/\s#\s/)
      const expectedCode = Number(/exit code (\d+)/.exec(comment)?.[1] ?? 0)
      return code
        .split('&&')
        .map((part) => part.trim())
        .filter((part) => part.startsWith('node bin/evals.js ') && !part.endsWith('&'))
        .filter((part) => !needsMissingKey(part))
        .map((command) => ({ command, expectedCode }))
    })
  // the quick start and the reference both show the first run: once is enough
  return commands.filter(
    (entry, index) => commands.findIndex((other) => other.command === entry.command) === index,
  )
}

function needsMissingKey(command: string): boolean {
  return (
    (command.includes('openai:') && !process.env.OPENAI_API_KEY) ||
    (command.includes('anthropic:') && !process.env.ANTHROPIC_API_KEY)
  )
}

beforeAll(() => {
  ensureBuilt()
}, 120_000)

test('the README has a runnable evals command', () => {
  expect(readmeCommands().map((c) => c.command)).toContain('node bin/evals.js run cases/quickstart.yaml')
})

test('no code line of the README sends a user to `npx evals` but `npx evals init`, once the package is installed', () => {
  // an unrelated npm package is named `evals`: npx fetches it wherever agent-evals is not installed
  const readme = readFileSync(join(repo, 'README.md'), 'utf8')
  const code = [...readme.matchAll(/```\w*\n([\s\S]*?)```/g)].flatMap((match) => (match[1] ?? '').split('\n'))
  expect(code.filter((line) => line.includes('npx evals')).map((line) => line.split('#')[0]?.trim())).toEqual(
    ['npx evals init'],
  )
  const quickStart = readme.slice(readme.indexOf('## Quick start'), readme.indexOf('npx evals init'))
  expect(quickStart).toContain('with agent-evals installed as above')
})

const out = mkdtempSync(join(tmpdir(), 'evals-readme-'))
afterAll(() => {
  rmSync(out, { recursive: true, force: true })
})

test.each(readmeCommands())('`$command` exits $expectedCode', async ({ command, expectedCode }) => {
  // as written, but with the reports in a temporary folder: tests never write into the repository
  const reports = command.startsWith('node bin/evals.js run ') ? ` --out ${out}` : ''
  const run = await runShell('sh', ['-c', `${command}${reports}`], { cwd: repo })
  expect(run.code, `${run.stdout}\n${run.stderr}`).toBe(expectedCode)
})
