/**
 * `agent-evals/vitest`: importing it (or listing it in `setupFiles`) registers the matchers and their types;
 * `describeSuite` turns a case file into vitest tests.
 */
import { loadSecretShapes } from '../util/redact.ts'
import './setup.ts'

// the matchers' failure messages are redacted with secretlint's shapes too: loaded once, as the module loads
await loadSecretShapes()

export type { EvalsAsyncMatchers, EvalsMatchers } from './setup.ts'
export { describeSuite } from './describe-suite.ts'
export type { DescribeSuiteOptions, EvalsTaskMeta, SuiteTarget } from './describe-suite.ts'
export type { CaseChecks, ToPassCaseOptions, ToPassJudgeOptions } from './case-matchers.ts'
export type { PiiKind, RunLimits, StandardSchemaLike, ToCallToolsOptions, ToolStep } from './matchers.ts'
export type { MatcherResult } from './format.ts'
export type { MatcherSubject } from './subject.ts'
