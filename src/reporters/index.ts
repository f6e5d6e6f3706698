import { isAbsolute } from 'node:path'
import { ConfigError } from '../errors.ts'
import { importUserModule } from '../util/user-module.ts'
import { didYouMean } from '../util/did-you-mean.ts'
import { ConsoleReporter } from './console.ts'
import { FileReporter, JsonReporter, type ReporterOptions } from './file-reporter.ts'
import type { LoadRenderer } from './renderer.ts'
import type { Reporter } from './reporter.ts'

export type { ReporterOptions }

/** Makes a reporter for one run. */
export type ReporterFactory = (options: ReporterOptions) => Reporter

// each format is imported when a run ends with it, so a console and JSON run never loads the others
const loadJunit: LoadRenderer = async () => (await import('./junit.ts')).junitRenderer
const loadHtml: LoadRenderer = async () => (await import('./html/html.ts')).htmlRenderer
const loadMarkdown: LoadRenderer = async () => (await import('./markdown.ts')).markdownRenderer

/** Formats `evals report` can render from a report.json, each loaded on first use. */
export const RENDERERS: Readonly<Record<string, LoadRenderer>> = {
  junit: loadJunit,
  html: loadHtml,
  markdown: loadMarkdown,
}

/** Built-in reporters by `--reporter` name. */
export const REPORTERS: Readonly<Record<string, ReporterFactory>> = {
  console: (options) =>
    new ConsoleReporter({
      ...(options.color !== undefined && { color: options.color }),
      ...(options.commandStartMs !== undefined && { commandStartMs: options.commandStartMs }),
    }),
  json: (options) => new JsonReporter(options),
  junit: (options) => new FileReporter(loadJunit, options),
  html: (options) => new FileReporter(loadHtml, options),
  markdown: (options) => new FileReporter(loadMarkdown, options),
}

/** `--reporter` when not given: everything but markdown. */
export const DEFAULT_REPORTERS = ['console', 'json', 'junit', 'html'] as const

/**
 * Reporters for `--reporter` names: built-in names, or paths of modules (relative to `baseDir`) whose default
 * export is a Reporter object, a Reporter class or a factory. The console reporter goes last, so its summary is
 * the last thing printed. Throws a ConfigError for an unknown name.
 */
export async function createReporters(
  names: readonly string[],
  options: ReporterOptions & { baseDir?: string } = {},
): Promise<Reporter[]> {
  const { baseDir = process.cwd(), ...reporterOptions } = options
  const unique = [...new Set(names)]
  const ordered = [
    ...unique.filter((name) => name !== 'console'),
    ...unique.filter((name) => name === 'console'),
  ]
  const reporters: Reporter[] = []
  // the built-in file formats render together, where the first of them is listed: they read report.json once
  const formats = ordered.filter((name) => Object.hasOwn(RENDERERS, name))
  for (const name of ordered) {
    const factory = REPORTERS[name]
    if (name === formats[0])
      reporters.push(
        new FileReporter(
          formats.map((format) => RENDERERS[format] as LoadRenderer),
          reporterOptions,
        ),
      )
    else if (formats.includes(name)) continue
    else if (factory) reporters.push(factory(reporterOptions))
    else if (isModulePath(name)) reporters.push(await loadReporter(name, baseDir, reporterOptions))
    else throw new ConfigError(unknownReporterMessage(name))
  }
  return reporters
}

export function unknownReporterMessage(name: string): string {
  const known = Object.keys(REPORTERS)
  const hint = didYouMean(name, known)
  return (
    `Unknown reporter \`${name}\`.${hint === undefined ? '' : ` Did you mean \`${hint}\`?`} ` +
    `Known reporters: ${known.join(', ')}; or give a module path, e.g. \`./my-reporter.ts\`.`
  )
}

function isModulePath(name: string): boolean {
  return name.startsWith('.') || isAbsolute(name) || /\.[cm]?[jt]s$/.test(name)
}

async function loadReporter(file: string, baseDir: string, options: ReporterOptions): Promise<Reporter> {
  const module = await importUserModule(file, baseDir, `--reporter ${file}`)
  const exported = module.default
  if (typeof exported === 'function') {
    const isClass = Function.prototype.toString.call(exported).startsWith('class')
    return isClass
      ? new (exported as new (o: ReporterOptions) => Reporter)(options)
      : (exported as ReporterFactory)(options)
  }
  if (typeof exported === 'object' && exported !== null) return exported
  throw new ConfigError(
    `--reporter ${file}: the module must default-export a Reporter (an object with onRunStart, onCaseEnd or ` +
      `onRunEnd), a Reporter class, or a function that returns one.`,
  )
}
