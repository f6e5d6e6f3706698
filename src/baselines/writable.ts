import type { CaseSummary } from './summary.ts'

/** Why a suite's run may not become its baseline: its failed and errored cases, known failures left out. */
export interface BaselineBlockers {
  failed: string[]
  errored: string[]
}

/**
 * The cases that keep a suite's run from becoming its baseline: those that failed or errored, except known failures
 * (`expect_fail`), which are recorded as they are. Empty lists mean the suite is clean.
 */
export function baselineBlockers(
  cases: Iterable<Pick<CaseSummary, 'id' | 'status' | 'expectFail'>>,
): BaselineBlockers {
  const failed: string[] = []
  const errored: string[] = []
  for (const entry of cases) {
    if (entry.expectFail !== undefined) continue
    if (entry.status === 'failed') failed.push(entry.id)
    else if (entry.status === 'errored') errored.push(entry.id)
  }
  return { failed, errored }
}

/** "2 failed (`a`, `b`) and 1 errored (`c`)", or undefined when nothing blocks. */
export function blockersSentence({ failed, errored }: BaselineBlockers, limit = 5): string | undefined {
  const part = (ids: string[], what: string): string[] =>
    ids.length === 0
      ? []
      : [
          `${ids.length} ${what} (${ids
            .slice(0, limit)
            .map((id) => `\`${id}\``)
            .join(', ')}${ids.length > limit ? ', …' : ''})`,
        ]
  const parts = [...part(failed, 'failed'), ...part(errored, 'errored')]
  return parts.length === 0 ? undefined : parts.join(' and ')
}
