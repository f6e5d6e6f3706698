import { createHash } from 'node:crypto'
import type { Suite } from '../../cases/suite.ts'
import { ConfigError } from '../../errors.ts'
import type { Shard } from '../../model/run-report.ts'

/** Parses `i/n` with 1 ≤ i ≤ n; throws a ConfigError naming the flag otherwise. */
export function parseShard(value: string): Shard {
  const match = /^(\d+)\/(\d+)$/.exec(value.trim())
  const index = Number(match?.[1])
  const count = Number(match?.[2])
  if (!match || count < 1 || index < 1 || index > count) {
    throw new ConfigError(
      `evals run: \`--shard\` must be \`i/n\` with 1 ≤ i ≤ n, e.g. \`--shard 2/4\`, got "${value}".`,
    )
  }
  return { index, count }
}

/**
 * The 1-based shard of a case: a hash of its suite name and id, so a case stays in its shard whatever the file
 * order or the machine, and adding a case moves no other. Every trial of a case goes to the same shard.
 */
export function shardOf(suite: string, caseId: string, count: number): number {
  const digest = createHash('sha256').update(`${suite}\u0000${caseId}`).digest()
  return (digest.readUInt32BE(0) % count) + 1
}

/** The suites with only this shard's cases; suites left empty stay, so every shard plans the same suites. */
export function selectShard(suites: readonly Suite[], shard: Shard | undefined): Suite[] {
  if (shard === undefined) return [...suites]
  return suites.map((suite) => ({
    ...suite,
    cases: suite.cases.pick(
      [...suite.cases.keys()].filter(
        (index) => shardOf(suite.name, suite.cases.id(index), shard.count) === shard.index,
      ),
    ),
  }))
}
