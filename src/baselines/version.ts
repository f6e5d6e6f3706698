/** The baseline format version this build reads and writes. */
export const BASELINE_SCHEMA_VERSION = 1
