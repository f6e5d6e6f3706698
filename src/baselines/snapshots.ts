import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { ConfigError } from '../errors.ts'
import { writeFileAtomic } from '../util/atomic-file.ts'
import { canonicalJson } from '../util/canonical-json.ts'

/** `<suite>.snapshots.json` format version. */
export const SNAPSHOTS_VERSION = 1

/** A case's output as last accepted. */
export interface Snapshot {
  output: string
  /** each reply of a conversation case, in turn order */
  turns?: string[]
}

/** What `<dir>/<suite>.snapshots.json` holds: the accepted output of each snapshot case, by case id. */
export interface SnapshotFile {
  version: typeof SNAPSHOTS_VERSION
  suite: string
  snapshots: Record<string, Snapshot>
}

/** The snapshot file of a suite, beside its baseline: `baselines/<suite>.snapshots.json`. */
export function snapshotsPath(directory: string, suite: string): string {
  return join(directory, `${suite.replace(/[^\w.-]/g, '-')}.snapshots.json`)
}

/** Reads a snapshot file; undefined when there is none; a ConfigError naming the file when it is unreadable. */
export async function readSnapshots(path: string): Promise<SnapshotFile | undefined> {
  let text: string
  try {
    text = await readFile(path, 'utf8')
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined
    throw error
  }
  const fix = 'delete it and run again with `--update-snapshots` to write it afresh'
  let file: Partial<SnapshotFile>
  try {
    file = JSON.parse(text) as Partial<SnapshotFile>
  } catch (error) {
    throw new ConfigError(
      `Snapshot file \`${path}\` is not valid JSON (${(error as Error).message}); ${fix}.`,
    )
  }
  if (file.version !== SNAPSHOTS_VERSION || typeof file.snapshots !== 'object') {
    throw new ConfigError(
      `Snapshot file \`${path}\` is not a version ${String(SNAPSHOTS_VERSION)} snapshot file; ${fix}.`,
    )
  }
  return file as SnapshotFile
}

/** Writes a snapshot file atomically: canonical JSON (keys sorted), indented so it diffs well in review. */
export async function writeSnapshots(path: string, file: SnapshotFile): Promise<void> {
  await writeFileAtomic(path, `${JSON.stringify(JSON.parse(canonicalJson(file)), null, 2)}\n`)
}
