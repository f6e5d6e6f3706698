import { parseArgs } from 'node:util'
import { ConfigError, EvalsError, toError } from '../errors.ts'
import type { InitOptions } from '../init/init-project.ts'
import { EXIT } from './exit-code.ts'
import { explainParseError } from './options.ts'

export const INIT_HELP = `Usage: evals init [options]

Scaffolds evals in the current project, never overwriting a file (it lists what it skipped): an agent with two
tools on the offline \`local\` model, a case file, a custom check, a first baseline, a GitHub workflow using the
evals Action, a tsconfig.json, a \`.gitignore\` line for \`reports/\` and the \`evals:*\` npm scripts. On a
terminal it asks for the model and the folder; \`--yes\` (or no terminal) takes the defaults.

Options
  --yes, -y                  take every default; ask nothing
  --dir <dir>                folder of the agent, the check and the cases (default evals)
  --model <provider:model>   the case file's \`model:\` (default local; e.g. openai:gpt-4.1-mini)
  -h, --help                 this help
`

const INIT_OPTIONS = {
  yes: { type: 'boolean', short: 'y' },
  dir: { type: 'string' },
  model: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const

const MODELS = [
  { value: 'local', name: 'local — the offline stand-in (not a language model), no API key' },
  { value: 'openai:gpt-4.1-mini', name: 'openai:gpt-4.1-mini — needs OPENAI_API_KEY' },
  { value: 'anthropic:claude-sonnet-4-5', name: 'anthropic:claude-sonnet-4-5 — needs ANTHROPIC_API_KEY' },
]

/** `evals init`: scaffolds the project in the working directory. Exit 0 done, 2 it could not. */
export async function initCommand(args: readonly string[]): Promise<number> {
  try {
    let parsed
    try {
      parsed = parseArgs({ args: [...args], options: INIT_OPTIONS, allowPositionals: false, strict: true })
    } catch (error) {
      throw new ConfigError(explainParseError(error, 'evals init', Object.keys(INIT_OPTIONS)))
    }
    const { values } = parsed
    if (values.help === true) {
      process.stdout.write(INIT_HELP)
      return EXIT.ok
    }
    const options: InitOptions = { cwd: process.cwd() }
    if (values.dir !== undefined) options.dir = values.dir
    if (values.model !== undefined) options.model = values.model
    if (values.yes !== true && process.stdin.isTTY && process.stdout.isTTY) await ask(options)
    const { initProject } = await import('../init/init-project.ts')
    const result = await initProject(options)
    const lines = [
      ...result.written.map((path) => `  created  ${path}`),
      ...result.updated.map((path) => `  updated  ${path}`),
      ...result.skipped.map(({ path, reason }) => `  skipped  ${path} (${reason})`),
      'written' in result.baseline
        ? `  created  ${result.baseline.written} (the first baseline, from a run on the local model)`
        : `  skipped  the first baseline: ${result.baseline.skipped}`,
      '',
      'Next: npm install, then npm run evals:run (and npm run evals:view to browse the runs).',
    ]
    process.stdout.write(`evals init\n${lines.join('\n')}\n`)
    return EXIT.ok
  } catch (error) {
    if (error instanceof EvalsError) process.stderr.write(`${error.message}\n`)
    else process.stderr.write(`${toError(error).stack ?? String(error)}\n`)
    return EXIT.couldNotRun
  }
}

/** The questions that matter, for the answers no flag gave. */
async function ask(options: InitOptions): Promise<void> {
  const { input, select } = await import('@inquirer/prompts')
  options.model ??= await select({ message: 'Which model should the agent use?', choices: MODELS })
  options.dir ??= await input({
    message: 'Where should the agent, the check and the cases go?',
    default: 'evals',
    validate: (value) => (value.trim() === '' ? 'give a folder, e.g. evals' : true),
  })
}
