import { mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Suite } from '../../src/cases/suite.ts'
import type { CaseDefinition } from '../../src/cases/case-definition.ts'
import type { CaseResult } from '../../src/model/case-result.ts'
import type { Target } from '../../src/targets/target.ts'
import { emptyUsage, type Transcript, type Turn } from '../../src/types.ts'
import { CaseList } from '../../src/cases/case-list.ts'

/** A case with defaults: input = id, no checks, weight 1, one trial. */
export function caseOf(id: string, fields: Partial<CaseDefinition> = {}): CaseDefinition {
  return {
    id,
    input: id,
    vars: {},
    tags: [],
    weight: 1,
    only: false,
    trials: 1,
    expect: {},
    assert: [],
    line: 1,
    ...fields,
  }
}

export function suiteOf(cases: CaseDefinition[], fields: Partial<Suite> = {}): Suite {
  return {
    name: 'demo',
    file: join(import.meta.dirname, 'demo.yaml'),
    target: { type: 'function', module: join(import.meta.dirname, 'nowhere.ts'), exportName: 'default' },
    trials: 1,
    cases: CaseList.of(cases),
    ...fields,
  }
}

export function transcriptOf(
  input: string | Turn[],
  output: string,
  fields: Partial<Transcript> = {},
): Transcript {
  return {
    input,
    messages: [],
    output,
    source: 'target',
    toolCalls: [],
    usage: emptyUsage(),
    costUsd: null,
    latencyMs: 1,
    iterations: 1,
    ...fields,
  }
}

/** An in-process target; `behave` decides per input. */
export function targetOf(
  behave: (input: string, signal: AbortSignal, trial: number) => Promise<Transcript> | Transcript,
): Target {
  return {
    id: 'test:target',
    run: async (input, context) =>
      behave(typeof input === 'string' ? input : JSON.stringify(input), context.signal, context.trial),
  }
}

export function targetsFor(suite: Suite, target: Target): Map<string, Target> {
  return new Map([[suite.file, target]])
}

export function tempDir(): string {
  return mkdtempSync(join(tmpdir(), 'evals-runner-'))
}

export function readResults(file: string): CaseResult[] {
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as CaseResult)
}

export const never = (signal: AbortSignal): Promise<Transcript> =>
  new Promise((_, reject) => {
    signal.addEventListener('abort', () => {
      reject(new Error('aborted'))
    })
  })
