import { createRequire } from 'node:module'
import { relative } from 'node:path'
import type * as Diff from 'diff'
import {
  readSnapshots,
  snapshotsPath,
  writeSnapshots,
  SNAPSHOTS_VERSION,
  type Snapshot,
} from '../../baselines/snapshots.ts'
import type { Transcript } from '../../types.ts'
import type { CaseResult, ConversationTurn, SnapshotOutcome } from '../../model/case-result.ts'
import type { SnapshotSummary } from '../../model/run-report.ts'
import type { Redactor } from '../../util/redact.ts'

/** Where snapshots are kept and whether this run accepts the current outputs. */
export interface SnapshotOptions {
  /** the directory of `<suite>.snapshots.json`, beside the baselines @default 'baselines' */
  dir: string
  /** store every case's output, replacing what was stored (`--update-snapshots`) @default false */
  update?: boolean
}

/** One suite's snapshots during a run: compared as pairs finish, written once at the end if anything changed. */
export class SuiteSnapshots {
  readonly path: string
  readonly #suite: string
  readonly #stored: Map<string, Snapshot>
  readonly #update: boolean
  readonly #redactor: Redactor
  #dirty = false

  private constructor(
    path: string,
    suite: string,
    stored: Map<string, Snapshot>,
    update: boolean,
    redactor: Redactor,
  ) {
    this.path = path
    this.#suite = suite
    this.#stored = stored
    this.#update = update
    this.#redactor = redactor
  }

  /** Reads a suite's snapshots; outputs are compared and stored as `redactor` leaves them: the file is committed. */
  static async open(suite: string, options: SnapshotOptions, redactor: Redactor): Promise<SuiteSnapshots> {
    const path = snapshotsPath(options.dir, suite)
    const file = await readSnapshots(path)
    return new SuiteSnapshots(
      path,
      suite,
      new Map(Object.entries(file?.snapshots ?? {})),
      options.update === true,
      redactor,
    )
  }

  /** Whether a case is compared: it asks for a snapshot, has one stored, or this run stores them all. */
  covers(caseId: string, requested: boolean): boolean {
    return requested || this.#update || this.#stored.has(caseId)
  }

  /** Compares one pair's output with the stored snapshot; the first trial's output is stored when new or updating. */
  check(
    caseId: string,
    trial: number,
    transcript: Transcript,
    turns: readonly ConversationTurn[],
  ): SnapshotOutcome {
    const current: Snapshot = this.#redactor.value({
      output: transcript.output,
      ...(turns.length > 0 && { turns: turns.map((turn) => turn.output) }),
    })
    const stored = this.#stored.get(caseId)
    const store = (): void => {
      if (trial !== 0) return
      this.#stored.set(caseId, current)
      this.#dirty = true
    }
    if (stored === undefined) {
      store()
      return { file: this.#display(), status: 'new' }
    }
    const before = snapshotText(stored)
    const after = snapshotText(current)
    if (before === after) return { file: this.#display(), status: 'unchanged' }
    if (this.#update) store()
    return {
      diff: diffOf(before, after),
      file: this.#display(),
      status: this.#update ? 'updated' : 'changed',
    }
  }

  /** Writes the file when some snapshot was added or replaced, its values through `redactor`; returns its path then. */
  async save(redactor: Redactor): Promise<string | undefined> {
    if (!this.#dirty) return undefined
    const stored = Object.fromEntries(this.#stored)
    const snapshots = await redactor.valueLoaded(stored)
    await writeSnapshots(this.path, { version: SNAPSHOTS_VERSION, suite: this.#suite, snapshots })
    this.#dirty = false
    return this.path
  }

  #display(): string {
    return relative(process.cwd(), this.path) || this.path
  }
}

/** A snapshot as the text its diff is taken of: the output, or each reply of a conversation under its turn. */
function snapshotText(snapshot: Snapshot): string {
  if (snapshot.turns === undefined) return snapshot.output
  return snapshot.turns.map((output, at) => `[turn ${String(at + 1)}]\n${output}`).join('\n')
}

let diffLibrary: typeof Diff | undefined

/** A unified diff of the two texts without the file header: hunks of `-` snapshot and `+` current lines. */
function diffOf(before: string, after: string): string {
  // `diff` loads when a snapshot first changes: most runs never need it
  diffLibrary ??= createRequire(import.meta.url)('diff') as typeof Diff
  const { hunks } = diffLibrary.structuredPatch('snapshot', 'current', `${before}\n`, `${after}\n`, '', '', {
    context: 2,
  })
  return hunks
    .flatMap((hunk) => [
      `@@ -${String(hunk.oldStart)},${String(hunk.oldLines)} +${String(hunk.newStart)},${String(hunk.newLines)} @@`,
      ...hunk.lines,
    ])
    .join('\n')
}

const LISTED_CHANGES = 20

/** Counts the snapshot outcomes of a run as pairs finish, keeping the first changed ones with their diffs. */
export class SnapshotTally {
  readonly summary: SnapshotSummary = { new: 0, unchanged: 0, changed: 0, updated: 0, moved: [], written: [] }

  add(result: CaseResult): void {
    if (result.status !== 'passed' && result.status !== 'failed') return
    const outcome = result.snapshot
    if (!outcome) return
    this.summary[outcome.status]++
    const { status, diff } = outcome
    if (
      (status === 'changed' || status === 'updated') &&
      diff !== undefined &&
      this.summary.moved.length < LISTED_CHANGES
    ) {
      const { suite, caseId, trial } = result
      this.summary.moved.push({ suite, caseId, trial, status, diff })
    }
  }
}
