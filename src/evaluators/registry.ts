import { ConfigError } from '../errors.ts'
import { didYouMean } from '../util/did-you-mean.ts'
import { answeredBy, guardrailTripped, interrupted } from './agent-flow.ts'
import { costUsdLte, iterationsLte, latencyMsLte } from './budgets.ts'
import { bleu } from './bleu.ts'
import { contains, notContains } from './contains.ts'
import { containsAll, containsAny, icontains } from './contains-set.ts'
import { custom } from './custom.ts'
import type { EvaluatorDefinition } from './definition.ts'
import { code } from './describe.ts'
import { equals } from './equals.ts'
import { isRefusal } from './is-refusal.ts'
import { isValidToolCall } from './is-valid-tool-call.ts'
import { javascript } from './javascript.ts'
import { json, parsed } from './json.ts'
import { jsonSchema } from './json-schema.ts'
import { maxLength, minLength } from './length.ts'
import { levenshtein } from './levenshtein.ts'
import { noInjection } from './no-injection.ts'
import { noPii } from './no-pii.ts'
import { endsWith, output, outputRegex, startsWith } from './output-match.ts'
import { rougeN } from './rouge-n.ts'
import { similar } from './similar.ts'
import { stopReason } from './stop-reason.ts'
import { toolArgs, tool, tools } from './tools.ts'
import { errorSpansLte, spanCount, spanDurationLte } from './trace-checks.ts'
import { toolOrder, trajectory } from './trajectory.ts'

/** Every built-in check, in the order the JSON Schema and the docs list them. */
export const evaluatorDefinitions: readonly EvaluatorDefinition[] = [
  tool,
  tools,
  toolArgs,
  toolOrder,
  trajectory,
  contains,
  notContains,
  output,
  outputRegex,
  json,
  parsed,
  jsonSchema,
  startsWith,
  endsWith,
  minLength,
  maxLength,
  latencyMsLte,
  costUsdLte,
  iterationsLte,
  spanCount,
  errorSpansLte,
  spanDurationLte,
  noPii,
  noInjection,
  custom,
  equals,
  icontains,
  containsAny,
  containsAll,
  levenshtein,
  rougeN,
  bleu,
  isRefusal,
  javascript,
  isValidToolCall,
  stopReason,
  similar,
  answeredBy,
  guardrailTripped,
  interrupted,
]

/** The registry: case-file kind → definition (schemas, shorthand, factory). */
export const evaluatorRegistry: ReadonlyMap<string, EvaluatorDefinition> = new Map(
  evaluatorDefinitions.map((definition) => [definition.kind, definition]),
)

/** The ConfigError for a kind the registry does not know, at `path`, with a did-you-mean. */
export function unknownKind(kind: string, path: string): never {
  const suggestion = didYouMean(kind, evaluatorRegistry.keys())
  throw new ConfigError(
    `Unknown evaluator kind "${kind}" at ${path}.${suggestion ? ` Did you mean ${code(suggestion)}?` : ''} Known kinds: ${[...evaluatorRegistry.keys()].join(', ')}.`,
  )
}
