/** per-case limit on target plus evaluators, unless a flag or the case file sets one */
export const DEFAULT_TIMEOUT_MS = 60_000

/** (case, trial) pairs run at once */
export const DEFAULT_CONCURRENCY = 4

/** how long running cases may finish after an interrupt before they are aborted */
export const DEFAULT_GRACE_MS = 2000

/** where `<runId>/` with results and reports goes */
export const DEFAULT_OUT_DIR = 'reports'

/** where baselines and snapshots are written */
export const DEFAULT_BASELINE_DIR = 'baselines'

/** the longest string a result stores unless `--max-stored-chars` says otherwise: about a megabyte of text */
export const DEFAULT_MAX_STORED_CHARS = 1_000_000

/** How long spans of an http or command target are waited for after its reply: until quiet this long, at most so long. */
export const DEFAULT_TRACE_WAIT = { quietMs: 200, maxWaitMs: 2000 }
