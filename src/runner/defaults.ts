/** per-case limit on target plus evaluators, when neither a flag nor the case file sets one */
export const DEFAULT_TIMEOUT_MS = 60_000
/** (case, trial) pairs run at once */
export const DEFAULT_CONCURRENCY = 4
/** how long running cases may finish after an interrupt before they are aborted */
export const DEFAULT_GRACE_MS = 2000
/** where run directories go */
export const DEFAULT_OUT_DIR = 'reports'
