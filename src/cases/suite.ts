import type { GateOptions } from '../baselines/gate-options.ts'
import type { JudgeSettings } from '../evaluators/llm-judge-options.ts'
import type { TargetSpec } from '../targets/target.ts'
import type { CaseList } from './case-list.ts'

/** A loaded case file: validated, templated, paths resolved, defaults merged into every case. */
export interface Suite {
  /** the `suite:` name */
  name: string
  description?: string
  /** absolute path of the case file */
  file: string
  /** SHA-256 of the case file's bytes as loaded; absent for a suite made in code */
  fileHash?: string
  /** SHA-256 over the CSV and JSONL files its `cases:` names, as read; absent when it names none */
  datasetsHash?: string
  target: TargetSpec
  /** model for agent targets; `--model` overrides it */
  model?: string
  /** suite-level judge settings; `--judge` overrides the model */
  judge?: JudgeSettings
  /** suite-level trials @default 1 */
  trials: number
  /** suite-level per-case timeout */
  timeoutMs?: number
  /** the `gate:` block, defaults applied; `--alpha` and the other gate flags win over it */
  gate?: GateOptions
  /** the `redact:` patterns: regular expressions whose matches never reach a file or the console */
  redact?: string[]
  /**
   * the `trace: { quiet_ms, max_wait_ms, port }` settings: how long spans are waited for after an http or command
   * target replied, and the port of the run's OTLP receiver
   */
  traceSettings?: { quietMs?: number; maxWaitMs?: number; port?: number }
  /** the `variants:` block: every case runs once per variant */
  variants?: Variant[]
  /** the variant this copy of the suite runs under; set by the runner, which makes one copy per variant */
  variant?: Variant
  cases: CaseList
}

/** One way to run a suite's cases (`variants:` or several `--model`): a name plus what it changes. */
export interface Variant {
  /** unique within the suite; results, baselines and reports carry it */
  name: string
  /** the model for agent and function targets, instead of the suite's */
  model?: string
  /** the target, instead of the suite's */
  target?: TargetSpec
  /** merged over each case's vars; they reach the target and the checks (the input is rendered with the case's) */
  vars?: Record<string, unknown>
  /** merged over the suite's `judge:` settings */
  judge?: JudgeSettings
  /** the variant the others are compared with and gated against */
  baseline?: boolean
}

export type { CaseList, JudgeSettings }

/** Which cases `loadSuites` keeps. */
export interface SelectOptions {
  /** case id pattern: `*` is a wildcard over the whole id; without `*`, a substring match */
  filter?: string
  /** keep cases carrying at least one of these tags */
  tags?: readonly string[]
}
