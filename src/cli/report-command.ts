import { existsSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { parseArgs } from 'node:util'
import { ConfigError, EvalsError } from '../errors.ts'
import { openReport } from '../report-file/read.ts'
import { RENDERERS } from '../reporters/index.ts'
import { didYouMean } from '../util/did-you-mean.ts'
import { REPORT_HELP } from './help.ts'
import { explainParseError, listFlag } from './options.ts'

const REPORT_OPTIONS = {
  reporter: { type: 'string', multiple: true },
  out: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const

const DEFAULT_FORMATS = ['junit', 'html']

/** `evals report <report.json>`: re-renders JUnit, HTML and Markdown from a JSON report. */
export async function reportCommand(args: readonly string[]): Promise<number> {
  try {
    let parsed
    try {
      parsed = parseArgs({ args: [...args], options: REPORT_OPTIONS, allowPositionals: true, strict: true })
    } catch (error) {
      throw new ConfigError(explainParseError(error, 'evals report', Object.keys(REPORT_OPTIONS)))
    }
    const { values, positionals } = parsed
    if (values.help === true) {
      process.stdout.write(REPORT_HELP)
      return 0
    }
    const [path, ...extra] = positionals
    if (path === undefined || extra.length > 0) {
      throw new ConfigError(
        'evals report: give one JSON report, e.g. `evals report reports/<run-id>/report.json`.',
      )
    }
    if (!existsSync(path)) throw new ConfigError(`evals report: cannot find \`${path}\`.`)
    const loaders = (listFlag(values.reporter) ?? DEFAULT_FORMATS).map((name) => {
      const load = RENDERERS[name]
      if (load) return load
      const known = Object.keys(RENDERERS)
      const hint = didYouMean(name, known)
      throw new ConfigError(
        `evals report: unknown format \`${name}\`.${hint === undefined ? '' : ` Did you mean \`${hint}\`?`} Known formats: ${known.join(', ')}.`,
      )
    })
    const source = await openReport(path)
    const outDir = values.out ?? dirname(path)
    for (const load of loaders) {
      const renderer = await load()
      const file = join(outDir, renderer.fileName)
      await renderer.render(source, file)
      process.stdout.write(`${file}\n`)
    }
    return 0
  } catch (error) {
    if (error instanceof EvalsError) process.stderr.write(`${error.message}\n`)
    else process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`)
    return 2
  }
}
