import { describe, expect, test } from 'vitest'
import { loadSuites } from '../../src/cases/load.ts'
import type { Suite } from '../../src/cases/suite.ts'
import { ConfigError } from '../../src/errors.ts'
import { fixture, fixturesDir, loadErrorOf, scratchFile } from './helpers.ts'

function idsOf(suites: Suite[]): Record<string, string[]> {
  return Object.fromEntries(suites.map((suite) => [suite.name, [...suite.cases].map((entry) => entry.id)]))
}

describe('loadSuites', () => {
  test('expands globs over .yaml, .yml and .json files, sorted and without duplicates', async () => {
    const suites = await loadSuites([`${fixturesDir}select/*`, fixture('select/billing.yaml')])
    expect(idsOf(suites)).toEqual({
      billing: ['refund-small', 'refund-large', 'invoice'],
      greeting: ['hello'],
    })
  })

  test('keeps the cases whose id matches --filter, as a substring or a `*` pattern', async () => {
    expect(idsOf(await loadSuites([`${fixturesDir}select/*`], { filter: 'large' }))).toEqual({
      billing: ['refund-large'],
    })
    expect(idsOf(await loadSuites([`${fixturesDir}select/*`], { filter: 'refund-*' }))).toEqual({
      billing: ['refund-small', 'refund-large'],
    })
    expect(idsOf(await loadSuites([`${fixturesDir}select/*`], { filter: 'h*o' }))).toEqual({
      greeting: ['hello'],
    })
  })

  test('keeps the cases carrying any of the --tag values', async () => {
    expect(idsOf(await loadSuites([`${fixturesDir}select/*`], { tags: ['critical', 'smoke'] }))).toEqual({
      billing: ['refund-large'],
      greeting: ['hello'],
    })
  })

  test('skips every case not marked `only` when one is', async () => {
    const [suite] = await loadSuites([fixture('only/focus.yaml')])
    expect([...(suite?.cases ?? [])].map((entry) => [entry.id, entry.skip])).toEqual([
      ['focused', undefined],
      ['other', 'another case is marked `only`'],
      ['parked', 'skipped in the case file'],
    ])
  })

  test('fails when a selection matches no case', async () => {
    await expect(
      loadSuites([`${fixturesDir}select/*`], { filter: 'cancel', tags: ['billing'] }),
    ).rejects.toThrow(
      new ConfigError('No case matches --filter "cancel" --tag billing among 4 cases in 2 files.'),
    )
  })

  test('fails when a path does not exist or a glob matches no case file', async () => {
    await expect(loadSuites([fixture('nope.yaml')])).rejects.toThrow(
      `Case file not found: ${fixture('nope.yaml')}`,
    )
    await expect(loadSuites([`${fixturesDir}agents/*`])).rejects.toThrow(
      `No case file (.yaml, .yml, .json) matches "${fixturesDir}agents/*".`,
    )
  })

  test('reports the issues of every file in one error', async () => {
    const syntax = scratchFile('syntax.yaml', 'suite: [unclosed\n')
    const message = await loadErrorOf(loadSuites([fixture('invalid/bad.json'), syntax]))
    expect(message.split('\n')).toEqual([
      'invalid/bad.json:3:56: target.http.metod: unknown key `metod`; did you mean `method`?',
      'invalid/bad.json:4:53: cases[0].expect.contians: unknown key `contians`; did you mean `contains`?',
      'syntax.yaml:2:1: Flow sequence in block collection must be sufficiently indented and end with a ]',
    ])
  })
})
