import { mkdtempSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { expect, test } from 'vitest'
import { CaseFileError, ConfigError } from '../../src/index.ts'
import { loadSuite } from '../../src/cases/load.ts'
import { runSuite } from '../../src/runner/run-suite.ts'
import { childPids } from './servers.ts'

const require = createRequire(import.meta.url)
const agentModule = join(import.meta.dirname, '..', 'fixtures', 'mcp', 'sum-agent.ts')

function caseFile(target: Record<string, unknown>): string {
  const dir = mkdtempSync(join(tmpdir(), 'evals-mcp-cases-'))
  const file = join(dir, 'cases.json')
  writeFileSync(
    file,
    JSON.stringify({
      suite: 'sums',
      target,
      cases: [{ id: 'two-and-three', input: 'add 2 and 3', expect: { contains: 'is 5' } }],
    }),
  )
  return file
}

test(
  "a case file's MCP servers reach the agent's createAgent and stop when the run ends",
  { timeout: 90_000 }, // server-everything starts in seconds alone, several times that beside the typecheck on 2 cores
  async () => {
    const marker = `cases-${String(Date.now())}`
    const file = caseFile({
      agent: agentModule,
      mcp: [
        {
          command: process.execPath,
          args: [require.resolve('@modelcontextprotocol/server-everything/dist/index.js'), 'stdio', marker],
        },
      ],
    })

    const report = await runSuite(await loadSuite(file), {
      outDir: mkdtempSync(join(tmpdir(), 'evals-mcp-out-')),
    })

    expect(report.counts).toMatchObject({ passed: 1, errored: 0 })
    await expect.poll(() => childPids(marker)).toEqual([])
  },
)

test('`mcp` on a target that is not an agent is a case-file error at `target.mcp`', async () => {
  const file = caseFile({ command: 'cat', mcp: [{ url: 'http://127.0.0.1:1/mcp' }] })

  const failure = loadSuite(file)

  await expect(failure).rejects.toThrow(CaseFileError)
  await expect(failure).rejects.toThrow('target.mcp: `mcp` only applies to an `agent` target')
})

test(
  'an MCP server that cannot start stops `evals run` before any case, naming the server, and the others are stopped',
  { timeout: 90_000 }, // server-everything starts in seconds alone, several times that beside the typecheck on 2 cores
  async () => {
    const marker = `preflight-${String(Date.now())}`
    const file = caseFile({
      agent: agentModule,
      mcp: [
        { name: 'broken', command: process.execPath, args: ['-e', 'process.exit(3)'] },
        {
          command: process.execPath,
          args: [require.resolve('@modelcontextprotocol/server-everything/dist/index.js'), 'stdio', marker],
        },
      ],
    })

    const failure = runSuite(await loadSuite(file), { outDir: mkdtempSync(join(tmpdir(), 'evals-mcp-out-')) })

    await expect(failure).rejects.toThrow(ConfigError)
    await expect(failure).rejects.toThrow(
      /cases\.json: target\.agent: `createAgent` in `.*sum-agent\.ts`: MCP server `broken` could not start/,
    )
    await expect.poll(() => childPids(marker)).toEqual([])
  },
)
