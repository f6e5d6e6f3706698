import { afterEach, expect, test, vi } from 'vitest'
import { defineCommand } from '../../src/cli/command.ts'
import { ConfigError, InternalError } from '../../src/errors.ts'

afterEach(() => {
  vi.restoreAllMocks()
})

/** What a command that throws `error` prints on stderr, and its exit code. */
async function failing(error: Error): Promise<{ code: number; stderr: string }> {
  let stderr = ''
  vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => {
    stderr += String(chunk)
    return true
  })
  const command = defineCommand({
    name: 'evals test',
    usage: 'Usage: evals test',
    flags: {},
    positionals: false,
    run: () => Promise.reject(error),
  })
  const code = await command.main([])
  return { code, stderr }
}

test('a bug in evals (InternalError) prints its stack, to be reported; a user error prints one line', async () => {
  const bug = await failing(new InternalError('the stream has not finished'))
  expect(bug.code).toBe(2)
  expect(bug.stderr).toContain(
    'the stream has not finished (this is a bug in evals: please report it with the stack trace)',
  )
  expect(bug.stderr).toMatch(/\n\s+at /)

  const mine = await failing(new ConfigError('`--trials` must be a positive whole number, got "x".'))
  expect(mine.stderr).toBe('`--trials` must be a positive whole number, got "x".\n')
})
