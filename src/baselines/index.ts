export {
  baselinePath,
  parseBaseline,
  readBaseline,
  readBaselineIfPresent,
  writeBaseline,
} from './baseline.ts'
export { canonicalBaseline, serializeBaseline } from './canonical.ts'
export { compareToBaseline } from './compare.ts'
export type {
  CaseComparison,
  CaseSide,
  CompareOptions,
  Comparison,
  PairedComparison,
  Transition,
} from './comparison.ts'
export { gateOptionsSchema } from './gate-options.ts'
export type { GateOptions, ResolvedGateOptions } from './gate-options.ts'
export { evaluateGate, floorFor, resolveGateOptions } from './gate.ts'
export type { GateResult } from './gate.ts'
export { hashInput } from './hash.ts'
export { baselineCaseSchema, baselineSchema } from './schema.ts'
export type { Baseline, BaselineCase } from './schema.ts'
export { baselineFromSummaries } from './summary.ts'
export type { CaseStatus, CaseSummary, RunMeta, RunSummary } from './summary.ts'
export { BASELINE_SCHEMA_VERSION } from './version.ts'
