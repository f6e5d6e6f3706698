import {
  constructFromEvents,
  defineScalarTag,
  EVENT_ID,
  FAILSAFE_SCHEMA,
  getScalarValue,
  NOT_RESOLVED,
  parseEvents,
  SCALAR_STYLE,
  type Event,
} from 'js-yaml'
import { parseSource, type SourceMap } from './source-map.ts'

/**
 * Parses a YAML case file into a SourceMap.
 *
 * `yaml` (the `parseSource` of source-map.ts) is the reference: its YAML 1.2 core schema with merge keys, its
 * errors with line and column, and its alias cap. It is slow on large files (1.4 s of a 10,000-case suite, 1.1 s
 * of it building its CST), so the good path is js-yaml's event parser (0.19 s), configured with `yaml`'s core
 * scalars. A file goes to `yaml` instead whenever js-yaml reports an error, or it holds anything whose meaning
 * could differ between the two: anchors, aliases (so `yaml`'s alias cap applies), tags, directives, several
 * documents, a key that is not a plain string (null, number, bool, a collection) or a merge key `<<`. Property
 * tests over generated YAML (tests/cases/yaml-source.test.ts) hold both paths to the same value.
 *
 * On the good path, the line of each case comes from the events; any other position (an issue's) is found by
 * parsing the file with `yaml` when first asked, so issues keep their exact file:line:column.
 */
export function parseYamlSource(text: string): SourceMap {
  return quickSource(text) ?? parseSource(text)
}

const digits = ['0', '1', '2', '3', '4', '5', '6', '7', '8', '9']

// module constants: a regular expression literal in a function body makes a new RegExp object at each call, and
// these run for every plain scalar and key of a case file
const NULL = /^(?:~|[Nn]ull|NULL)?$/
const BOOL = /^(?:[Tt]rue|TRUE|[Ff]alse|FALSE)$/
const OCTAL = /^0o[0-7]+$/
const DECIMAL = /^[-+]?[0-9]+$/
const HEX = /^0x[0-9a-fA-F]+$/
const INFINITY_OR_NAN = /^(?:[-+]?\.(?:inf|Inf|INF)|\.nan|\.NaN|\.NAN)$/
const EXPONENT = /^[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)[eE][-+]?[0-9]+$/
const FRACTION = /^[-+]?(?:\.[0-9]+|[0-9]+\.[0-9]*)$/

/** `yaml`'s core schema scalars (yaml/dist/schema/core), resolved the way `yaml` resolves them. */
const coreScalars = [
  scalarTag('null', ['', '~', 'n', 'N'], (source) => (NULL.test(source) ? null : NOT_RESOLVED)),
  scalarTag('bool', ['t', 'T', 'f', 'F'], (source) =>
    BOOL.test(source) ? source[0] === 't' || source[0] === 'T' : NOT_RESOLVED,
  ),
  scalarTag('int', ['-', '+', ...digits], (source) => {
    if (OCTAL.test(source)) return parseInt(source.slice(2), 8)
    if (DECIMAL.test(source)) return parseInt(source, 10)
    if (HEX.test(source)) return parseInt(source.slice(2), 16)
    return NOT_RESOLVED
  }),
  scalarTag('float', ['-', '+', '.', ...digits], (source) => {
    if (INFINITY_OR_NAN.test(source)) {
      if (source.slice(-3).toLowerCase() === 'nan') return Number.NaN
      return source.startsWith('-') ? Number.NEGATIVE_INFINITY : Number.POSITIVE_INFINITY
    }
    if (EXPONENT.test(source) || FRACTION.test(source)) return parseFloat(source)
    return NOT_RESOLVED
  }),
]
const coreSchema = FAILSAFE_SCHEMA.withTags(...coreScalars)

function scalarTag<T>(
  name: string,
  firstChars: string[],
  resolve: (source: string) => T | typeof NOT_RESOLVED,
) {
  return defineScalarTag(`tag:yaml.org,2002:${name}`, {
    implicit: true,
    implicitFirstChars: firstChars,
    resolve,
    identify: () => false,
  })
}

/** A plain scalar's value under the core schema. */
function resolvePlain(source: string): unknown {
  for (const tag of coreScalars) {
    const value: unknown = tag.resolve(source, false, tag.tagName)
    if (value !== NOT_RESOLVED) return value
  }
  return source
}

interface Frame {
  mapping: boolean
  /** nodes read in it so far: in a mapping, keys at even counts */
  count: number
  /** the `cases:` list of the root mapping */
  cases: boolean
}

/** The good path alone: the file parsed by js-yaml, with the line of each case; undefined when it must go to `yaml`. */
export function quickSource(text: string): SourceMap | undefined {
  let events: Event[]
  try {
    events = parseEvents(text, {})
  } catch {
    return undefined
  }
  const caseOffsets = scanEvents(text, events)
  if (!caseOffsets) return undefined
  let data: unknown
  try {
    data = constructFromEvents(events, { source: text, schema: coreSchema, maxAliases: 0 })[0]
  } catch {
    return undefined
  }
  const caseLines = linesOf(text, caseOffsets)
  let full: SourceMap | undefined
  const reference = () => (full ??= parseSource(text))
  return {
    data,
    errors: [],
    locate: (path, key) => reference().locate(path, key),
    line: (path) => {
      const [first, index] = path
      const line =
        first === 'cases' && path.length === 2 && typeof index === 'number' ? caseLines[index] : undefined
      return line ?? reference().line(path)
    },
  }
}

/**
 * The start offset of each entry of the root mapping's `cases:` list, or undefined when the file holds something
 * whose meaning `yaml` must decide.
 */
function scanEvents(text: string, events: readonly Event[]): number[] | undefined {
  const stack: Frame[] = []
  const caseOffsets: number[] = []
  let documents = 0
  let rootKey: string | undefined
  // an index loop: this runs once, mostly before it is optimised, where for…of allocates a result per event
  for (let at = 0; at < events.length; at++) {
    const event = events[at] as Event
    if (event.type === EVENT_ID.POP) {
      stack.pop()
      continue
    }
    if (event.type === EVENT_ID.DOCUMENT) {
      if (++documents > 1 || event.directives.length > 0) return undefined
      stack.push({ mapping: false, count: 0, cases: false })
      continue
    }
    if (event.type === EVENT_ID.ALIAS || event.anchorStart >= 0 || event.tagStart >= 0) return undefined
    const parent = stack[stack.length - 1]
    if (!parent) return undefined
    const isKey = parent.mapping && parent.count % 2 === 0
    parent.count++
    if (isKey) {
      if (event.type !== EVENT_ID.SCALAR) return undefined
      const key = getScalarValue(text, event)
      if (event.style === SCALAR_STYLE.PLAIN && (key === '<<' || typeof resolvePlain(key) !== 'string'))
        return undefined
      if (stack.length === 2) rootKey = key
      continue
    }
    if (parent.cases) caseOffsets.push(event.type === EVENT_ID.SCALAR ? event.valueStart : event.start)
    if (event.type === EVENT_ID.SEQUENCE || event.type === EVENT_ID.MAPPING) {
      const cases = event.type === EVENT_ID.SEQUENCE && stack.length === 2 && rootKey === 'cases'
      stack.push({ mapping: event.type === EVENT_ID.MAPPING, count: 0, cases })
    }
  }
  return documents === 1 ? caseOffsets : undefined
}

/** The 1-based line of each offset, the offsets in increasing order. */
function linesOf(text: string, offsets: readonly number[]): Uint32Array {
  const lines = new Uint32Array(offsets.length)
  let line = 1
  let at = 0
  offsets.forEach((offset, index) => {
    for (
      let next = text.indexOf('\n', at);
      next !== -1 && next < offset;
      next = text.indexOf('\n', next + 1)
    ) {
      line++
      at = next + 1
    }
    lines[index] = line
  })
  return lines
}
