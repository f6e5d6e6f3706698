import { readFileSync } from 'node:fs'

/** Bumped on any change that makes an older reader misread a report. */
export const REPORT_SCHEMA_VERSION = 4

let cached: string | undefined

/** The version of this package (src/ and dist/ both sit two levels below package.json). */
export function packageVersion(): string {
  cached ??= (
    JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }
  ).version
  return cached
}
