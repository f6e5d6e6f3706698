/**
 * Where Node 20 keeps the TypeScript files it compiled (see import-typescript.ts), and when a compiled file is still
 * good. One output per source file, named by a hash of its path, so the entries of one graph and of other graphs
 * that import the same files (an agent and its checks, or two agents over one library) share the outputs:
 *
 * - `<key>.mjs`: the compiled file.
 * - `<key>.source.json`: what the output was compiled from (the source's size and modification time, and the
 *   tsconfig.json esbuild read for it) and the TypeScript files it imports. A later compile of any graph reuses the
 *   output while these are unchanged, and follows the imports without compiling.
 * - `<key>.json`: for an entry, every file of its graph, so a later load checks the stamps alone.
 */
import { createHash } from 'node:crypto'
import { existsSync, readFileSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { writeFileAtomicSync } from './atomic-file.ts'

/** bump when the compiled output's shape changes, so old cache entries are not reused */
const CACHE_FORMAT = 3
// one per user: another user's files in a shared temp directory are not ours to import
export const cacheDir = join(tmpdir(), `agent-evals-ts-${process.getuid?.() ?? 'user'}`)

type Stamp = [path: string, size: number, mtimeMs: number]

/** What a compiled entry depends on: every source file of its graph and the tsconfig.json esbuild read. */
interface Manifest {
  format: number
  files: Stamp[]
}

/** What one output was compiled from, and the TypeScript files it imports. */
interface SourceRecord {
  format: number
  source: Stamp
  tsconfig: Stamp | null
  imports: string[]
}

export const keyOf = (path: string): string => createHash('sha256').update(path).digest('hex').slice(0, 20)
export const outputOf = (path: string): string => join(cacheDir, `${keyOf(path)}.mjs`)
const manifestOf = (path: string): string => join(cacheDir, `${keyOf(path)}.json`)
const recordOf = (path: string): string => join(cacheDir, `${keyOf(path)}.source.json`)

function stampOf(path: string): Stamp | undefined {
  const stats = statSync(path, { throwIfNoEntry: false })
  return stats && [path, stats.size, stats.mtimeMs]
}

const unchanged = ([path, size, mtimeMs]: Stamp): boolean => {
  const now = stampOf(path)
  return now?.[1] === size && now[2] === mtimeMs
}

function readJson(path: string): unknown {
  try {
    return JSON.parse(readFileSync(path, 'utf8')) as unknown
  } catch {
    return undefined
  }
}

/** The compiled entry at absolute `path` while no file of its graph changed. */
export function cachedOutput(path: string): string | undefined {
  const manifest = readJson(manifestOf(path)) as Manifest | undefined
  if (manifest?.format !== CACHE_FORMAT || !manifest.files.every(unchanged)) return undefined
  return outputOf(path)
}

export function recordEntry(entry: string, sources: Iterable<string>): void {
  const files = [...sources, ...tsconfigOf(entry)].flatMap((file) => {
    const stamp = stampOf(file)
    return stamp ? [stamp] : []
  })
  writeFileAtomicSync(manifestOf(entry), JSON.stringify({ format: CACHE_FORMAT, files } satisfies Manifest))
}

/** The TypeScript files `source` imports, when its output is still good; undefined when it must be compiled. */
export function reusableImports(source: string): string[] | undefined {
  const record = readJson(recordOf(source)) as SourceRecord | undefined
  if (record?.format !== CACHE_FORMAT || !unchanged(record.source)) return undefined
  const [tsconfig] = tsconfigOf(source)
  if (tsconfig !== record.tsconfig?.[0] || (record.tsconfig !== null && !unchanged(record.tsconfig)))
    return undefined
  if (!existsSync(outputOf(source)) || !record.imports.every((file) => existsSync(file))) return undefined
  return record.imports
}

/** What `source` is compiled from, taken before it is: a change during the compile then shows at the next load. */
export function sourceStamps(source: string): Pick<SourceRecord, 'source' | 'tsconfig'> | undefined {
  const stamp = stampOf(source)
  const [tsconfig] = tsconfigOf(source)
  if (stamp === undefined) return undefined
  return { source: stamp, tsconfig: (tsconfig === undefined ? undefined : stampOf(tsconfig)) ?? null }
}

/** Writes `source`'s output, then the record that lets later compiles reuse it. */
export function saveOutput(
  source: string,
  text: string,
  stamps: Pick<SourceRecord, 'source' | 'tsconfig'>,
  imports: Iterable<string>,
): void {
  writeFileAtomicSync(outputOf(source), text)
  const record: SourceRecord = { format: CACHE_FORMAT, ...stamps, imports: [...imports] }
  writeFileAtomicSync(recordOf(source), JSON.stringify(record))
}

/** the tsconfig.json esbuild reads for a file: the nearest one up from its folder */
function tsconfigOf(file: string): string[] {
  for (let dir = dirname(file); ; dir = dirname(dir)) {
    const tsconfig = join(dir, 'tsconfig.json')
    if (existsSync(tsconfig)) return [tsconfig]
    if (dirname(dir) === dir) return []
  }
}
