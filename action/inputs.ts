import * as core from '@actions/core'
import { FAIL_ON, type FailOn } from '../src/baselines/outcome.ts'
import type { CassetteMode } from '../src/replay/cassette.ts'
import { ConfigError } from '../src/errors.ts'
import { redactPatternProblem } from '../src/util/redact.ts'

/** What fails the job, after the report and the comment are out: the words of `evals run --fail-on`. */
export type { FailOn }

/** The action's inputs, as action.yml documents them. */
export interface ActionInputs {
  /** case files or globs, one per line */
  cases: string[]
  /** compare with `<dir>/<suite>.json` and apply the gate */
  baselineDir?: string
  /** `ok`: a suite without a baseline file runs ungated, with a warning; `error` stops the run */
  baselineMissing: 'error' | 'ok'
  /** overrides the suites' `model:` */
  model?: string
  /** upsert the sticky PR comment */
  comment: boolean
  failOn: FailOn
  /** where the case paths and `out-dir` are resolved */
  workingDirectory: string
  outDir: string
  /** `--reporter` names or module paths; `json` and `markdown` are always added */
  reporters: string[]
  token: string
  trials?: number
  concurrency?: number
  /** regular expressions for secrets of the user's own, one per line, as `evals run --redact` */
  redact: string[]
  /** `record`, `replay` or `auto`, as `evals run --record` / `--replay` / `--replay auto`; absent: live calls */
  cassettes?: CassetteMode
}

const CASSETTE_MODES: readonly CassetteMode[] = ['record', 'replay', 'auto']

/** Reads and checks every input; throws a ConfigError naming the input on a bad value. */
export function readInputs(): ActionInputs {
  const cases = core.getMultilineInput('cases', { required: true })
  const failOn = core.getInput('fail-on') || 'failure'
  if (!(FAIL_ON as readonly string[]).includes(failOn)) {
    throw new ConfigError(`Input \`fail-on\` must be one of ${FAIL_ON.join(', ')}; got "${failOn}".`)
  }
  const baselineMissing = core.getInput('baseline-missing') || 'ok'
  if (baselineMissing !== 'error' && baselineMissing !== 'ok') {
    throw new ConfigError(`Input \`baseline-missing\` must be \`error\` or \`ok\`; got "${baselineMissing}".`)
  }
  const optional = (name: string): string | undefined => core.getInput(name) || undefined
  const baselineDir = optional('baseline-dir')
  const model = optional('model')
  const trials = positiveInt('trials')
  const concurrency = positiveInt('concurrency')
  const cassettes = optional('cassettes')
  if (cassettes !== undefined && !(CASSETTE_MODES as readonly string[]).includes(cassettes)) {
    throw new ConfigError(
      `Input \`cassettes\` must be one of ${CASSETTE_MODES.join(', ')}, or empty for live calls; got "${cassettes}".`,
    )
  }
  return {
    cases,
    baselineMissing,
    comment: core.getInput('comment') === '' || core.getBooleanInput('comment'),
    failOn: failOn as FailOn,
    workingDirectory: core.getInput('working-directory') || '.',
    outDir: core.getInput('out-dir') || 'reports',
    reporters: (core.getInput('reporters') || 'console').split(/[\s,]+/).filter((name) => name !== ''),
    token: core.getInput('github-token'),
    redact: redactInput(),
    ...(baselineDir !== undefined && { baselineDir }),
    ...(model !== undefined && { model }),
    ...(trials !== undefined && { trials }),
    ...(concurrency !== undefined && { concurrency }),
    ...(cassettes !== undefined && { cassettes: cassettes as CassetteMode }),
  }
}

function redactInput(): string[] {
  const patterns = core.getMultilineInput('redact')
  for (const pattern of patterns) {
    const problem = redactPatternProblem(pattern)
    if (problem !== undefined) throw new ConfigError(`Input \`redact\`: ${problem}.`)
  }
  return patterns
}

function positiveInt(name: string): number | undefined {
  const text = core.getInput(name)
  if (text === '') return undefined
  const value = Number(text)
  if (!Number.isInteger(value) || value < 1) {
    throw new ConfigError(`Input \`${name}\` must be a positive integer; got "${text}".`)
  }
  return value
}
