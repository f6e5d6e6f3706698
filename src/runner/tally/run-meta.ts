import { dirname } from 'node:path'
import { gitInfo } from '../../util/git.ts'
import { hashInput } from '../../baselines/hash.ts'
import type { RunMeta } from '../../baselines/summary.ts'
import type { Suite } from '../../cases/suite.ts'

/** case-file keys of a judge item that are options, not the judge's name */
const JUDGE_OPTIONS = new Set(['spec', 'threshold', 'samples', 'weight', 'reference', 'context'])

/** Who and what ran a suite, as recorded in its baseline. `git` comes from the case file's repository. */
export function runMetaOf(
  suite: Suite,
  fields: { createdAt: string; targetId: string; model: string | undefined; git: RunMeta['git'] },
): RunMeta {
  const judged = suite.cases.judged
  return {
    suite: suite.name,
    createdAt: fields.createdAt,
    ...(fields.git && { git: fields.git }),
    targetId: fields.targetId,
    modelId: fields.model ?? null,
    judgeModel: judged ? (suite.judge?.model ?? null) : null,
    judgeSpecHashes: judgeSpecHashes(suite),
  }
}

/**
 * Judge name → hash of every way the suite uses it (argument, spec file, threshold, samples), so a changed rubric
 * or threshold is noticed. Per-case `reference` and `context` are inputs, not specs, and are left out.
 */
function judgeSpecHashes(suite: Suite): Record<string, string> {
  const uses = new Map<string, Set<string>>()
  // building every case is the price of judges only
  for (const caseDef of suite.cases.judged ? suite.cases : []) {
    for (const item of caseDef.judge ?? []) {
      const spec = Object.fromEntries(
        Object.entries(item).filter(([key]) => key !== 'reference' && key !== 'context'),
      )
      const judgeKeys = Object.keys(item).filter((key) => !JUDGE_OPTIONS.has(key))
      const name = judgeKeys[0] ?? (typeof item.spec === 'string' ? `spec:${item.spec}` : 'judge')
      const set = uses.get(name) ?? new Set<string>()
      set.add(hashInput(spec))
      uses.set(name, set)
    }
  }
  return Object.fromEntries([...uses].map(([name, hashes]) => [name, hashInput([...hashes].sort())]))
}

/** The commit and branch of the repository holding `file`; undefined outside a repository or without commits. */
export async function gitInfoOf(file: string): Promise<RunMeta['git']> {
  return gitInfo(dirname(file))
}
