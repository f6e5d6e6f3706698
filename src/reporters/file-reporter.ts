import { join } from 'node:path'
import { openReport, type ReportSource } from '../report-file/read.ts'
import { shareCases } from '../report-file/shared-cases.ts'
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
 * Renders one format, or several, from the run's `report.json` when the run ends (writing report.json first if no
 * JSON reporter did), into the run directory. Several formats read the report once: each case is parsed once and
 * handed to every renderer (`shareCases`).
 */
export class FileReporter implements Reporter {
  readonly #loadRenderers: readonly LoadRenderer[]
  readonly #options: ReporterOptions
  #git: Promise<GitInfo> | undefined

  constructor(loadRenderer: LoadRenderer | readonly LoadRenderer[], options: ReporterOptions = {}) {
    this.#loadRenderers = typeof loadRenderer === 'function' ? [loadRenderer] : loadRenderer
    this.#options = options
  }

  onRunStart(): void {
    this.#git = gitInfo(process.cwd())
  }

  async onRunEnd(report: RunReport): Promise<void> {
    const renderers = await Promise.all(this.#loadRenderers.map(async (load) => load()))
    const json = await ensureJsonReport(report, jsonOptions(this.#options, this.#git))
    // this process just wrote it, through the run's redactor: read as it is, unless given an env of its own to redact
    const { env } = this.#options
    const source = await openReport(json, { validate: false, ...(env ? { env } : { redact: false }) })
    const { sources, release } = shareCases(source, renderers.length)
    // every renderer ends, written or failed, before the first failure is thrown: none is left half-written
    const rendered = await Promise.allSettled(
      renderers.map(async (renderer, index) => {
        try {
          await renderer.render(sources[index] as ReportSource, join(report.dir, renderer.fileName))
        } finally {
          release(index)
        }
      }),
    )
    const failed = rendered.find((outcome) => outcome.status === 'rejected')
    if (failed) throw failed.reason
    // report.json is written for the other formats too: the summary lists it whoever wrote it
    if (this.#options.files?.includes(json) === false) this.#options.files.push(json)
    for (const renderer of renderers) this.#options.files?.push(join(report.dir, renderer.fileName))
  }
}

function jsonOptions(options: ReporterOptions, git: Promise<GitInfo> | undefined): JsonReportOptions {
  return { ...envOption(options), ...(git && { git }) }
}

function envOption(options: ReporterOptions): { env?: NodeJS.ProcessEnv } {
  return options.env === undefined ? {} : { env: options.env }
}
