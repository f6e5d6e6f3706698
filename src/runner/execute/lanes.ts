import type { Suite } from '../../cases/suite.ts'
import { runPool, type PoolSlot } from './pool.ts'

/**
 * Runs the pairs of `suites` in lanes, each with `concurrency` workers of its own: suites with the same `laneOf`
 * key (the provider of a variant's model) share a lane, so a slow provider holds up only its own variants. A run
 * without variants is a single lane, as one pool. Rejects when `work` throws.
 */
export async function runLanes<Job>(
  suites: readonly Suite[],
  laneOf: (suite: Suite) => string,
  jobsOf: (lane: readonly Suite[]) => Iterator<Job>,
  concurrency: number,
  work: (job: Job, slot: PoolSlot) => Promise<void>,
  shouldStop: () => boolean,
): Promise<void> {
  const lanes = new Map<string, Suite[]>()
  for (const suite of suites) {
    const key = laneOf(suite)
    const lane = lanes.get(key)
    if (lane) lane.push(suite)
    else lanes.set(key, [suite])
  }
  await Promise.all(
    Array.from(lanes.values(), (lane) => runPool(jobsOf(lane), concurrency, work, shouldStop)),
  )
}

/** The provider part of a model string (`openai` of `openai:gpt-4.1-mini`); '' without a model. */
export function providerOf(model: string | undefined): string {
  return model?.split(':')[0] ?? ''
}
