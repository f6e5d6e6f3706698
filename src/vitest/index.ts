/**
 * `agent-evals/vitest`: importing it (or listing it in `setupFiles`) registers the matchers and their types;
 * `describeSuite` turns a case file into vitest tests.
 */
import './setup.ts'

export type { EvalsAsyncMatchers, EvalsMatchers } from './setup.ts'
export { describeSuite } from './describe-suite.ts'
export type { DescribeSuiteOptions, EvalsTaskMeta, SuiteTarget } from './describe-suite.ts'
export type { CaseChecks, ToPassCaseOptions, ToPassJudgeOptions } from './case-matchers.ts'
export type { PiiKind, RunLimits, StandardSchemaLike, ToCallToolsOptions, ToolStep } from './matchers.ts'
export type { MatcherResult } from './format.ts'
export type { MatcherSubject } from './subject.ts'
