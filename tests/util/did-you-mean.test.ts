import { expect, test } from 'vitest'
import { didYouMean } from '../../src/util/did-you-mean.ts'

test('suggests the closest candidate for a typo', () => {
  expect(didYouMean('tol', ['tool', 'tools', 'contains'])).toBe('tool')
})

test('counts swapped neighbouring letters as one edit', () => {
  expect(didYouMean('ctiy', ['city', 'units'])).toBe('city')
})

test('suggests a candidate the word is a prefix of', () => {
  expect(didYouMean('lat', ['latency_ms_lte', 'output'])).toBe('latency_ms_lte')
})

test('suggests nothing when no candidate is close', () => {
  expect(didYouMean('zebra', ['city', 'units'])).toBeUndefined()
})
