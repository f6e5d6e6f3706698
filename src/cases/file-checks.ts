import type { Stats } from 'node:fs'
import { ConfigError } from '../errors.ts'
import { formatCount } from '../util/format-count.ts'

/** How long a glob may walk before it is stopped as too wide (`/**\/*.csv` walks the whole disk). */
export const GLOB_TIME_LIMIT_MS = 10_000
/** How deep a glob may descend below its base. */
export const GLOB_MAX_DEPTH = 32

/** tinyglobby's `glob`, as much of it as is used here. */
type Glob = (
  pattern: string,
  options: { cwd?: string; absolute: boolean; onlyFiles: boolean; deep: number; signal: AbortSignal },
) => Promise<string[]>

/** A glob's matches, or a one-line ConfigError when it walks longer than `GLOB_TIME_LIMIT_MS`. */
export async function boundedGlob(
  globs: { glob: Glob },
  pattern: string,
  options: { cwd?: string; absolute: boolean; onlyFiles: boolean },
): Promise<string[]> {
  const signal = AbortSignal.timeout(GLOB_TIME_LIMIT_MS)
  try {
    return await globs.glob(pattern, { ...options, deep: GLOB_MAX_DEPTH, signal })
  } catch (error) {
    if (!signal.aborted) throw error
    throw new ConfigError(
      `The glob \`${pattern}\` was still walking folders after ${GLOB_TIME_LIMIT_MS / 1000} s; start it in the folder that holds the files (e.g. \`data/*.csv\`, not \`/**/*.csv\`).`,
    )
  }
}

/** A directory, a FIFO or a device where a file was expected, in one line. */
export function notRegularFile(path: string, stats: Stats): string {
  const what = stats.isDirectory()
    ? 'a directory'
    : stats.isFIFO()
      ? 'a FIFO'
      : stats.isCharacterDevice() || stats.isBlockDevice()
        ? 'a device'
        : stats.isSocket()
          ? 'a socket'
          : 'not a regular file'
  const hint = stats.isDirectory() ? ', or a glob such as `dir/*.yaml`' : ''
  return `\`${path}\` is ${what}, not a file; give the path of a file${hint}.`
}

/** How deep `[` and `{` may nest in a case file: far past any real one, far below what overflows a parser's stack. */
export const MAX_NESTING = 1000

/**
 * Throws a one-line ConfigError when flow collections (`[`, `{`) nest deeper than `MAX_NESTING`, outside quoted
 * strings: one linear pass before the parsers, which recurse per level (100,000 levels overflowed the stack).
 */
export function checkNesting(path: string, text: string): void {
  let depth = 0
  let deepest = 0
  let quote = 0
  for (let i = 0; i < text.length; i++) {
    const char = text.charCodeAt(i)
    if (quote !== 0) {
      if (char === BACKSLASH && quote === DOUBLE) i++
      else if (char === quote) quote = 0
    } else if (char === DOUBLE || char === SINGLE) quote = char
    else if (char === OPEN_BRACKET || char === OPEN_BRACE) deepest = Math.max(deepest, ++depth)
    else if (char === CLOSE_BRACKET || char === CLOSE_BRACE) depth--
  }
  if (deepest > MAX_NESTING) {
    throw new ConfigError(
      `\`${path}\` nests values ${formatCount(deepest)} levels deep; a case file may nest at most ${formatCount(MAX_NESTING)}.`,
    )
  }
}

const code = (char: string): number => char.charCodeAt(0)
const BACKSLASH = code('\\')
const DOUBLE = code('"')
const SINGLE = code("'")
const OPEN_BRACKET = code('[')
const CLOSE_BRACKET = code(']')
const OPEN_BRACE = code('{')
const CLOSE_BRACE = code('}')
