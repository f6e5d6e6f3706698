import { spawn, type ChildProcess } from 'node:child_process'
import { createRequire } from 'node:module'
import { createServer } from 'node:net'
import { fileURLToPath } from 'node:url'
import type { McpStdioServer } from '../../src/index.ts'
import { plainNodeScript } from '../setup/plain-node-script.ts'

const require = createRequire(import.meta.url)

/** The installed server-everything, run with this Node over stdio. */
export const everything: McpStdioServer = {
  name: 'everything',
  command: process.execPath,
  args: [require.resolve('@modelcontextprotocol/server-everything/dist/index.js'), 'stdio'],
}

/** The installed server-filesystem, allowed to touch `dir` only. */
export function filesystem(dir: string): McpStdioServer {
  return {
    name: 'filesystem',
    command: process.execPath,
    args: [require.resolve('@modelcontextprotocol/server-filesystem/dist/index.js'), dir],
  }
}

/** The fixture server whose tool list grows when `unlock` is called. */
export const unlocking: McpStdioServer = {
  name: 'unlocking',
  command: process.execPath,
  args: [
    await plainNodeScript(fileURLToPath(new URL('../fixtures/mcp/unlocking-server.ts', import.meta.url))),
  ],
}

/** Starts server-everything over streamable HTTP on a free loopback port; resolves once it listens. */
export async function everythingOverHttp(): Promise<{ url: string; process: ChildProcess }> {
  const port = await freePort()
  const child = spawn(process.execPath, [...(everything.args ?? []).slice(0, 1), 'streamableHttp'], {
    env: { ...process.env, PORT: String(port) },
    stdio: ['ignore', 'ignore', 'pipe'],
  })
  await new Promise<void>((resolve, reject) => {
    let stderr = ''
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString()
      if (stderr.includes('listening on port')) resolve()
    })
    child.once('exit', (code) => {
      reject(new Error(`server-everything exited with ${String(code)}: ${stderr}`))
    })
  })
  return { url: `http://127.0.0.1:${port}/mcp`, process: child }
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer()
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const address = server.address()
      server.close(() => {
        resolve(typeof address === 'object' && address !== null ? address.port : 0)
      })
    })
  })
}

/** Pids of this process's children whose command line contains `needle`. */
export async function childPids(needle: string): Promise<number[]> {
  const { execFileSync } = await import('node:child_process')
  return execFileSync('ps', ['-o', 'pid=,args=', '--ppid', String(process.pid)], { encoding: 'utf8' })
    .split('\n')
    .filter((line) => line.includes(needle))
    .map((line) => Number.parseInt(line.trim(), 10))
}
