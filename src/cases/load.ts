import { InternalError } from '../errors.ts'
import type { SelectOptions, Suite } from './suite.ts'

/**
 * Reads, validates and templates one YAML or JSON case file. Throws CaseFileError listing every issue at once,
 * each with file:line:column and its dotted path.
 */
export async function loadSuite(file: string): Promise<Suite> {
  return Promise.reject(new InternalError(`loadSuite(${file}) is not implemented yet`))
}

/**
 * Loads every case file matching the glob patterns, then keeps the cases selected by `filter` and `tags` and
 * applies `only`. Throws ConfigError when no file or no case matches, CaseFileError listing the issues of every file.
 */
export async function loadSuites(patterns: readonly string[], options: SelectOptions = {}): Promise<Suite[]> {
  return Promise.reject(new InternalError(`loadSuites(${patterns.join(', ')}, ${JSON.stringify(options)})`))
}
