import type { CaseList } from './case-list.ts'
import type { SelectOptions, Suite } from './suite.ts'

/**
 * Keeps the cases matching `filter` and `tags`, drops suites left empty, and, when any kept case is marked
 * `only`, marks every other kept case skipped.
 */
export function selectCases(suites: readonly Suite[], options: SelectOptions): Suite[] {
  const matchesId = idMatcher(options.filter)
  const wanted = options.tags
  const selected = suites
    .map((suite) => {
      const { cases } = suite
      const kept: number[] = []
      for (let index = 0; index < cases.length; index++) {
        if (!matchesId(cases.id(index))) continue
        if (wanted?.length && !cases.tags(index).some((tag) => wanted.includes(tag))) continue
        kept.push(index)
      }
      return kept.length === cases.length ? suite : { ...suite, cases: cases.pick(kept) }
    })
    .filter((suite) => suite.cases.length > 0)
  if (!selected.some((suite) => someOnly(suite.cases))) return selected
  return selected.map((suite) => ({
    ...suite,
    cases: suite.cases.pick(suite.cases.keys(), (index) =>
      suite.cases.only(index) ? undefined : 'another case is marked `only`',
    ),
  }))
}

function someOnly(cases: CaseList): boolean {
  for (let index = 0; index < cases.length; index++) if (cases.only(index)) return true
  return false
}

function idMatcher(pattern: string | undefined): (id: string) => boolean {
  if (pattern === undefined || pattern === '') return () => true
  if (!pattern.includes('*')) return (id) => id.includes(pattern)
  const source = pattern
    .split('*')
    .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
    .join('.*')
  const regex = new RegExp(`^${source}$`)
  return (id) => regex.test(id)
}
