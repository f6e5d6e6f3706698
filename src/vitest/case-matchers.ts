/**
 * The async matchers, `toPassCase` and `toPassJudge`: every check of the case-file format, compiled by
 * `compileEvaluators` and run by the runner's `runCase`, so a test grades exactly as `evals run` does.
 */
import { dirname } from 'node:path'
import type { Assertion, Expectations } from '../cases/schema.ts'
import { ConfigError } from '../errors.ts'
import { code } from '../evaluators/describe.ts'
import type { Evaluator } from '../evaluators/evaluator.ts'
import { compileEvaluators } from '../cases/compile-evaluators.ts'
import type { JudgeItem, JudgeOptions } from '../evaluators/index.ts'
import type { Provider } from '../providers/provider.ts'
import { DEFAULT_TIMEOUT_MS } from '../runner/plan/defaults.ts'
import type { CaseResult } from '../model/case-result.ts'
import { runCase } from '../runner/execute/run-case.ts'
import type { Target } from '../targets/target.ts'
import type { Transcript } from '../types.ts'
import { envRedactor, type Redactor } from '../util/redact.ts'
import { toMatcherResult, type MatcherResult, type Outcome } from './format.ts'
import { toSubjectTranscript } from './subject.ts'

/** The checks of one case: a CaseDefinition from `loadSuite`, or just the parts of one a test writes by hand. */
export interface CaseChecks {
  /** names the case in messages @default 'case' */
  id?: string
  /** shorthand checks, as under `expect:` in a case file */
  expect?: Expectations
  /** long-form checks, as under `assert:` */
  assert?: Assertion[]
  /** LLM judges, as under `judge:`; they need `judge.model` (or `judge.provider`) in the options */
  judge?: JudgeItem[]
  /** the case's template variables, rendered into judge items and given to custom checks */
  vars?: Record<string, unknown>
  /** limit on the checks (judges included) @default 60_000 */
  timeoutMs?: number
}

export interface ToPassCaseOptions {
  /** where relative module paths (`custom: ./checks.ts#name`, judge `spec:` files) resolve @default the test file's directory */
  baseDir?: string
  /** judge settings, as the suite's `judge:` (`model`, `temperature`, `output`) plus a `provider` to use instead */
  judge?: JudgeOptions
}

/** Options of `toPassJudge`; one of `model` and `provider` is needed. */
export interface ToPassJudgeOptions {
  /** pass when the mean score is ≥ this, on the judge's scale @default the judge's (7 of 10; 8 for safety judges) */
  threshold?: number
  /** judge model string, e.g. `openai:gpt-4.1-mini` */
  model?: string
  /** a Provider to judge with instead of `model`, e.g. a ScriptedProvider in tests */
  provider?: Provider
  /** ask the judge this many times and grade on the mean @default 1 */
  samples?: number
  /** @default 0 */
  temperature?: number
  /** the expected answer, for judges that compare with one (correctness, summary, pairwise) */
  reference?: string
  /** source material the output must be grounded in (faithfulness, hallucination) */
  context?: string | string[]
  /** where a judge item's `spec:` file and pinned g-eval steps go @default the test file's directory */
  baseDir?: string
}

/** What the matchers learn from vitest besides their arguments. */
export interface MatcherScope {
  /** the running test file; relative paths resolve against its directory */
  testPath?: string | undefined
}

export async function toPassCase(
  received: unknown,
  caseDef: CaseChecks,
  options: ToPassCaseOptions = {},
  scope: MatcherScope = {},
): Promise<MatcherResult> {
  const transcript = toSubjectTranscript(received, 'toPassCase')
  const id = caseDef.id ?? 'case'
  const evaluators = compileEvaluators(
    {
      id,
      expect: caseDef.expect ?? {},
      assert: caseDef.assert ?? [],
      ...(caseDef.judge === undefined ? {} : { judge: caseDef.judge }),
      ...(caseDef.vars === undefined ? {} : { vars: caseDef.vars }),
    },
    { baseDir: baseDirOf(options.baseDir, scope), ...(options.judge ? { judge: options.judge } : {}) },
  )
  const result = await runCase(
    {
      suite: 'vitest',
      caseId: id,
      trial: 0,
      tags: [],
      weight: 1,
      input: transcript.input,
      vars: caseDef.vars ?? {},
      target: replay(transcript),
      evaluators,
      timeoutMs: caseDef.timeoutMs ?? DEFAULT_TIMEOUT_MS,
    },
    new AbortController().signal,
  )
  return toMatcherResult(caseOutcome('toPassCase', result), transcript)
}

/**
 * The outcome of a finished case, as `toPassCase` and `describeSuite` report it. Throws the case's error when it
 * errored: an error is not a failure, so neither `.not` nor a failing test may hide it.
 */
export function caseOutcome(
  matcher: string,
  result: CaseResult,
  redactor: Redactor = envRedactor(),
): Outcome {
  if (result.status === 'skipped') {
    throw new Error(redactor(`Case ${code(result.caseId)} was skipped: ${result.reason}`))
  }
  if (result.status === 'errored') {
    const error = new Error(redactor(`Case ${code(result.caseId)} errored: ${result.error.message}`))
    error.name = result.error.name
    throw error
  }
  const { verdicts } = result
  const failed = verdicts.filter((verdict) => !verdict.pass)
  const mark = (verdict: (typeof verdicts)[number]): string =>
    verdict.skipped === true ? '○' : verdict.pass ? '✓' : '✗'
  const summary =
    failed.length === 0
      ? `all ${verdicts.length} checks passed (score ${result.score.toFixed(2)})`
      : `${failed.length} of ${verdicts.length} checks failed (score ${result.score.toFixed(2)})`
  return {
    matcher,
    pass: result.status === 'passed',
    expected: `every check of case ${code(result.caseId)} to pass`,
    notExpected: `some check of case ${code(result.caseId)} to fail`,
    reasons: [
      summary,
      ...verdicts.map((verdict) => `${mark(verdict)} ${verdict.evaluator}: ${verdict.reason}`),
    ],
    show: ['calls', 'output'],
    diff: {
      actual: verdicts.map((verdict) => `${mark(verdict)} ${verdict.evaluator}`),
      expected: verdicts.map((verdict) => `✓ ${verdict.evaluator}`),
    },
  }
}

export async function toPassJudge(
  received: unknown,
  judge: string | JudgeItem,
  options: ToPassJudgeOptions = {},
  scope: MatcherScope = {},
): Promise<MatcherResult> {
  const transcript = toSubjectTranscript(received, 'toPassJudge')
  if (options.model === undefined && options.provider === undefined) {
    throw new ConfigError(
      "`toPassJudge` needs a judge model: pass `{ model: 'openai:gpt-4.1-mini' }` (or a `provider`) as its second argument.",
    )
  }
  const item: JudgeItem = {
    ...(typeof judge === 'string' ? { rubric: judge } : judge),
    ...defined({
      threshold: options.threshold,
      samples: options.samples,
      reference: options.reference,
      context: options.context,
    }),
  }
  const judgeOptions: JudgeOptions = defined({
    model: options.model,
    provider: options.provider,
    temperature: options.temperature,
  })
  const evaluator = compileJudge(item, baseDirOf(options.baseDir, scope), judgeOptions)
  const verdict = await evaluator.evaluate(transcript, {
    caseId: 'toPassJudge',
    trial: 0,
    signal: new AbortController().signal,
    vars: {},
  })
  if (verdict.skipped === true) throw new ConfigError(`\`toPassJudge\`: ${verdict.reason}`)
  const { threshold, scale } = verdict.details ?? {}
  const bar =
    typeof threshold === 'number' && typeof scale === 'number' ? `${threshold} of ${scale}` : 'threshold'
  return toMatcherResult(
    {
      matcher: 'toPassJudge',
      pass: verdict.pass,
      expected: `${code(evaluator.name)} score ≥ ${bar}`,
      notExpected: `${code(evaluator.name)} score < ${bar}`,
      reasons: [verdict.reason],
      show: ['calls', 'output'],
    },
    transcript,
  )
}

function compileJudge(item: JudgeItem, baseDir: string, judge: JudgeOptions): Evaluator {
  try {
    const [evaluator] = compileEvaluators({ expect: {}, assert: [], judge: [item] }, { baseDir, judge })
    if (evaluator === undefined) throw new TypeError('`toPassJudge`: no judge was built')
    return evaluator
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error
    throw new ConfigError(
      `\`toPassJudge\` got an invalid judge: ${error.message.replace(/^judge\[0\]: /, '')}`,
      {
        cause: error,
      },
    )
  }
}

/** A target that plays back a transcript the test already has, so `runCase` only grades it. */
function replay(transcript: Transcript): Target {
  return { id: 'vitest', run: () => Promise.resolve(transcript) }
}

function baseDirOf(baseDir: string | undefined, scope: MatcherScope): string {
  return baseDir ?? (scope.testPath === undefined ? process.cwd() : dirname(scope.testPath))
}

function defined<T extends Record<string, unknown>>(value: T): { [K in keyof T]?: Exclude<T[K], undefined> } {
  return Object.fromEntries(Object.entries(value).filter(([, entry]) => entry !== undefined)) as {
    [K in keyof T]?: Exclude<T[K], undefined>
  }
}
