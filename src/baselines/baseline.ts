import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { z } from 'zod'
import { ConfigError, toError } from '../errors.ts'
import { writeFileAtomic } from '../util/atomic-file.ts'
import { envRedactor, type Redactor } from '../util/redact.ts'
import { serializeBaseline } from './canonical.ts'
import type { Baseline } from './schema.ts'
import { BASELINE_SCHEMA_VERSION } from './version.ts'

const UPDATE_HINT = 'recreate it with `evals run <case-file> --update-baseline`'

/** The baseline file of a suite inside a baselines directory: `baselines/<suite>.json`, unsafe characters as `-`. */
export function baselinePath(directory: string, suite: string): string {
  return join(directory, `${suite.replace(/[^\w.-]/g, '-')}.json`)
}

/**
 * Reads and validates a baseline file; throws ConfigError naming the file when it is missing, corrupt or stale.
 * `whenMissing` ends the message of a missing file with the caller's other way out.
 */
export async function readBaseline(path: string, whenMissing = ''): Promise<Baseline> {
  const baseline = await readBaselineIfPresent(path)
  if (baseline === null) {
    throw new ConfigError(
      `Baseline file \`${path}\` does not exist. Create it with \`evals run <case-file> --update-baseline\`${whenMissing}.`,
    )
  }
  return baseline
}

/** As `readBaseline`, but null when the file does not exist (`--baseline-missing ok`); a corrupt file still throws. */
export async function readBaselineIfPresent(path: string): Promise<Baseline | null> {
  let text: string
  try {
    text = await readFile(path, 'utf8')
  } catch (error) {
    if (isErrnoException(error) && error.code === 'ENOENT') return null
    throw new ConfigError(`Cannot read baseline file \`${path}\`: ${toError(error).message}.`, {
      cause: error,
    })
  }
  return parseBaseline(text, path)
}

/** Parses baseline text; `file` names it in errors. */
export async function parseBaseline(text: string, file: string): Promise<Baseline> {
  let json: unknown
  try {
    json = JSON.parse(text)
  } catch (error) {
    throw new ConfigError(
      `Baseline file \`${file}\` is not valid JSON (${toError(error).message}). Fix it, or ${UPDATE_HINT}.`,
      { cause: error },
    )
  }
  const version =
    typeof json === 'object' && json !== null ? (json as Record<string, unknown>).schemaVersion : undefined
  if (typeof version === 'number' && version !== BASELINE_SCHEMA_VERSION) {
    const fix = version > BASELINE_SCHEMA_VERSION ? `upgrade evals, or ${UPDATE_HINT}` : UPDATE_HINT
    throw new ConfigError(
      `Baseline file \`${file}\` has schemaVersion ${version}, but this version of evals reads schemaVersion ` +
        `${BASELINE_SCHEMA_VERSION}. To fix it, ${fix}.`,
    )
  }
  // the schema (and zod) load only when a baseline is read, not on every run
  const { baselineSchema } = await import('./schema.ts')
  const parsed = baselineSchema.safeParse(json)
  if (!parsed.success) {
    throw new ConfigError(
      `Baseline file \`${file}\` does not match the baseline format:\n${formatIssues(parsed.error.issues)}\n` +
        `Fix these fields, or ${UPDATE_HINT}.`,
    )
  }
  return parsed.data
}

/**
 * Writes a baseline atomically: canonical JSON to a temp file in the same directory, flushed, then renamed over
 * `path`. Readers see the old file or the new one, never half of one; a failed write leaves the old file as it was.
 */
export async function writeBaseline(
  path: string,
  baseline: Baseline,
  redactor: Redactor = envRedactor(),
): Promise<void> {
  // the schema (and zod) load only when a baseline is written
  const { baselineSchema } = await import('./schema.ts')
  const parsed = baselineSchema.safeParse(baseline)
  if (!parsed.success) {
    throw new ConfigError(
      `Refusing to write an invalid baseline to \`${path}\`:\n${formatIssues(parsed.error.issues)}`,
    )
  }
  try {
    await writeFileAtomic(path, serializeBaseline(redactor.value(parsed.data)), { durable: true })
  } catch (error) {
    // a file system's refusal (full disk, a name too long, …) goes up as it is: the CLI says what it means
    if (typeof (error as NodeJS.ErrnoException).code === 'string') throw error
    throw new ConfigError(
      `Cannot write baseline file \`${path}\`: ${toError(error).message}. Check that its directory is writable.`,
      { cause: error },
    )
  }
}

function formatIssues(issues: readonly z.core.$ZodIssue[]): string {
  return issues.map((issue) => `  ${formatPath(issue.path)}: ${issue.message}`).join('\n')
}

function formatPath(path: readonly PropertyKey[]): string {
  if (path.length === 0) return '(root)'
  return path
    .map((key, index) => (typeof key === 'number' ? `[${key}]` : `${index === 0 ? '' : '.'}${String(key)}`))
    .join('')
}

function isErrnoException(error: unknown): error is NodeJS.ErrnoException {
  return error instanceof Error && 'code' in error
}
