import { existsSync, statSync } from 'node:fs'
import { appendFile, mkdir, readFile } from 'node:fs/promises'
import { dirname, relative } from 'node:path'
import type { CallRecorder, CallScope, RecordedCall, RecordedToolOutcome } from '../engine/call-scope.ts'
import { ConfigError, EvalsError } from '../errors.ts'
import type { Completion, CompletionRequest } from '../providers/provider.ts'
import type { Redactor } from '../util/redact.ts'
import { canonicalRequest } from './canonical.ts'
import { readCassetteLine } from './cassette-entry.ts'
import { entryBase, keyOf, nearestOf, type EntryBase } from './cassette-keys.ts'
import { formatChanges, jsonChanges } from './diff.ts'

/** `record` calls live and saves every call; `replay` serves calls and fails on a miss; `auto` records misses. */
export type CassetteMode = 'record' | 'replay' | 'auto'

/** A model call: the canonical request (secrets scrubbed) and the completion, usage included. */
export interface ModelCassetteEntry extends EntryBase {
  kind: 'model'
  providerId: string
  request: unknown
  completion: Completion
}

/** A call of a tool defined with `record: true`. */
export interface ToolCassetteEntry extends EntryBase {
  kind: 'tool'
  tool: string
  args: unknown
  outcome: RecordedToolOutcome
}

/** An HTTP exchange of an SDK the engine does not own: the canonical request, the reply whole or as stream events. */
export interface HttpCassetteEntry extends EntryBase {
  kind: 'http'
  request: { method: string; host: string; path: string; body: unknown }
  response: { status: number; headers: Record<string, string>; body?: unknown; chunks?: string[] }
}

/** One line of a cassette file. */
export type CassetteEntry = ModelCassetteEntry | ToolCassetteEntry | HttpCassetteEntry

/** `--replay` met a call the cassette does not hold; the message diffs it against the nearest recorded one. */
export class ReplayMissError extends EvalsError {
  readonly code = 'EVALS_REPLAY_MISS'
}

/**
 * A suite's cassette: `__cassettes__/<suite>.jsonl`, one JSON entry a line, append-only through one writer per
 * file; a torn last line (a killed run) is ignored on load. A later entry for the same key wins.
 */
export class Cassette implements CallRecorder {
  readonly path: string
  readonly mode: CassetteMode
  readonly #byKey = new Map<string, CassetteEntry>()
  readonly #providers = new Set<string>()
  #pending: string[] = []
  #flushing: Promise<void> | undefined
  #writeError: unknown
  /** the file exists and does not end with a newline (a torn line): the next write starts a new line */
  #needsNewline = false
  #existed = false
  #recorded = 0
  readonly #redactor: Redactor

  private constructor(path: string, mode: CassetteMode, redactor: Redactor) {
    this.path = path
    this.mode = mode
    this.#redactor = redactor
  }

  /**
   * Loads the cassette at `path` (missing is empty); `replay` and `auto` serve from it. What it records goes through
   * `redactor` (the run's), value by value: a cassette is committed.
   */
  static async open(path: string, mode: CassetteMode, redactor: Redactor): Promise<Cassette> {
    const cassette = new Cassette(path, mode, redactor)
    if (existsSync(path)) {
      if (!statSync(path).isFile()) {
        throw new ConfigError(
          `The cassette \`${path}\` is a folder or a special file, not a file; remove it, or re-record with \`--record\`.`,
        )
      }
      const text = await readFile(path, 'utf8')
      cassette.#existed = true
      cassette.#needsNewline = text.length > 0 && !text.endsWith('\n')
      cassette.#load(text)
    }
    return cassette
  }

  #load(text: string): void {
    const lines = text.split('\n')
    lines.forEach((line, index) => {
      if (!line.trim()) return
      const read = readCassetteLine(line)
      if (read.ok) {
        this.#add(read.entry as CassetteEntry)
        return
      }
      // a torn last line is what a killed recording leaves: ignored
      const torn =
        index === lines.length - 1 && !text.endsWith('\n') && read.problem.startsWith('is not JSON')
      if (torn) return
      throw new ConfigError(
        `${this.display()}:${String(index + 1)} ${read.problem}. Delete the line, or re-record the suite with \`--record\`.`,
      )
    })
  }

  /** what the file held when loaded, for messages: missing, empty, or its calls by provider */
  describe(): string {
    if (!this.#existed) return 'no such file'
    if (this.#byKey.size === 0) return 'empty'
    const providers = [...this.#providers].map((id) => `\`${id}\``)
    return `${String(this.#byKey.size)} calls${providers.length > 0 ? `, to ${providers.join(', ')}` : ', to tools only'}`
  }

  /** entries loaded or recorded so far, one per key */
  get size(): number {
    return this.#byKey.size
  }

  /** whether the cassette holds calls to this provider id (a model string such as `openai:gpt-4.1-mini`) */
  covers(providerId: string): boolean {
    return this.#providers.has(providerId)
  }

  model(call: {
    scope: CallScope
    providerId: string
    request: CompletionRequest
  }): RecordedCall<Completion> {
    const request = canonicalRequest(call.request)
    const { key, seq } = keyOf(call.scope, { kind: 'model', providerId: call.providerId, request })
    const found = this.mode === 'record' ? undefined : this.#byKey.get(key)
    if (found?.kind === 'model') return { replayed: structuredClone(found.completion), save: () => undefined }
    if (this.mode === 'replay') throw this.#modelMiss(call.scope, call.providerId, request, seq)
    return {
      replayed: undefined,
      save: (completion) => {
        this.#save({
          ...entryBase(call.scope, key, seq),
          kind: 'model',
          providerId: call.providerId,
          request,
          completion,
        })
      },
    }
  }

  tool(call: { scope: CallScope; tool: string; args: unknown }): RecordedCall<RecordedToolOutcome> {
    const args: unknown = JSON.parse(JSON.stringify(call.args ?? null))
    const { key, seq } = keyOf(call.scope, { kind: 'tool', tool: call.tool, args })
    const found = this.mode === 'record' ? undefined : this.#byKey.get(key)
    if (found?.kind === 'tool') return { replayed: structuredClone(found.outcome), save: () => undefined }
    if (this.mode === 'replay') throw this.#toolMiss(call.scope, call.tool, args)
    return {
      replayed: undefined,
      save: (outcome) => {
        this.#save({ ...entryBase(call.scope, key, seq), kind: 'tool', tool: call.tool, args, outcome })
      },
    }
  }

  /** the entry recorded under `key`, unless recording afresh */
  find(key: string): CassetteEntry | undefined {
    return this.mode === 'record' ? undefined : this.#byKey.get(key)
  }

  /** Saves an entry (redacted) and appends it to the file. */
  record(entry: CassetteEntry): void {
    this.#save(entry)
  }

  /** the HTTP exchanges held, for a miss's nearest match */
  httpEntries(): HttpCassetteEntry[] {
    return [...this.#byKey.values()].filter((entry): entry is HttpCassetteEntry => entry.kind === 'http')
  }

  /** entries saved by this run */
  get recorded(): number {
    return this.#recorded
  }

  /** Waits for every entry to reach the file; rethrows a failed write. */
  async close(): Promise<void> {
    while (this.#flushing) await this.#flushing
    if (this.#writeError !== undefined) {
      throw new ConfigError(`Could not write the cassette ${this.display()}.`, { cause: this.#writeError })
    }
  }

  #add(entry: CassetteEntry): void {
    this.#byKey.set(entry.key, entry)
    if (entry.kind === 'model') this.#providers.add(entry.providerId)
    if (entry.kind === 'http') this.#providers.add(entry.request.host)
  }

  #save(entry: CassetteEntry): void {
    const redacted = this.#redactor.value(entry)
    const line = JSON.stringify(redacted)
    this.#recorded++
    this.#add(redacted)
    this.#pending.push(`${line}\n`)
    this.#flushing ??= this.#drain()
  }

  /** the single writer: appends what is pending, one write at a time, until nothing is */
  async #drain(): Promise<void> {
    try {
      await mkdir(dirname(this.path), { recursive: true })
      while (this.#pending.length > 0) {
        const chunk = (this.#needsNewline ? '\n' : '') + this.#pending.join('')
        this.#pending = []
        this.#needsNewline = false
        await appendFile(this.path, chunk)
      }
    } catch (error) {
      this.#writeError ??= error
      this.#pending = []
    } finally {
      this.#flushing = undefined
    }
  }

  #modelMiss(scope: CallScope, providerId: string, request: unknown, seq: number): ReplayMissError {
    const models = [...this.#byKey.values()].filter(
      (entry): entry is ModelCassetteEntry => entry.kind === 'model',
    )
    const sameProvider = models.filter((entry) => entry.providerId === providerId)
    const nearest = nearestOf(scope, sameProvider.length > 0 ? sameProvider : models, (entry) =>
      jsonChanges(entry.request, request),
    )
    const where = `case \`${scope.caseId}\`, trial ${scope.trial}${seq > 0 ? `, repeat ${seq + 1} of this request` : ''}`
    let detail: string
    if (!nearest)
      detail = `The cassette holds no model calls${models.length > 0 ? ` for \`${providerId}\`` : ''}.`
    else if (nearest.changes.length === 0 && nearest.entry.trial !== scope.trial)
      detail = `The same request is recorded for trial ${nearest.entry.trial}: the trial index is part of the key, so record with as many trials as you replay.`
    else if (nearest.changes.length === 0)
      detail = `The same request was recorded ${seq} time${seq === 1 ? '' : 's'} in this case; this is repeat ${seq + 1}.`
    else
      detail = `Nearest recorded request (case \`${nearest.entry.caseId}\`, trial ${nearest.entry.trial}${nearest.entry.providerId === providerId ? '' : `, \`${nearest.entry.providerId}\``}), recorded → now:\n${formatChanges(nearest.changes)}`
    return new ReplayMissError(
      `Replay miss: no recorded call to \`${providerId}\` in ${this.display()} for this request (${where}). ${detail}\nRecord it with \`--record\` or \`--replay auto\`.`,
    )
  }

  #toolMiss(scope: CallScope, tool: string, args: unknown): ReplayMissError {
    const tools = [...this.#byKey.values()].filter(
      (entry): entry is ToolCassetteEntry => entry.kind === 'tool' && entry.tool === tool,
    )
    const nearest = nearestOf(scope, tools, (entry) => jsonChanges(entry.args, args))
    const detail = nearest
      ? `Nearest recorded arguments (case \`${nearest.entry.caseId}\`), recorded → now:\n${formatChanges(nearest.changes)}`
      : 'The cassette holds no calls of this tool.'
    return new ReplayMissError(
      `Replay miss: no recorded call of tool \`${tool}\` in ${this.display()} for these arguments (case \`${scope.caseId}\`, trial ${scope.trial}). ${detail}\nRecord it with \`--record\` or \`--replay auto\`.`,
    )
  }

  /** the file's path, relative to the working folder when inside it */
  display(): string {
    const shown = relative(process.cwd(), this.path)
    return shown && !shown.startsWith('..') ? shown : this.path
  }
}
