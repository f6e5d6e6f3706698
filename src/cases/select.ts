import type { SelectOptions, Suite } from './suite.ts'

/**
 * Keeps the cases matching `filter` and `tags`, drops suites left empty, and, when any kept case is marked
 * `only`, marks every other kept case skipped.
 */
export function selectCases(suites: readonly Suite[], options: SelectOptions): Suite[] {
  const matchesId = idMatcher(options.filter)
  const wanted = options.tags
  const selected = suites
    .map((suite) => ({
      ...suite,
      cases: suite.cases.filter(
        (entry) => matchesId(entry.id) && (!wanted?.length || entry.tags.some((tag) => wanted.includes(tag))),
      ),
    }))
    .filter((suite) => suite.cases.length > 0)
  if (!selected.some((suite) => suite.cases.some((entry) => entry.only))) return selected
  return selected.map((suite) => ({
    ...suite,
    cases: suite.cases.map((entry) =>
      entry.only || entry.skip !== undefined ? entry : { ...entry, skip: 'another case is marked `only`' },
    ),
  }))
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
