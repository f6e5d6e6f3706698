import { createRequire } from 'node:module'
import type { RegExpParser } from '@eslint-community/regexpp'

type Analysers = {
  Parser: typeof RegExpParser
  isPotentiallyZeroLength: typeof import('regexp-ast-analysis').isPotentiallyZeroLength
  analyse: typeof import('scslre').analyse
}

let analysers: Analysers | undefined

/** The regular-expression analysers, loaded on the first pattern to check: most runs have none. */
function loadAnalysers(): Analysers {
  if (analysers) return analysers
  // written out in full each time: action/build.ts bundles `createRequire(import.meta.url)('x')` as it stands
  const regexpp = createRequire(import.meta.url)(
    '@eslint-community/regexpp',
  ) as typeof import('@eslint-community/regexpp')
  const astAnalysis = createRequire(import.meta.url)(
    'regexp-ast-analysis',
  ) as typeof import('regexp-ast-analysis')
  const scslre = createRequire(import.meta.url)('scslre') as typeof import('scslre')
  analysers = {
    Parser: regexpp.RegExpParser,
    isPotentiallyZeroLength: astAnalysis.isPotentiallyZeroLength,
    analyse: scslre.analyse,
  }
  return analysers
}

/**
 * Why `pattern` cannot be a redact pattern, or undefined when it can: it is not a regular expression, it can match
 * the empty string (it would cut between characters), or its backtracking can take exponential time (it would hang
 * the run on a long output). The one check of every place a pattern comes from: case files, `--redact`, the
 * Action's input and `createRedactor`; the caller puts where the pattern came from in front.
 */
export function redactPatternProblem(pattern: string): string | undefined {
  try {
    new RegExp(pattern)
  } catch (error) {
    return `redact pattern \`${pattern}\` is not a regular expression (${(error as Error).message.replace(/^Invalid regular expression: /, '')})`
  }
  const { Parser, isPotentiallyZeroLength, analyse } = loadAnalysers()
  const literal = new Parser({ ecmaVersion: 2024 }).parseLiteral(`/${pattern.replaceAll('/', '\\/')}/`)
  if (isPotentiallyZeroLength(literal.pattern.alternatives, literal.flags))
    return `redact pattern \`${pattern}\` can match the empty string, so it would cut the text between characters; make it match at least one character`
  if (analyse(literal).reports.some((report) => report.exponential))
    return `redact pattern \`${pattern}\` can take time exponential in the length of the text (a repetition inside a repetition that can match the same characters, as in \`(a+)+\`); write it so that each character can match one way only`
  return undefined
}
