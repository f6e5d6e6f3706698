/**
 * Runs `work` over `jobs` with at most `concurrency` at once, pulling jobs lazily so a 100k-job run never queues
 * 100k closures. Stops taking jobs once `shouldStop()` is true; running jobs finish.
 */
export async function runPool<Job>(
  jobs: Iterator<Job>,
  concurrency: number,
  work: (job: Job) => Promise<void>,
  shouldStop: () => boolean,
): Promise<void> {
  const worker = async (): Promise<void> => {
    while (!shouldStop()) {
      const next = jobs.next()
      if (next.done === true) return
      await work(next.value)
    }
  }
  await Promise.all(Array.from({ length: Math.max(1, concurrency) }, worker))
}
