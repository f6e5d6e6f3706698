import type { GateOptions } from '../baselines/gate-options.ts'
import type { JudgeItem, JudgeSettings } from '../evaluators/llm-judge-options.ts'
import type { McpServerOptions } from '../mcp/options.ts'
import type { Turn } from '../types.ts'
import type { CaseList } from './case-list.ts'
import type { Assertion, Expectations } from './schema.ts'

/** A loaded case file: validated, templated, paths resolved, defaults merged into every case. */
export interface Suite {
  /** the `suite:` name */
  name: string
  description?: string
  /** absolute path of the case file */
  file: string
  /** SHA-256 of the case file's bytes as loaded; absent for a suite made in code */
  fileHash?: string
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

/** How to reach the system under test. Module paths are absolute, resolved against the case file. */
export type TargetSpec =
  | {
      type: 'agent'
      /** absolute path of a module whose default export is an Agent or `(input, ctx) => string | Transcript` */
      module: string
      /** MCP servers for the module's `createAgent({ model, mcp })`; a stdio server's `cwd` is absolute */
      mcp?: McpServerOptions[]
    }
  | {
      type: 'function'
      /** absolute path of the module */
      module: string
      /** the export to call, `default` when the spec has no `#name` */
      exportName: string
    }
  | {
      type: 'http'
      url: string
      /** @default 'POST' */
      method: string
      headers: Record<string, string>
      /**
       * the request body: a handlebars template, or an object whose string values are templates (sent as JSON);
       * the target renders it with `input` and the case vars
       */
      body?: string | Record<string, unknown>
      /** dotted path into the JSON reply that holds the output, e.g. `choices.0.message.content`; whole reply when absent */
      output?: string
      timeoutMs?: number
    }
  | {
      type: 'command'
      /** shell command line */
      command: string
      /** how the case input reaches the command @default 'stdin' */
      input: 'stdin' | 'argument'
      /** directory of the case file: the command runs there */
      cwd: string
      timeoutMs?: number
    }

/** One case, ready to run: input rendered with its vars, suite defaults applied. */
export interface CaseDefinition {
  /** unique within its suite */
  id: string
  description?: string
  /** the input after handlebars rendering with `vars` */
  input: string | Turn[]
  vars: Record<string, unknown>
  /** the case's tags, after the defaults' tags */
  tags: string[]
  /** weight in the suite's weighted accuracy @default 1 */
  weight: number
  /** why the case is skipped; absent when it runs */
  skip?: string
  /** set with `only: true`; when any case has it, the loader marks every other case skipped */
  only: boolean
  /** runs per case: case, then defaults, then suite @default 1 */
  trials: number
  timeoutMs?: number
  /** shorthand checks, the defaults' merged under the case's */
  expect: Expectations
  /** long-form checks, the defaults' first */
  assert: Assertion[]
  /** per-case LLM judges, validated; their strings are rendered with `vars` when compiled */
  judge?: JudgeItem[]
  /** a scripted conversation: sent one user message at a time after `input` (then the history before them) */
  turns?: ScriptedTurn[]
  /** a model playing the user after `input` (then the history before it) */
  simulatedUser?: SimulatedUserSpec
  /** compare the output with its stored snapshot; `strict` fails the case when it changed */
  snapshot?: true | 'strict'
  /** 1-based line of the case in its file, for annotations */
  line: number
}

/** One scripted user message, rendered with the case vars, and the checks on the reply to it. */
export interface ScriptedTurn {
  user: string
  /** checks on this turn's reply; `{}` when it has none */
  expect: Expectations
}

/** A model that plays the user: it writes each user message until its goal is met or `maxTurns` were sent. */
export interface SimulatedUserSpec {
  /** who the user is, e.g. "a hurried customer" */
  persona?: string
  /** what the user wants; the simulated user ends the conversation once it is met */
  goal: string
  /** most user messages before the conversation ends @default 5 */
  maxTurns: number
  /** the model playing the user; the suite's model (`--model`) when absent */
  model?: string
}

export type { CaseList, JudgeItem, JudgeSettings }

/** Which cases `loadSuites` keeps. */
export interface SelectOptions {
  /** case id pattern: `*` is a wildcard over the whole id; without `*`, a substring match */
  filter?: string
  /** keep cases carrying at least one of these tags */
  tags?: readonly string[]
}
