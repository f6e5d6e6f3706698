import { frameworkAgentFile, type Framework } from './framework-agents.ts'

/** What the scaffold is made from: the answers to init's questions and the package's own name. */
export interface ScaffoldSettings {
  /** folder of the agent, the check and the case files, relative to the project @default 'evals' */
  dir: string
  /** the case file's `model:`, e.g. `local` or `openai:gpt-4.1-mini` */
  model: string
  /** the name the project imports this package by, e.g. `evals` */
  packageName: string
  /**
   * the extension of the agent and the check: `.mts` in a CommonJS package, where a `.ts` file would load through
   * tsx, more slowly than an ES module @default '.ts'
   */
  extension?: '.ts' | '.mts'
  /** what the agent is built with: our `Agent`, or another framework run through its adapter @default 'agent-evals' */
  framework?: Framework
}

/** The GitHub Action the workflow uses: the one the installed package ships, so it is the version `npm ci` installs. */
const actionRef = (packageName: string): string => `./node_modules/${packageName}/action`

/** The suite the scaffold's case file defines; its baseline is `baselines/<SUITE>.json`. */
export const SUITE = 'support'

/** The files `evals init` writes, by path relative to the project (posix separators). */
export function scaffoldFiles(settings: ScaffoldSettings): Record<string, string> {
  const { dir, extension = '.ts', framework = 'agent-evals' } = settings
  return {
    [`${dir}/agent${extension}`]:
      framework === 'agent-evals' ? agentFile(settings) : frameworkAgentFile(framework),
    [`${dir}/checks${extension}`]: checksFile(settings),
    [`${dir}/cases/${SUITE}.yaml`]: casesFile(settings),
    '.github/workflows/evals.yml': workflowFile(settings),
    'tsconfig.json': tsconfigFile(settings),
  }
}

/** The npm scripts `evals init` adds, each only when the project has no script of that name. */
export function scaffoldScripts(settings: ScaffoldSettings): Record<string, string> {
  const cases = `"${settings.dir}/cases/*.yaml"`
  return {
    'evals:run': `evals run ${cases} --baseline baselines`,
    'evals:baseline': `evals run ${cases} --update-baseline`,
    'evals:view': 'evals view reports',
  }
}

const agentFile = ({ packageName }: ScaffoldSettings): string => `/**
 * The agent under test: two tools and a model. With \`model: local\` (a deterministic offline stand-in, not a
 * language model) the suite runs anywhere; set \`model:\` in the case file, or \`--model\`, to evaluate a real one.
 */
import { Agent, tool } from '${packageName}'
import { z } from 'zod'

const orderStatus = tool({
  name: 'order_status',
  description: 'Check where an order is and when it arrives',
  parameters: z.object({ order_id: z.string() }),
  readOnly: true,
  execute: ({ order_id }) => \`Order \${order_id} shipped on 2024-05-02 and arrives in 2 days\`,
})

const refundPayment = tool({
  name: 'refund_payment',
  description: 'Refund a payment for an order',
  parameters: z.object({ order_id: z.string(), amount: z.number().positive() }),
  execute: ({ order_id, amount }) => \`Refunded $\${amount.toFixed(2)} for order \${order_id}\`,
})

/** The case file's \`model:\` (or \`--model\`) arrives here, so the same agent runs on any model. */
export function createAgent({ model = 'local' }: { model?: string } = {}): Agent {
  return new Agent({
    name: 'support',
    model,
    instructions: 'You are a customer support agent. Use the tools to act and answer in one sentence.',
    tools: [orderStatus, refundPayment],
    maxIterations: 4,
    // the local stand-in is free; real models are priced by the package
    prices: { local: { inputMtok: 0, outputMtok: 0 } },
  })
}
`

const checksFile = ({
  packageName,
  extension = '.ts',
}: ScaffoldSettings): string => `/** A custom check, used in the case file as \`custom: ../checks${extension}#quotesEveryToolResult\`. */
import type { Transcript } from '${packageName}'

/** Every tool result appears in the answer, so the agent did not drop what it found. */
export function quotesEveryToolResult(transcript: Transcript): { pass: boolean; reason: string } {
  // null: the target does not report its tool calls, so there is nothing to check against (the case errors)
  if (transcript.toolCalls === null) throw new Error('the target does not report its tool calls')
  if (transcript.toolCalls.length === 0) return { pass: false, reason: 'the agent called no tool' }
  const missing = transcript.toolCalls
    .filter((call) => typeof call.result === 'string' && !transcript.output.includes(call.result))
    .map((call) => call.name)
  return missing.length === 0
    ? { pass: true, reason: 'the answer quotes every tool result' }
    : { pass: false, reason: \`the answer leaves out the result of \${missing.join(', ')}\` }
}
`

const casesFile = ({
  dir,
  model,
  packageName,
  extension = '.ts',
  framework = 'agent-evals',
}: ScaffoldSettings): string => {
  const depth = `${dir}/cases`
    .split('/')
    .map(() => '..')
    .join('/')
  return `# yaml-language-server: $schema=${depth}/node_modules/${packageName}/schema/cases.schema.json
#
#   npm run evals:run        # run the cases and compare with baselines/${SUITE}.json (the regression gate)
#   npm run evals:baseline   # after a good run: record it as the new baseline
#   npm run evals:view       # browse the runs in reports/
suite: ${SUITE}
target:
  agent: ../agent${extension} # exports createAgent({ model })${framework === 'agent-evals' ? '' : `, an agent of ${framework}`}
model: ${model}
defaults:
  expect:
    latency_ms_lte: ${model === 'local' ? '5000' : '30000'}

cases:
  - id: order-status
    input: Where is my order o-12?
    expect:
      tool: order_status
      tool_args: { order_status: { order_id: o-12 } }
      contains: arrives

  - id: refund
    input: Please refund 25 for order o-7
    tags: [critical] # a critical case that regresses fails the gate on its own
    expect:
      tool: refund_payment
      tool_args: { refund_payment: { order_id: o-7, amount: 25 } }

  - id: answer-quotes-tool-results
    input: Where is my order o-3?
    expect:
      custom: ../checks${extension}#quotesEveryToolResult # your own (transcript) => boolean | { pass, reason }
`
}

const workflowFile = ({
  dir,
  model,
  packageName,
}: ScaffoldSettings): string => `# Runs the evals on every pull request: a sticky PR comment, the report in the job summary, an annotation on each
# failing case, and a failed check when a suite regresses against baselines/<suite>.json.
name: evals

on:
  pull_request:

permissions:
  contents: read
  pull-requests: write

jobs:
  evals:
    runs-on: ubuntu-latest
    timeout-minutes: 15
    steps:
      - uses: actions/checkout@v4
      - uses: actions/setup-node@v4
        with:
          node-version: 22
          cache: npm
      - run: npm ci --no-audit --no-fund
      - id: evals
        uses: ${actionRef(packageName)}
        with:
          cases: ${dir}/cases/*.yaml
          baseline-dir: baselines
          fail-on: regression
${model === 'local' ? '        # env: { OPENAI_API_KEY: ${{ secrets.OPENAI_API_KEY }} } # with a real `model:`' : `        env: { ${keyOf(model)}: '\${{ secrets.${keyOf(model)} }}' }`}
`

function keyOf(model: string): string {
  return model.startsWith('anthropic:') ? 'ANTHROPIC_API_KEY' : 'OPENAI_API_KEY'
}

const tsconfigFile = ({ dir }: ScaffoldSettings): string => `{
  "compilerOptions": {
    "target": "ES2022",
    "module": "NodeNext",
    "moduleResolution": "NodeNext",
    "strict": true,
    "noEmit": true,
    "skipLibCheck": true
  },
  "include": ["${dir}"]
}
`
