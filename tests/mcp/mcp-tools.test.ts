import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, test } from 'vitest'
import { Agent, ConfigError, tool } from '../../src/index.ts'
import { ScriptedProvider } from '../../src/testing/index.ts'
import { z } from 'zod'
import { childPids, everything, everythingOverHttp, filesystem, unlocking } from './servers.ts'

const cleanups: (() => Promise<void> | void)[] = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup()
})

function agentWith(
  provider: ScriptedProvider,
  options: Omit<ConstructorParameters<typeof Agent>[0], 'model'>,
) {
  const agent = new Agent({ model: provider, ...options })
  cleanups.push(() => agent.close())
  return agent
}

describe('stdio servers', { timeout: 30_000 }, () => {
  test("server-everything's tools become agent tools the model can call", async () => {
    const provider = new ScriptedProvider([
      { toolCalls: [{ name: 'get-sum', args: { a: 2, b: 3 } }] },
      'five',
    ])
    const agent = agentWith(provider, { mcp: [everything] })

    const result = await agent.run('add 2 and 3')

    expect(result.stopReason).toBe('final')
    expect(result.toolCalls).toMatchObject([
      { name: 'get-sum', args: { a: 2, b: 3 }, result: 'The sum of 2 and 3 is 5.' },
    ])
    const offered = provider.calls[0]?.tools.find((schema) => schema.name === 'get-sum')
    expect(offered).toMatchObject({
      description: 'Returns the sum of two numbers',
      parameters: { type: 'object', required: ['a', 'b'], properties: { a: { type: 'number' } } },
    })
  })

  test('server-filesystem reads a file in its temp dir, and a misspelt key gets a did-you-mean before the server sees it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'evals-mcp-fs-'))
    writeFileSync(join(dir, 'notes.txt'), 'buy milk')
    const file = join(dir, 'notes.txt')
    const provider = new ScriptedProvider([
      { toolCalls: [{ name: 'fs_read_text_file', args: { pth: file } }] },
      { toolCalls: [{ name: 'fs_read_text_file', args: { path: file } }] },
      'milk',
    ])
    const agent = agentWith(provider, { mcp: [{ ...filesystem(dir), prefix: 'fs_' }] })

    const result = await agent.run('what is in my notes?')

    expect(result.toolCalls[0]?.error).toContain('unknown key `pth` (did you mean `path`?)')
    expect(result.toolCalls[1]).toMatchObject({ name: 'fs_read_text_file', result: 'buy milk' })
  })

  test('a tool error from the server is a tool error of the run', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'evals-mcp-fs-'))
    const provider = new ScriptedProvider([
      { toolCalls: [{ name: 'read_text_file', args: { path: '/etc/passwd' } }] },
      'no access',
    ])
    const agent = agentWith(provider, { mcp: [filesystem(dir)] })

    const result = await agent.run('read the password file')

    expect(result.stopReason).toBe('final')
    expect(result.toolCalls[0]?.error).toMatch(/^Tool `read_text_file` failed: .*Access denied/)
  })

  test('the server starts on the first run, not when the agent is made, and stops with close()', async () => {
    const marker = `lazy-${String(Date.now())}`
    const server = { ...everything, args: [...(everything.args ?? []), marker] }
    const agent = agentWith(new ScriptedProvider(['hi', 'again']), { mcp: [server] })
    expect(await childPids(marker)).toEqual([])

    await agent.run('hi')
    expect(await childPids(marker)).toHaveLength(1)

    await agent.close()
    await expect.poll(() => childPids(marker)).toEqual([])
  })

  test('`await using` closes the servers at the end of the block', async () => {
    const marker = `using-${String(Date.now())}`
    {
      await using agent = new Agent({
        model: new ScriptedProvider(['hi']),
        mcp: [{ ...everything, args: [...(everything.args ?? []), marker] }],
      })
      await agent.run('hi')
      expect(await childPids(marker)).toHaveLength(1)
    }
    await expect.poll(() => childPids(marker)).toEqual([])
  })

  test('a server killed during a call turns the call into a tool error, the run goes on, and the next run restarts it', async () => {
    const marker = `crash-${String(Date.now())}`
    const provider = new ScriptedProvider([
      { toolCalls: [{ name: 'trigger-long-running-operation', args: { duration: 30, steps: 30 } }] },
      'the operation failed',
      { toolCalls: [{ name: 'get-sum', args: { a: 1, b: 1 } }] },
      'two',
    ])
    // the server dies during the first call only: killing it at every tool start raced the second run's restart
    let killed = false
    const agent = agentWith(provider, {
      mcp: [{ ...everything, args: [...(everything.args ?? []), marker] }],
      observers: [
        {
          onToolStart: async () => {
            if (killed) return
            killed = true
            for (const pid of await childPids(marker)) process.kill(pid, 'SIGKILL')
          },
        },
      ],
    })

    const crashed = await agent.run('run the long operation')

    expect(crashed.stopReason).toBe('final')
    expect(crashed.toolCalls[0]?.error).toMatch(
      /^Tool `trigger-long-running-operation` failed: MCP server `everything` is not running \(the server stopped/,
    )
    const again = await agent.run('add 1 and 1')
    expect(again.toolCalls[0]).toMatchObject({ name: 'get-sum', result: 'The sum of 1 and 1 is 2.' })
  })

  test('a tool added by the server (tools/list_changed) is offered on the next run', async () => {
    const provider = new ScriptedProvider([
      { toolCalls: [{ name: 'unlock', args: {} }] },
      'unlocked',
      { toolCalls: [{ name: 'secret', args: { name: 'ada' } }] },
      'it is 42',
    ])
    const agent = agentWith(provider, { mcp: [unlocking] })

    await agent.run('unlock it')
    const second = await agent.run('tell the secret')

    expect(provider.calls[0]?.tools.map((schema) => schema.name)).toEqual(['unlock'])
    expect(provider.calls[2]?.tools.map((schema) => schema.name)).toEqual(['unlock', 'secret'])
    expect(second.toolCalls[0]).toMatchObject({ name: 'secret', result: 'the secret for ada is 42' })
  })

  const broken = {
    name: 'broken',
    command: process.execPath,
    args: ['-e', 'console.error("no config"); process.exit(3)'],
  }

  test('a server that cannot start leaves the others working, and the run’s trace says which and why', async () => {
    const provider = new ScriptedProvider([
      { toolCalls: [{ name: 'get-sum', args: { a: 2, b: 3 } }] },
      'five',
    ])
    const agent = agentWith(provider, { mcp: [broken, everything] })

    const result = await agent.run('add 2 and 3')

    expect(result.stopReason).toBe('final')
    expect(result.toolCalls[0]).toMatchObject({ name: 'get-sum', result: 'The sum of 2 and 3 is 5.' })
    const errors = result.trace.flatMap((step) => (step.type === 'error' ? [step.error] : []))
    expect(errors).toHaveLength(1)
    expect(errors[0]).toMatch(
      /^MCP server `broken` could not start: .*Check its `command` and `args` \(try it by hand\)\. Its tools are not offered in this run\.$/,
    )
  })

  test('connect() starts the servers now and says which server and what to check', async () => {
    const agent = agentWith(new ScriptedProvider([]), { mcp: [broken] })

    const failure = agent.connect()

    await expect(failure).rejects.toThrow(ConfigError)
    await expect(failure).rejects.toThrow(
      /^MCP server `broken` could not start: .*Check its `command` and `args`/,
    )
  })

  test('close() stops every server that started, even when another failed', async () => {
    const marker = `partial-${String(Date.now())}`
    const agent = new Agent({
      model: new ScriptedProvider(['hi']),
      mcp: [broken, { ...everything, args: [...(everything.args ?? []), marker] }],
    })

    await expect(agent.connect()).rejects.toThrow(ConfigError)
    await agent.close()

    await expect.poll(() => childPids(marker)).toEqual([])
  })

  test('close() during a server’s start stops it once it has started', async () => {
    const marker = `closing-${String(Date.now())}`
    const agent = new Agent({
      model: new ScriptedProvider(['hi']),
      mcp: [{ ...everything, args: [...(everything.args ?? []), marker] }],
    })

    const starting = agent.connect()
    await agent.close()
    await starting

    await expect.poll(() => childPids(marker)).toEqual([])
  })

  test('a server that stops and cannot start again turns the calls of its tools into errors that say why', async () => {
    const marker = `gone-${String(Date.now())}`
    const script = join(mkdtempSync(join(tmpdir(), 'evals-mcp-gone-')), 'start.mjs')
    const serverPath = everything.args?.[0] ?? ''
    // starts server-everything the first time only: the second start finds the flag file and fails
    writeFileSync(
      script,
      `import fs from 'node:fs'; import { pathToFileURL } from 'node:url'
       const flag = process.argv[1] + '.started'
       if (fs.existsSync(flag)) { console.error('refusing to start twice'); process.exit(4) }
       fs.writeFileSync(flag, '')
       process.argv.splice(2, process.argv.length, 'stdio')
       await import(pathToFileURL(${JSON.stringify(serverPath)}).href)`,
    )
    const provider = new ScriptedProvider([
      'first',
      { toolCalls: [{ name: 'get-sum', args: { a: 1, b: 1 } }] },
      'gone',
    ])
    const agent = agentWith(provider, {
      mcp: [{ name: 'once', command: process.execPath, args: [script, marker] }],
    })
    await agent.run('start it')
    for (const pid of await childPids(marker)) process.kill(pid, 'SIGKILL')
    // once the agent has seen the server go, starting it again fails
    await expect
      .poll(() =>
        agent.connect().then(
          () => 'up',
          () => 'down',
        ),
      )
      .toBe('down')

    const second = await agent.run('add 1 and 1')

    expect(second.toolCalls[0]?.error).toMatch(
      /^Tool `get-sum` failed: MCP server `once` could not start: .*refusing to start twice/,
    )
  })

  test("a server tool named like one of the agent's own is a ConfigError that suggests a prefix", async () => {
    const getSum = tool({
      name: 'get-sum',
      description: 'local sum',
      parameters: z.object({ a: z.number() }),
      execute: ({ a }) => a,
    })
    const agent = agentWith(new ScriptedProvider([]), { tools: [getSum], mcp: [everything] })

    await expect(agent.run('hi')).rejects.toThrow(
      'MCP server `everything` has a tool `get-sum`, as the agent does: give the server a `prefix` (e.g. `everything_`) to keep the names apart.',
    )
  })
})

describe('streamable HTTP servers', { timeout: 30_000 }, () => {
  test('server-everything over streamable HTTP serves its tools by URL', async () => {
    const server = await everythingOverHttp()
    cleanups.push(() => {
      server.process.kill()
    })
    const provider = new ScriptedProvider([
      { toolCalls: [{ name: 'echo', args: { message: 'over http' } }] },
      'ok',
    ])
    const agent = agentWith(provider, { mcp: [{ url: server.url }] })

    const result = await agent.run('echo it')

    expect(result.toolCalls[0]).toMatchObject({ name: 'echo', result: 'Echo: over http' })
  })
})
