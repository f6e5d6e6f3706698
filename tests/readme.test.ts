import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { beforeAll, expect, test } from 'vitest'
import { ensureBuilt, repo, runShell } from './e2e/helpers.ts'

/**
 * Every `evals` command in the README's sh blocks runs against the built bin. `npm ci` / `npm test` are left out
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
  return blocks
    .flatMap((block) => block.split('\n'))
    .flatMap((line) => {
      const [code = '', comment = ''] = line.split(/\s#\s/)
      const expectedCode = Number(/exit code (\d+)/.exec(comment)?.[1] ?? 0)
      return code
        .split('&&')
        .map((part) => part.trim())
        .filter((part) => /^npx evals\b/.test(part) && !part.endsWith('&'))
        .filter((part) => !needsMissingKey(part))
        .map((command) => ({ command, expectedCode }))
    })
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
  expect(readmeCommands().map((c) => c.command)).toContain('npx evals run cases/quickstart.yaml')
})

test.each(readmeCommands())('`$command` exits $expectedCode', async ({ command, expectedCode }) => {
  const args = command.replace(/^npx evals\s*/, '')
  const run = await runShell('sh', ['-c', `node bin/evals.js ${args}`], { cwd: repo })
  expect(run.code, `${run.stdout}\n${run.stderr}`).toBe(expectedCode)
})
