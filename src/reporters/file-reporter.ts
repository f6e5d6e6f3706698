import { join } from 'node:path'
import { openReport } from '../report-file/read.ts'
import { ensureJsonReport, type JsonReportOptions } from '../report-file/write-json.ts'
import { gitInfo, type GitInfo } from '../util/git.ts'
import type { LoadRenderer } from './renderer.ts'
import type { Reporter, RunReport } from './reporter.ts'

/** What every built-in reporter may be given. */
export interface ReporterOptions {
  /** ANSI colours (console) @default stdout is a TTY and NO_COLOR is unset */
  color?: boolean
  /** each report file is pushed here once written, so the console summary can list it */
  files?: string[]
  /** read for secrets to redact from reports @default the run's redactor (see `useRedaction`) */
  env?: NodeJS.ProcessEnv
  /** when the command began, a `performance.now()` reading (console: `Duration` is then the wall time) */
  commandStartMs?: number
}

/** Writes `report.json` into the run directory when the run ends: the source of truth for every other format. */
export class JsonReporter implements Reporter {
  readonly #options: ReporterOptions
  #git: Promise<GitInfo> | undefined

  constructor(options: ReporterOptions = {}) {
    this.#options = options
  }

  onRunStart(): void {
    // report.json records the commit: git runs alongside the cases instead of after them
    this.#git = gitInfo(process.cwd())
  }

  async onRunEnd(report: RunReport): Promise<void> {
    const path = await ensureJsonReport(report, jsonOptions(this.#options, this.#git))
    this.#options.files?.push(path)
  }
}

/**
 * Renders one format from the run's `report.json` when the run ends (writing report.json first if no JSON
 * reporter did), into the run directory.
 */
export class FileReporter implements Reporter {
  readonly #loadRenderer: LoadRenderer
  readonly #options: ReporterOptions
  #git: Promise<GitInfo> | undefined

  constructor(loadRenderer: LoadRenderer, options: ReporterOptions = {}) {
    this.#loadRenderer = loadRenderer
    this.#options = options
  }

  onRunStart(): void {
    this.#git = gitInfo(process.cwd())
  }

  async onRunEnd(report: RunReport): Promise<void> {
    const renderer = await this.#loadRenderer()
    const json = await ensureJsonReport(report, jsonOptions(this.#options, this.#git))
    // this process just wrote it, through the run's redactor: read as it is, unless given an env of its own to redact
    const { env } = this.#options
    const source = await openReport(json, { validate: false, ...(env ? { env } : { redact: false }) })
    const path = join(report.dir, renderer.fileName)
    await renderer.render(source, path)
    // report.json is written for the other formats too: the summary lists it whoever wrote it
    if (this.#options.files?.includes(json) === false) this.#options.files.push(json)
    this.#options.files?.push(path)
  }
}

function jsonOptions(options: ReporterOptions, git: Promise<GitInfo> | undefined): JsonReportOptions {
  return { ...envOption(options), ...(git && { git }) }
}

function envOption(options: ReporterOptions): { env?: NodeJS.ProcessEnv } {
  return options.env === undefined ? {} : { env: options.env }
}
