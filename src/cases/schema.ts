import { z } from 'zod'
import { gateOptionsSchema } from '../baselines/gate-options.ts'
import { expected } from '../evaluators/definition.ts'
import { judgeItemSchema, judgeSettingsSchema } from '../evaluators/llm-judge-options.ts'
import { moduleRefPattern } from '../evaluators/module-ref.ts'
import { evaluatorDefinitions } from '../evaluators/registry.ts'
import { didYouMean } from '../util/did-you-mean.ts'
import { redactPatternProblem } from '../util/redact.ts'
import { withRenamedKeys } from '../util/renamed-keys.ts'
import { formatCount } from '../util/format-count.ts'

const kinds = evaluatorDefinitions.map((definition) => definition.kind)

/** The `expect:` shorthand map: evaluator kind → shorthand value. */
export const expectationsSchema = z
  .strictObject(
    Object.fromEntries(
      evaluatorDefinitions.map((definition) => [
        definition.kind,
        definition.shorthand.optional().describe(definition.description),
      ]),
    ),
  )
  .meta({
    id: 'Expectations',
    description:
      'Shorthand checks: evaluator kind → value. Use `assert:` for weights, negation and extra options.',
  })

/** One `assert:` item: an evaluator kind, its options, and how it counts. */
export interface Assertion {
  kind: string
  /** share of the case score @default 1 */
  weight?: number
  /** passes when the check fails */
  not?: boolean
  [option: string]: unknown
}

const assertionOptions = evaluatorDefinitions.map((definition) =>
  definition.options
    .extend({
      kind: z.literal(definition.kind),
      weight: z.number().nonnegative().optional().describe('share of the case score (default 1)'),
      not: z.boolean().optional().describe('pass when the check fails'),
    })
    .describe(definition.description),
)

export const assertionSchema = z
  .discriminatedUnion(
    'kind',
    assertionOptions as [(typeof assertionOptions)[number], ...typeof assertionOptions],
    { error: (issue) => unknownKindMessage(issue.input) },
  )
  .meta({
    id: 'Assertion',
    description: 'A long-form check: { kind, ...options, weight?, not? }',
  }) as unknown as z.ZodType<Assertion>

/** The `expect:` map after validation; keys are evaluator kinds. */
export type Expectations = Partial<Record<string, unknown>>

const turnSchema = z.strictObject({
  role: z.enum(['system', 'user', 'assistant']),
  content: z.string(),
})

const inputSchema = z.union([z.string(), z.array(turnSchema).min(1)], {
  error: expected('a string or a list of { role, content } turns'),
})

/** One scripted user message of a conversation, with checks on the reply to it. */
const conversationTurnSchema = z
  .strictObject({
    user: z.string().describe('the user message of this turn; handlebars over the case vars'),
    expect: expectationsSchema.optional().describe('checks on the reply to this turn'),
  })
  .meta({ id: 'ConversationTurn' })

/** A model that plays the user until its goal is met or `max_turns` replies were given. */
const simulatedUserSchema = z
  .strictObject({
    persona: z.string().min(1).optional().describe('who the simulated user is, e.g. "a hurried customer"'),
    goal: z
      .string()
      .min(1)
      .describe('what the user wants; the simulated user ends the conversation once it is met'),
    max_turns: z.int().positive().default(5).describe('most user messages before the conversation ends'),
    model: z
      .string()
      .min(1)
      .optional()
      .describe(
        'model playing the user (`local` plays the goal’s steps offline); default: the suite’s model',
      ),
  })
  .meta({ id: 'SimulatedUser' })

/** A scripted decision on tool calls that wait for approval: the agent target resumes the run with it. */
const scriptedApprovalSchema = z
  .strictObject({
    tool: z.string().min(1).describe('tool name glob, e.g. `send_*`'),
    args: z
      .record(z.string(), z.string())
      .optional()
      .describe('argument globs that must all match, e.g. `{ to: "*@example.com" }`'),
    decision: z.enum(['approve', 'reject']),
    reason: z.string().optional().describe('told to the model when the call is rejected; shown in the trace'),
  })
  .meta({ id: 'ScriptedApproval' })

const timeoutMs = z.int().positive().describe('per-case timeout in milliseconds')
/** Far more trials than a pass rate needs; a larger count (`1e9`) is a typo that would exhaust memory planning it. */
export const MAX_TRIALS = 10_000
const trials = z
  .int()
  .positive()
  .max(MAX_TRIALS, { error: `at most ${formatCount(MAX_TRIALS)} trials per case` })
  .describe('how many times each case runs')
const tags = z.array(z.string().min(1))

const mcpCommon = {
  name: z.string().min(1).optional().describe('names the server in errors and traces'),
  prefix: z.string().optional().describe("put before each of the server's tool names, e.g. `fs_`"),
}
const mcpServerSchema = z.union([
  z.strictObject({
    command: z.string().min(1),
    args: z.array(z.string()).optional(),
    env: z.record(z.string(), z.string()).optional(),
    cwd: z.string().optional().describe("relative to the case file @default the case file's directory"),
    ...mcpCommon,
  }),
  z.strictObject({ url: z.url(), headers: z.record(z.string(), z.string()).optional(), ...mcpCommon }),
])

const targetSchema = z
  .strictObject({
    agent: z
      .string()
      .min(1)
      .optional()
      .describe('module whose default export is an Agent or (input, ctx) => string | Transcript'),
    mcp: z
      .array(mcpServerSchema)
      .min(1)
      .optional()
      .describe('MCP servers for an agent target: passed to its `createAgent({ model, mcp })`'),
    function: z
      .string()
      .regex(moduleRefPattern, 'expected `./path/to/module.ts#exportName`')
      .optional()
      .describe('`./module.ts#name`: a function (input, ctx) => string | Transcript'),
    http: z
      .strictObject({
        url: z.string().min(1),
        method: z.enum(['GET', 'POST', 'PUT', 'PATCH', 'DELETE']).default('POST'),
        headers: z.record(z.string(), z.string()).default({}),
        body: z
          .union([z.string(), z.record(z.string(), z.unknown())])
          .optional()
          .describe(
            'request body: a handlebars template, or an object whose strings are templates; sees `input` and the vars',
          ),
        output: z
          .string()
          .min(1)
          .optional()
          .describe('dotted path into the JSON reply, e.g. `choices.0.message.content`'),
        usage: z
          .string()
          .min(1)
          .optional()
          .describe(
            "dotted path of the token usage (OpenAI, Responses API or Anthropic shape) @default the reply's top-level `usage`",
          ),
        tool_calls: z
          .string()
          .min(1)
          .optional()
          .describe(
            'dotted path of the list of tool calls the agent made, e.g. `tool_calls`; without it they are unknown',
          ),
        model: z
          .string()
          .min(1)
          .optional()
          .describe("dotted path of the model id, for the cost @default the reply's top-level `model`"),
        timeout_ms: timeoutMs.optional(),
      })
      .optional(),
    command: z
      .union([
        z.string().min(1),
        z.strictObject({
          run: z.string().min(1),
          input: z.enum(['stdin', 'argument']).default('stdin'),
          timeout_ms: timeoutMs.optional(),
        }),
      ])
      .optional()
      .describe(
        'shell command; the input goes to stdin (or as the last argument), the output comes from stdout',
      ),
  })
  .superRefine((target, context) => {
    const given = ['agent', 'function', 'http', 'command'].filter((key) => key in target)
    if (target.mcp !== undefined && target.agent === undefined) {
      context.addIssue({ code: 'custom', path: ['mcp'], message: '`mcp` only applies to an `agent` target' })
    }
    if (given.length !== 1) {
      context.addIssue({
        code: 'custom',
        message: `expected exactly one of \`agent\`, \`function\`, \`http\`, \`command\`${given.length > 1 ? `, got ${given.map((k) => `\`${k}\``).join(', ')}` : ''}`,
      })
    }
  })
  .describe('the system under test')

/** One entry of `cases:`. */
export const caseSchema = z
  .strictObject({
    id: z.string().min(1).describe('unique within the file'),
    description: z.string().optional(),
    input: inputSchema
      .optional()
      .describe(
        'the user message, or the turns so far; with `turns` or `simulated_user`, the history before them',
      ),
    turns: z
      .array(conversationTurnSchema)
      .min(1)
      .optional()
      .describe('a scripted conversation: one user message per turn, each reply checked by its own `expect`'),
    simulated_user: simulatedUserSchema
      .optional()
      .describe('a model plays the user; `expect`, `assert` and `judge` check the whole conversation'),
    // defaults as functions: zod copies a default given as a value (`shallowClone`) on every case that lacks it
    vars: z
      .record(z.string(), z.unknown())
      .default(() => ({}))
      .describe('handlebars variables for input and checks; strict'),
    tags: tags.default(() => []),
    weight: z.number().nonnegative().default(1),
    critical: z
      .union([
        z.boolean(),
        z.strictObject({
          min_pass_rate: z
            .number()
            .min(0)
            .max(1)
            .optional()
            .describe('fail the gate when the pass rate over its trials falls below this, 0..1'),
        }),
      ])
      .optional()
      .describe(
        'judge this case on its own in the gate: a drop significant over its trials fails, as does a rate below `min_pass_rate`',
      ),
    expect_fail: z
      .union([z.boolean(), z.string().min(1)])
      .optional()
      .describe(
        'a known failure (true, or the reason): it runs and is reported as such, but its failures neither block `--update-baseline` nor count for `--fail-on failure`',
      ),
    skip: z
      .union([z.boolean(), z.string().min(1)])
      .default(false)
      .describe('true, or the reason the case is skipped'),
    only: z.boolean().default(false).describe('run only the cases marked `only`'),
    snapshot: z
      .union([z.boolean(), z.literal('strict')])
      .optional()
      .describe(
        'store the output beside the baseline and report how it moves; `strict` fails the case when it changes',
      ),
    trials: trials.optional(),
    timeout_ms: timeoutMs.optional(),
    trace: z
      .boolean()
      .optional()
      .describe(
        "capture the OpenTelemetry spans this case produces into its transcript; the suite's `trace:` when absent",
      ),
    expect: expectationsSchema.optional(),
    assert: z
      .array(assertionSchema)
      .optional()
      .describe('long-form checks: { kind, ...options, weight?, not? }'),
    judge: z
      .array(judgeItemSchema)
      .optional()
      .describe(
        'LLM judges: `- rubric: "…"`, `- correctness: true` with `reference`, … each with threshold, samples',
      ),
    approvals: z
      .array(scriptedApprovalSchema)
      .min(1)
      .optional()
      .describe(
        'decisions on tool calls that wait for approval, first match wins: an agent target resumes the run with them until it ends; a call no rule matches leaves the run interrupted',
      ),
  })
  .superRefine(checkConversation)
  .meta({ id: 'Case' })

// selectools' flat check keys (`expect_tool: search`) name the `expect:` entry they are written as here
withRenamedKeys(
  caseSchema,
  Object.fromEntries(kinds.map((kind) => [`expect_${kind}`, { write: `expect: { ${kind}: … }` }])),
)

/** A `cases:` entry naming rows of a dataset instead of one case. */
const datasetRefSchema = z
  .string()
  .min(1)
  .describe('a .csv or .jsonl file (or a glob), relative to the case file: one case per row')

const variantSchema = z
  .strictObject({
    name: z
      .string()
      .regex(/^[\w.:-]+$/, 'letters, digits, `_`, `.`, `:` and `-` only')
      .describe('names the variant in results, reports and baseline files'),
    model: z.string().min(1).optional().describe("the model instead of the suite's"),
    target: targetSchema.optional().describe("the target instead of the suite's"),
    vars: z
      .record(z.string(), z.unknown())
      .optional()
      .describe("merged over each case's vars, e.g. a prompt version; they reach the target and the checks"),
    judge: judgeSettingsSchema.optional().describe("merged over the suite's `judge:`"),
    baseline: z.boolean().optional().describe('compare and gate the other variants against this one'),
  })
  .meta({ id: 'Variant' })

function checkVariants(
  variants: { name: string; baseline?: boolean | undefined }[],
  context: z.RefinementCtx,
): void {
  const seen = new Set<string>()
  for (const [index, { name }] of variants.entries()) {
    if (seen.has(name))
      context.addIssue({
        code: 'custom',
        path: [index, 'name'],
        message: `variant \`${name}\` is named twice`,
      })
    seen.add(name)
  }
  if (variants.filter((variant) => variant.baseline === true).length > 1)
    context.addIssue({ code: 'custom', message: 'only one variant may be `baseline: true`' })
}

/** The case-file format (DESIGN.md §3), the single source of truth for validation and the published JSON Schema. */
export const caseFileSchema = z
  .strictObject({
    $schema: z.string().optional(),
    suite: z.string().min(1).describe('suite name, used in reports and baselines'),
    description: z.string().optional(),
    target: targetSchema,
    model: z
      .string()
      .min(1)
      .optional()
      .describe('model for agent targets, e.g. `local` or `openai:gpt-4.1-mini`'),
    judge: judgeSettingsSchema.optional(),
    defaults: z
      .strictObject({
        expect: expectationsSchema.optional(),
        assert: z.array(assertionSchema).optional(),
        tags: tags.optional(),
        timeout_ms: timeoutMs.optional(),
        trials: trials.optional(),
      })
      .optional()
      .describe('merged into every case; the case wins'),
    trials: trials.optional(),
    timeout_ms: timeoutMs.optional(),
    trace: z
      .union([
        z.boolean(),
        z.strictObject({
          quiet_ms: z
            .int()
            .nonnegative()
            .optional()
            .describe(
              'after an http or command target replied, wait for spans until none came for this long (200)',
            ),
          max_wait_ms: z
            .int()
            .nonnegative()
            .optional()
            .describe('after an http or command target replied, wait for spans at most this long (2000)'),
          port: z
            .int()
            .min(1)
            .max(65535)
            .optional()
            .describe(
              "the port of the run's OTLP/HTTP receiver on 127.0.0.1, for an http target's service started beforehand (a free port when absent)",
            ),
        }),
      ])
      .optional()
      .describe(
        'capture the OpenTelemetry spans each case produces (in process, or over OTLP/HTTP from an http or command target) into its transcript: tool calls, model calls, usage and cost; a case may say otherwise',
      ),
    gate: gateOptionsSchema
      .optional()
      .describe('regression gate: when a run fails or warns against its baseline; CLI flags win'),
    redact: z
      .array(
        z.string().superRefine((pattern, context) => {
          const problem = redactPatternProblem(pattern)
          if (problem !== undefined) context.addIssue({ code: 'custom', message: problem })
        }),
      )
      .optional()
      .describe(
        'regular expressions for secrets of your own: matches are `[redacted]` in every file the run writes',
      ),
    columns: z
      .record(z.string().min(1), z.string().min(1))
      .optional()
      .describe(
        'for cases from a .csv or .jsonl file: case field or var name → column, e.g. `{ input: question, expected: answer }`',
      ),
    variants: z
      .array(variantSchema)
      .min(1)
      .superRefine(checkVariants)
      .optional()
      .describe('run every case once per variant and compare them; one may be `baseline: true`'),
    cases: z.union([datasetRefSchema, z.array(z.union([datasetRefSchema, caseSchema])).min(1)]),
  })
  .describe('An evals case file')

export type CaseFile = z.output<typeof caseFileSchema>
export type CaseEntry = z.output<typeof caseSchema>

/**
 * The case file with `cases` checked only as a non-empty list: the loader validates (and builds) the cases one at
 * a time with `caseSchema`, so it never holds a validated copy of the whole file.
 */
export const caseFileHeaderSchema = caseFileSchema.extend({
  cases: z.union([datasetRefSchema, z.array(z.unknown()).min(1)]),
})
export type CaseFileHeader = Omit<CaseFile, 'cases'>

/** The JSON Schema of case files, as shipped in `schema/cases.schema.json`. */
export function caseFileJsonSchema(): Record<string, unknown> {
  return z.toJSONSchema(caseFileSchema, { io: 'input', unrepresentable: 'any' })
}

/** `input`, `turns` and `simulated_user`: a case has input or a conversation, one kind of conversation at most. */
function checkConversation(
  entry: { input?: unknown; turns?: unknown; simulated_user?: unknown },
  context: z.RefinementCtx,
): void {
  if (entry.turns !== undefined && entry.simulated_user !== undefined) {
    context.addIssue({
      code: 'custom',
      path: ['simulated_user'],
      message: 'a case has either `turns` or `simulated_user`, not both; split it into two cases',
    })
  } else if (entry.turns === undefined && entry.simulated_user === undefined) {
    if (entry.input === undefined) {
      context.addIssue({
        code: 'custom',
        path: ['input'],
        message: 'missing `input`; give the user message, or `turns:` for a conversation',
      })
    }
  } else if (typeof entry.input === 'string') {
    context.addIssue({
      code: 'custom',
      path: ['input'],
      message:
        'with `turns` or `simulated_user`, `input` is the history before them: a list of { role, content } turns; move the message into the first turn',
    })
  }
}

function unknownKindMessage(input: unknown): string {
  const kind =
    typeof input === 'object' && input !== null ? (input as Record<string, unknown>).kind : undefined
  if (typeof kind !== 'string') return `missing \`kind\`; known kinds: ${kinds.join(', ')}`
  const suggestion = didYouMean(kind, kinds)
  const hint = suggestion ? `; did you mean \`${suggestion}\`? Known` : '; known'
  return `unknown evaluator kind \`${kind}\`${hint} kinds: ${kinds.join(', ')}`
}
