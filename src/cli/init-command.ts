import { DEFAULT_INIT_DIR, DEFAULT_INIT_MODEL } from '../init/defaults.ts'
import { FRAMEWORK_MODEL, FRAMEWORKS, isFramework, type Framework } from '../init/framework-agents.ts'
import type { InitOptions } from '../init/init-project.ts'
import { ConfigError } from '../errors.ts'
import { defineCommand } from './command.ts'
import { EXIT } from './exit-code.ts'
import { HELP_FLAG } from './flag-table.ts'

const MODELS = [
  { value: 'local', name: 'local — the offline stand-in (not a language model), no API key' },
  { value: 'openai:gpt-4.1-mini', name: 'openai:gpt-4.1-mini — needs OPENAI_API_KEY' },
  { value: 'anthropic:claude-sonnet-4-5', name: 'anthropic:claude-sonnet-4-5 — needs ANTHROPIC_API_KEY' },
]

/** `evals init`: scaffolds the project in the working directory. Exit 0 done, 2 it could not. */
export const initCommand = defineCommand({
  name: 'evals init',
  usage: `Usage: evals init [options]

Scaffolds evals in the current project, never overwriting a file (it lists what it skipped): an agent with two
tools on the offline \`local\` model, a case file, a custom check, a first baseline, a GitHub workflow using the
evals Action, a tsconfig.json, a \`.gitignore\` line for \`reports/\` and the \`evals:*\` npm scripts. With
\`--framework\` the agent is built with the AI SDK, the OpenAI Agents SDK, LangGraph or Mastra instead (its packages
are added to package.json), and evals runs it through that framework's adapter. On a terminal it asks what the
agent is built with, the model and the folder; \`--yes\` (or no terminal) takes the defaults. In a CommonJS
package (no \`"type": "module"\` in package.json) the agent and the check are \`.mts\` files, which load faster.`,
  flags: {
    yes: { type: 'boolean', short: 'y', description: 'take every default; ask nothing' },
    dir: {
      type: 'string',
      value: '<dir>',
      description: `folder of the agent, the check and the cases (default ${DEFAULT_INIT_DIR})`,
    },
    framework: {
      type: 'string',
      value: '<name>',
      parse: frameworkOf,
      description: [
        `what the agent is built with: ${Object.keys(FRAMEWORKS).join(', ')} (default agent-evals);`,
        `another framework's agent talks to OpenAI and starts on ${FRAMEWORK_MODEL}`,
      ],
    },
    model: {
      type: 'string',
      value: '<provider:model>',
      description: `the case file's \`model:\` (default ${DEFAULT_INIT_MODEL}; e.g. openai:gpt-4.1-mini)`,
    },
    help: HELP_FLAG,
  },
  positionals: false,
  async run({ flags }) {
    const options: InitOptions = { cwd: process.cwd() }
    if (flags.dir !== undefined) options.dir = flags.dir
    if (flags.model !== undefined) options.model = flags.model
    if (flags.framework !== undefined) options.framework = flags.framework
    if (flags.yes !== true && process.stdin.isTTY && process.stdout.isTTY) await ask(options)
    const { initProject } = await import('../init/init-project.ts')
    const result = await initProject(options)
    const lines = [
      ...result.written.map((path) => `  created  ${path}`),
      ...result.updated.map((path) => `  updated  ${path}`),
      ...result.skipped.map(({ path, reason }) => `  skipped  ${path} (${reason})`),
      'written' in result.baseline
        ? `  created  ${result.baseline.written} (the first baseline, from a run on the local model)`
        : `  skipped  the first baseline: ${result.baseline.skipped}`,
      ...(result.extension === '.mts'
        ? [
            '',
            'package.json has no "type": "module": .ts files there are CommonJS, which load through tsx, more slowly.',
            'So the agent and the check are .mts files, ES modules by their extension, which load as in an ES-module project.',
          ]
        : []),
      '',
      'Next: npm install, then npm run evals:run (and npm run evals:view to browse the runs).',
    ]
    process.stdout.write(`evals init\n${lines.join('\n')}\n`)
    return EXIT.ok
  },
})

/** The questions that matter, for the answers no flag gave. */
async function ask(options: InitOptions): Promise<void> {
  const { input, select } = await import('@inquirer/prompts')
  options.framework ??= await select({
    message: 'What is your agent built with?',
    choices: Object.entries(FRAMEWORKS).map(([value, { label }]) => ({
      value: value as Framework,
      name: label,
    })),
  })
  if (options.framework === 'agent-evals')
    options.model ??= await select({ message: 'Which model should the agent use?', choices: MODELS })
  options.dir ??= await input({
    message: 'Where should the agent, the check and the cases go?',
    default: DEFAULT_INIT_DIR,
    validate: (value) => (value.trim() === '' ? `give a folder, e.g. ${DEFAULT_INIT_DIR}` : true),
  })
}

function frameworkOf(value: string, flag: string): Framework {
  if (isFramework(value)) return value
  throw new ConfigError(
    `${flag} ${value}: not a framework evals init knows; give one of ${Object.keys(FRAMEWORKS).join(', ')}.`,
  )
}
