import type { ReportSource } from '../report-file/read.ts'

/** A report format derived from the JSON report: JUnit, HTML, Markdown, or a user's. */
export interface ReportRenderer {
  /** the `--reporter` name, e.g. `junit` */
  readonly name: string
  /** the file written in the run directory, e.g. `report.junit.xml` */
  readonly fileName: string
  /** writes the file at `path` (atomically: temp file + rename) */
  render(source: ReportSource, path: string): Promise<void>
}

/** Imports a renderer on first use. */
export type LoadRenderer = () => Promise<ReportRenderer>
