import { mkdtempSync, readdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, test, vi } from 'vitest'
import { main } from '../../src/cli/main.ts'
import { parseRunFlags } from '../../src/cli/options.ts'
import { runCli, runShell } from '../e2e/helpers.ts'

const work = mkdtempSync(join(tmpdir(), 'evals-messages-'))
afterAll(() => {
  rmSync(work, { recursive: true, force: true })
})

/** `main` in this process, with what it wrote to stdout and stderr. */
async function mainOf(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = ''
  let stderr = ''
  const out = vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => {
    stdout += String(chunk)
    return true
  })
  const err = vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => {
    stderr += String(chunk)
    return true
  })
  try {
    return { code: await main(args), stdout, stderr }
  } finally {
    out.mockRestore()
    err.mockRestore()
  }
}

describe('a flag given without its value', () => {
  test('names the flag, what it takes and what it is for, never a made-up value', () => {
    expect(() => parseRunFlags(['cases.yaml', '--model'])).toThrow(
      "evals run: `--model` needs a value: `--model <provider:model>` — model for agent targets; overrides the files' " +
        '`model:` (e.g. openai:gpt-4.1-mini); repeat it to compare models: each runs every case as a variant.',
    )
    expect(() => parseRunFlags(['cases.yaml', '--out'])).toThrow(
      'evals run: `--out` needs a value: `--out <dir>` — where `<run-id>/` with results and reports goes (default reports).',
    )
  })

  test('followed by another flag, says that flag was read as one and how to pass a value with a dash', () => {
    expect(() => parseRunFlags(['cases.yaml', '--tag', '--out', 'x'])).toThrow(
      'evals run: `--tag` needs a value: `--tag <tag>` — only cases with this tag; repeat for any of several. ' +
        'It is followed by `--out`, which is read as a flag; a value starting with a dash goes as `--tag=-value`.',
    )
  })
})

describe('evals with no command', () => {
  test('prints the help to stderr and exits 2, as a usage error', async () => {
    const run = await mainOf([])
    expect(run.code).toBe(2)
    expect(run.stdout).toBe('')
    expect(run.stderr).toMatch(/^evals \S+ — evaluation and regression testing for LLM agents\n\nUsage\n/)
  })

  test('`evals --help` prints the same help to stdout and exits 0', async () => {
    const run = await mainOf(['--help'])
    expect(run.code).toBe(0)
    expect(run.stdout).toMatch(/^evals \S+ — evaluation/)
  })
})

test('`evals baseline show` of a missing file says how baselines are made, with flags `evals run` takes', async () => {
  const missing = join(work, 'nope.json')
  const run = await mainOf(['baseline', 'show', missing])
  expect(run.code).toBe(2)
  expect(run.stderr).toBe(
    `evals baseline show: \`${missing}\` does not exist. Baselines are written by \`evals run <case-file> --update-baseline\`, ` +
      'into `baselines/<suite>.json` (`--baseline-dir` moves them).\n',
  )
  expect(run.stderr).not.toContain('--baseline-missing')
})

describe('a reader that stops early (`| head`)', () => {
  const firstBytes = (command: string) =>
    runShell('bash', ['-c', `${command} | head -c 1 >/dev/null; echo "exit \${PIPESTATUS[0]}"`])

  test('`evals schema | head` exits 0 without an EPIPE trace', async () => {
    const run = await firstBytes(`node bin/evals.js schema`)
    expect(run.stderr).toBe('')
    expect(run.stdout).toBe('exit 0\n')
  })

  test('`evals run … | head` finishes the run, writes its results, and exits with its own code', async () => {
    const out = join(work, 'piped')
    const run = await firstBytes(
      `node bin/evals.js run cases/quickstart.yaml --reporter console --out ${out}`,
    )
    expect(run.stderr).toBe('')
    expect(run.stdout).toBe('exit 0\n')
    const [runDir = ''] = readdirSync(out).filter((name) => name !== 'index.jsonl')
    expect(readdirSync(join(out, runDir))).toContain('summary.json')
  })
})

test('the console lists report.json beside report.md when only markdown is asked for, as the README says', async () => {
  const out = join(work, 'markdown')
  const run = await runCli(['run', 'cases/quickstart.yaml', '--reporter', 'console,markdown', '--out', out])
  expect(run.code).toBe(0)
  const [runDir = ''] = readdirSync(out).filter((name) => name !== 'index.jsonl')
  const dir = join(out, runDir)
  expect(readdirSync(dir).filter((name) => name.startsWith('report.'))).toEqual(['report.json', 'report.md'])
  expect(run.stdout).toContain(`Reports   ${join(dir, 'report.json')}\n          ${join(dir, 'report.md')}\n`)
})
