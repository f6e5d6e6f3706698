import { existsSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { ConfigError } from '../errors.ts'
import { openReport } from '../report-file/read.ts'
import { RENDERERS } from '../reporters/index.ts'
import { didYouMean } from '../util/did-you-mean.ts'
import { defineCommand } from './command.ts'
import { EXIT } from './exit-code.ts'
import { HELP_FLAG } from './flag-table.ts'
import { listFlag } from './shared-flags.ts'

const DEFAULT_FORMATS = ['junit', 'html']

/** `evals report <report.json>`: re-renders JUnit, HTML and Markdown from a JSON report. */
export const reportCommand = defineCommand({
  name: 'evals report',
  usage: `Usage: evals report <report.json> [options]

Re-renders other formats from a JSON report (\`reports/<run-id>/report.json\`), e.g. after editing or merging it.`,
  flags: {
    reporter: {
      type: 'string',
      value: '<names>',
      multiple: true,
      key: 'formats',
      default: DEFAULT_FORMATS,
      parse: listFlag,
      description: `formats to write, comma-separated or repeated: junit, html, markdown (default ${DEFAULT_FORMATS.join(',')})`,
    },
    out: {
      type: 'string',
      value: '<dir>',
      description: "where to write them (default: the report's directory)",
    },
    help: HELP_FLAG,
  },
  footer: 'Exit codes: 0 written, 2 the report is missing or invalid.\n',
  async run({ flags, positionals }) {
    const [path, ...extra] = positionals
    if (path === undefined || extra.length > 0) {
      throw new ConfigError(
        'evals report: give one JSON report, e.g. `evals report reports/<run-id>/report.json`.',
      )
    }
    if (!existsSync(path)) throw new ConfigError(`evals report: cannot find \`${path}\`.`)
    const loaders = flags.formats.map((name) => {
      const load = RENDERERS[name]
      if (load) return load
      const known = Object.keys(RENDERERS)
      const hint = didYouMean(name, known)
      throw new ConfigError(
        `evals report: unknown format \`${name}\`.${hint === undefined ? '' : ` Did you mean \`${hint}\`?`} Known formats: ${known.join(', ')}.`,
      )
    })
    const source = await openReport(path)
    const outDir = flags.out ?? dirname(path)
    for (const load of loaders) {
      const renderer = await load()
      const file = join(outDir, renderer.fileName)
      await renderer.render(source, file)
      process.stdout.write(`${file}\n`)
    }
    return EXIT.ok
  },
})
