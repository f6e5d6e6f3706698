import { createHash } from 'node:crypto'
import { readFile } from 'node:fs/promises'
import { z } from 'zod'
import { canonicalJson } from '../util/canonical-json.ts'
import { writeFileAtomic } from '../util/atomic-file.ts'
import { envRedactor } from '../util/redact.ts'
import { ConfigError } from '../errors.ts'

/** One pinned set of g-eval steps, as stored in `__judges__/<suite>.json`. */
export interface PinnedSteps {
  judge: string
  specHash: string
  criteria: string
  /** the model that generated the steps */
  judgeModel: string
  steps: string[]
}

const stepsFileSchema = z.object({
  schemaVersion: z.literal(1),
  steps: z.record(
    z.string(),
    z.object({
      judge: z.string(),
      specHash: z.string(),
      criteria: z.string(),
      judgeModel: z.string(),
      steps: z.array(z.string()),
    }),
  ),
})

type StepsFile = z.output<typeof stepsFileSchema>

const inFlight = new Map<string, Promise<PinnedSteps>>()
const writes = new Map<string, Promise<unknown>>()

/** The key of a criteria under a spec: changes when either does. */
export function stepsKey(specHash: string, criteria: string): string {
  return createHash('sha256').update(canonicalJson({ specHash, criteria })).digest('hex').slice(0, 16)
}

/**
 * The steps pinned in `file` for this spec and criteria; when none are, `generate` makes them once (concurrent
 * callers share the call) and they are added to the file, written atomically (temp file + rename).
 */
export async function pinnedSteps(
  file: string,
  entry: Omit<PinnedSteps, 'steps' | 'judgeModel'>,
  generate: () => Promise<{ steps: string[]; judgeModel: string }>,
): Promise<PinnedSteps & { key: string; generated: boolean }> {
  const key = stepsKey(entry.specHash, entry.criteria)
  const pinned = (await readStepsFile(file)).steps[key]
  if (pinned) return { ...pinned, key, generated: false }
  const id = `${file}\0${key}`
  let pending = inFlight.get(id)
  if (!pending) {
    pending = generate().then(async ({ steps, judgeModel }) => {
      const made: PinnedSteps = { ...entry, judgeModel, steps }
      await queueWrite(file, (current) => ({
        ...current,
        steps: { ...current.steps, [key]: made },
      }))
      return made
    })
    inFlight.set(id, pending)
    void pending.then(
      () => inFlight.delete(id),
      () => inFlight.delete(id),
    )
  }
  return { ...(await pending), key, generated: true }
}

async function readStepsFile(file: string): Promise<StepsFile> {
  let text: string
  try {
    text = await readFile(file, 'utf8')
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { schemaVersion: 1, steps: {} }
    throw error
  }
  let data: unknown
  try {
    data = JSON.parse(text)
  } catch (error) {
    throw new ConfigError(`Cannot parse the pinned g-eval steps in ${file}: ${(error as Error).message}`)
  }
  const parsed = stepsFileSchema.safeParse(data)
  if (!parsed.success)
    throw new ConfigError(`Invalid pinned g-eval steps in ${file}:\n${z.prettifyError(parsed.error)}`)
  return parsed.data
}

// one write at a time per file, each re-reading it, so concurrent cases and judges merge their entries
function queueWrite(file: string, update: (current: StepsFile) => StepsFile): Promise<void> {
  const previous = writes.get(file) ?? Promise.resolve()
  const next = previous
    .catch(() => undefined)
    .then(async () => {
      const updated = update(await readStepsFile(file))
      const sorted = Object.fromEntries(Object.entries(updated.steps).sort(([a], [b]) => (a < b ? -1 : 1)))
      const value = envRedactor().value({ ...updated, steps: sorted })
      await writeFileAtomic(file, `${JSON.stringify(value, null, 2)}\n`)
    })
  writes.set(file, next)
  return next
}
