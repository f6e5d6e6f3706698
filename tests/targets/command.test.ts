import { tmpdir } from 'node:os'
import { describe, expect, test } from 'vitest'
import { commandTarget } from '../../src/targets/command.ts'
import type { TargetContext } from '../../src/targets/target.ts'

const cwd = tmpdir()
const context = (signal = new AbortController().signal): TargetContext => ({ signal, caseId: 'c9', trial: 3 })

describe('commandTarget', () => {
  test('writes the input to stdin and reads the output from stdout', async () => {
    const transcript = await commandTarget({ command: 'tr a-z A-Z', cwd }).run('shout this', context())
    expect(transcript.output).toBe('SHOUT THIS')
  })

  test('passes the input as one quoted argument where {{input}} stands', async () => {
    const transcript = await commandTarget({
      command: 'printf "%s|" {{input}} "$EVALS_CASE_ID" "$EVALS_TRIAL"',
      cwd,
    }).run("it's a $HOME; rm -rf /", context())
    expect(transcript.output).toBe("it's a $HOME; rm -rf /|c9|3|")
  })

  test('appends the input as the last argument in argument mode', async () => {
    const transcript = await commandTarget({ command: 'echo got', input: 'argument', cwd }).run(
      'two words',
      context(),
    )
    expect(transcript.output).toBe('got two words')
  })

  test('reads a JSON object with an `output` string as a transcript with tool calls', async () => {
    const json = JSON.stringify({
      output: 'ok',
      toolCalls: [{ id: '1', name: 'lookup', args: {}, durationMs: 1 }],
    })
    const transcript = await commandTarget({ command: `echo '${json}'`, cwd }).run('x', context())
    expect(transcript.output).toBe('ok')
    expect(transcript.toolCalls?.map((call) => call.name)).toEqual(['lookup'])
  })

  test('rejects a non-zero exit with the last lines of stderr', async () => {
    await expect(
      commandTarget({ command: 'echo bad input >&2; exit 3', cwd }).run('x', context()),
    ).rejects.toThrow('`echo bad input >&2; exit 3` exited with code 3: bad input')
  })

  test('kills the command after its timeout', async () => {
    const started = Date.now()
    await expect(
      commandTarget({ command: 'sleep 5', cwd, timeoutMs: 100 }).run('x', context()),
    ).rejects.toThrow('`sleep 5` took longer than 100ms')
    expect(Date.now() - started).toBeLessThan(2000)
  })

  test('kills the whole process group when the case is aborted', async () => {
    const controller = new AbortController()
    const running = commandTarget({ command: 'sleep 5 & sleep 5; wait', cwd }).run(
      'x',
      context(controller.signal),
    )
    setTimeout(() => {
      controller.abort()
    }, 50)
    const started = Date.now()
    await expect(running).rejects.toThrow('was aborted')
    expect(Date.now() - started).toBeLessThan(2000)
  })
})
