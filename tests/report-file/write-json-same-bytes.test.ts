import { mkdtempSync, readFileSync, writeFileSync, existsSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import { writeJsonReport } from '../../src/report-file/write-json.ts'
import { ResultRows } from '../../src/report-file/large-run/index.ts'
import type { CaseResult } from '../../src/model/case-result.ts'
import { JsonLinesFile } from '../../src/runner/results/results-file.ts'
import { syntheticResult, writeRun } from '../reporters/synthetic.ts'
import { referenceJsonReport } from './reference-json-report.ts'

const SECRET = 'hunter2-hunter2-secret'

/** A results.jsonl line for a passing case, with `extra` members after the usual ones. */
function raw(suite: string, caseId: string, extra = ''): string {
  return `{"suite":"${suite}","caseId":"${caseId}","trial":0,"status":"passed","verdicts":[]${extra}}`
}

function judged(i: number, suite: string, model: string): CaseResult {
  const result = syntheticResult(i, suite)
  if (result.status === 'skipped') return result
  const details = {
    judgeModel: model,
    specHash: `spec-${model.length}`,
    reasons: ['polite'],
    costUsd: 0.0001,
  }
  return {
    ...result,
    verdicts: [...result.verdicts, { evaluator: 'rubric', weight: 1, pass: true, reason: 'ok', details }],
  }
}

/** Results in completion-like order from two suites and one the run does not list, with every awkward line. */
function mixedLines(): (string | Buffer)[] {
  const lines: (string | Buffer)[] = []
  for (let k = 0; k < 900; k++) {
    const i = (k * 7919) % 900
    const suite = i % 3 === 0 ? 'billing' : 'support'
    const result: CaseResult =
      i % 50 === 7
        ? judged(i, suite, i % 2 ? 'openai:gpt-4.1' : 'anthropic:claude')
        : syntheticResult(i, suite)
    lines.push(JSON.stringify({ ...result, trial: i % 4 === 1 ? 2 : i % 4 === 2 ? 1 : 0 }))
    if (i % 97 === 5) lines.push(JSON.stringify({ ...result, trial: 3 }))
  }
  const leaky = syntheticResult(11)
  if (leaky.status !== 'skipped') {
    const transcript = {
      ...leaky.transcript,
      output: `key ${SECRET} and eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJsZWFrZWQifQ.c2lnbmF0dXJlLXZhbHVl, line\nbreak-secret`,
    }
    lines.push(JSON.stringify({ ...leaky, caseId: 'leaky', transcript }))
  }
  const unicode = syntheticResult(12)
  if (unicode.status !== 'skipped') {
    const transcript = {
      ...unicode.transcript,
      output: 'héllo — “quotes” 日本語 🎉 \u2028 \u007f',
      toolCalls: [
        {
          id: 'c',
          name: 'look_up',
          args: { ключ: 1, z: 2, é: 3, '\ue000': 4, '😀': 5, '\uffff': 6 },
          durationMs: 1,
        },
      ],
    }
    lines.push(JSON.stringify({ ...unicode, caseId: 'unicodé-☕', transcript }))
  }
  const huge = syntheticResult(13)
  if (huge.status !== 'skipped') {
    const output = `${'a long answer — '.repeat(80_000)}end`
    lines.push(JSON.stringify({ ...huge, caseId: 'huge', transcript: { ...huge.transcript, output } }))
  }
  lines.push(
    '',
    '   \t',
    '{ "suite": "support", "caseId": "spaced", "trial": 0, "status": "passed", "verdicts": [] }',
    raw(
      'support',
      'numbers',
      ',"n":[1.0,1e-7,1E5,-0,0.10000000000000001,100,1e21,123456789012345678,0.1,-1.5e-9]',
    ),
    raw(
      'support',
      'escapes',
      ',"s":"a\\u0041\\/b\\u00e9\\ud83d\\ude00\\u001f\\\\\\"\\n","t":"C:\\\\path\\\\"',
    ),
    raw('support', 'integer-keys', ',"args":{"10":1,"2":2,"b":3,"a":4}'),
    raw('support', 'proto', ',"x":{"__proto__":{"a":1},"b":1},"y":{"__proto__":5,"a":[{}]}'),
    raw('support', 'dup-a', ',"caseId":"dup-z"'),
    raw('support', 'escaped-key', ',"x":{"a\\"b":1,"a":2}'),
    raw(
      'support',
      'ascii-order',
      ',"o":{"b":1,"B":2,"_":3,"a_b":4,"a":5,"ab":6,"":7},"e":[[],{},[{}],{"a":[]}]',
    ),
    raw('support', 'deep', `,"d":${'['.repeat(300)}1${']'.repeat(300)}`),
    raw('support', 'sorted', '').replace(
      '{"suite":"support","caseId":"sorted","trial":0,"status":"passed","verdicts":[]}',
      '{"caseId":"sorted","status":"passed","suite":"support","trial":0,"verdicts":[]}',
    ),
    '{"suite":"support","caseId":"string-trial","trial":"1","status":"passed","verdicts":[]}',
    '{"suite":"sup\\"port","caseId":"quoted-suite","trial":0,"status":"passed","verdicts":[]}',
    '{"suite":"support","caseId":"esc-judge","trial":0,"status":"passed","verdicts":[{"evaluator":"rubric","weight":1,"pass":true,"reason":"ok","details":{"judge\\u004dodel":"escaped:model"}}]}',
    '{"suite":"support","caseId":"skipped-judge","trial":0,"status":"skipped","reason":"judgeModel named","verdicts":[{"evaluator":"x","details":{"judgeModel":"not-counted"}}]}',
    raw('other', 'unlisted-suite'),
    Buffer.concat([
      Buffer.from(raw('support', 'bad-utf8', ',"s":"').slice(0, -1)),
      Buffer.from([0xff, 0xfe, 0xe2, 0x82]),
      Buffer.from('"}'),
    ]),
    Buffer.concat([
      Buffer.from('{"suite":"support","caseId":"bad-'),
      Buffer.from([0xc3]),
      Buffer.from('id","trial":0,"status":"passed","verdicts":[]}'),
    ]),
  )
  lines.push(raw('billing', 'last-without-newline'))
  return lines
}

function writeResults(lines: (string | Buffer)[], trailingNewline: boolean): { dir: string; file: string } {
  const dir = mkdtempSync(join(tmpdir(), 'evals-same-bytes-'))
  const file = join(dir, 'results.jsonl')
  const parts = lines.flatMap((line, i) =>
    i === 0 ? [Buffer.from(line)] : [Buffer.from('\n'), Buffer.from(line)],
  )
  writeFileSync(file, Buffer.concat(trailingNewline ? [...parts, Buffer.from('\n')] : parts))
  return { dir, file }
}

async function bothReports(
  lines: (string | Buffer)[],
  env: NodeJS.ProcessEnv,
  trailingNewline = false,
): Promise<{ now: string; before: string }> {
  const { dir } = writeResults(lines, trailingNewline)
  const run = {
    ...writeRun(join(dir, 'unused'), [], ['support', 'billing']),
    dir,
    resultsFile: join(dir, 'results.jsonl'),
  }
  const path = await writeJsonReport(run, { env, cwd: dir, cliVersion: '9.9.9' })
  return { now: readFileSync(path, 'utf8'), before: referenceJsonReport(run, { cliVersion: '9.9.9', env }) }
}

describe('writeJsonReport, reading results.jsonl itself, writes each row parsed and in canonical JSON', () => {
  test('for a mixed results file: suites, trials, judges, unicode, a line over 1 MiB, odd lines', async () => {
    const { now, before } = await bothReports(mixedLines(), {})
    expect(now.length).toBeGreaterThan(2_000_000)
    expect(now).toContain('"caseId":"dup-z"')
    expect(now).toContain('"escaped:model"')
    expect(now === before).toBe(true)
  })

  test('with secrets to redact, one of them holding a line break', async () => {
    const env = { OPENAI_API_KEY: SECRET, ANTHROPIC_API_KEY: 'line\nbreak-secret' }
    const { now, before } = await bothReports(mixedLines(), env, true)
    expect(now).toContain('[redacted OPENAI_API_KEY]')
    expect(now).not.toContain('eyJzdWIiOiJsZWFrZWQifQ')
    expect(now).not.toContain(SECRET)
    expect(now === before).toBe(true)
  })

  test('for lines in file order, reverse order and one line', async () => {
    const lines = mixedLines().filter((line) => typeof line === 'string' && line.startsWith('{"suite":"s'))
    for (const order of [lines, [...lines].reverse(), lines.slice(0, 1)]) {
      const { now, before } = await bothReports(order, { OPENAI_API_KEY: SECRET })
      expect(now === before).toBe(true)
    }
  })

  test('for no lines at all', async () => {
    const { now, before } = await bothReports(['', ''], {})
    expect(now).toBe(before)
  })

  test('fails as JSON.parse does on a line that is not JSON, and leaves no report', async () => {
    const bad = '{"suite":"support","caseId":"bad","trial":0,"status":"passed","verdicts":[}'
    const { dir } = writeResults([raw('support', 'good'), bad], true)
    const run = { ...writeRun(join(dir, 'unused'), []), dir, resultsFile: join(dir, 'results.jsonl') }
    const message = (() => {
      try {
        JSON.parse(bad)
      } catch (error) {
        return (error as Error).message
      }
      return ''
    })()
    await expect(writeJsonReport(run, { env: {}, cwd: dir })).rejects.toThrow(message)
    expect(existsSync(join(dir, 'report.json'))).toBe(false)
  })
})

/** Appends the results as the runner does, indexing each row as it is written. */
function appendRows(dir: string, results: readonly unknown[], suites: readonly string[]): ResultRows {
  const file = new JsonLinesFile(join(dir, 'results.jsonl'))
  const rows = new ResultRows()
  for (const result of results) {
    const { suite, caseId, trial } = result as CaseResult
    const offset = file.offset
    const bytes = file.append(result)
    const index = suites.indexOf(suite)
    rows.add(index === -1 ? suites.length : index, caseId, trial, offset, bytes, true)
    if ((result as CaseResult).status !== 'skipped') rows.judges.add((result as { verdicts: [] }).verdicts)
  }
  file.close()
  return rows
}

describe('writeJsonReport, given the rows the runner indexed, copies them', () => {
  /** Results as a runner meets them: out of order, keys in any order, a 1.5 MB output, secrets, judges. */
  function runnerResults(): unknown[] {
    const results: unknown[] = []
    for (let k = 0; k < 600; k++) {
      const i = (k * 7919) % 600
      const suite = i % 3 === 0 ? 'billing' : i % 11 === 0 ? 'unlisted' : 'support'
      const result = i % 50 === 7 ? judged(i, suite, 'openai:gpt-4.1') : syntheticResult(i, suite)
      results.push({ ...result, trial: i % 4 === 1 ? 1 : 0 })
    }
    const leaky = syntheticResult(11)
    if (leaky.status !== 'skipped')
      results.push({
        ...leaky,
        caseId: 'leaky',
        transcript: {
          ...leaky.transcript,
          output: `key ${SECRET}, eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJsZWFrZWQifQ.c2lnbmF0dXJlLXZhbHVl`,
        },
      })
    results.push({
      trial: 0,
      caseId: 'big',
      suite: 'support',
      status: 'passed',
      verdicts: [],
      out: 'é'.repeat(1_500_000),
    })
    results.push({
      caseId: 'sorted',
      status: 'passed',
      suite: 'support',
      trial: 0,
      verdicts: [],
      x: { 10: 1, 9: 2, b: 3, a: 4 },
    })
    return results
  }

  for (const env of [{}, { OPENAI_API_KEY: SECRET }]) {
    test(`to the bytes of the parsing writer${'OPENAI_API_KEY' in env ? ', redacting secrets' : ''}`, async () => {
      const dir = mkdtempSync(join(tmpdir(), 'evals-rows-'))
      const suites = ['support', 'billing']
      const rows = appendRows(dir, runnerResults(), suites)
      const run = {
        ...writeRun(join(dir, 'unused'), [], suites),
        dir,
        resultsFile: join(dir, 'results.jsonl'),
      }
      const path = await writeJsonReport({ ...run, rows }, { env, cwd: dir, cliVersion: '9.9.9' })
      const now = readFileSync(path, 'utf8')
      expect(now).toContain('"caseId":"big"')
      expect(now).toContain('"x":{"9":2,"10":1,"a":4,"b":3}')
      expect(now.includes(SECRET)).toBe(!('OPENAI_API_KEY' in env))
      expect(now === referenceJsonReport(run, { cliVersion: '9.9.9', env })).toBe(true)
    })
  }
})
