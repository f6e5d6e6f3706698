import { expect, test } from 'vitest'
import { TypedList } from '../../src/util/typed-list.ts'

test('keeps every pushed value in order as it grows past its capacity', () => {
  const list = new TypedList(Int32Array, 1)
  for (let value = -50; value < 50; value++) list.push(value)
  expect(list.length).toBe(100)
  expect(list.get(0)).toBe(-50)
  expect(list.get(99)).toBe(49)
  expect(Array.from(list.view())).toEqual(Array.from({ length: 100 }, (_, i) => i - 50))
  expect(list.view()).toBeInstanceOf(Int32Array)
})

test('an empty list has an empty view', () => {
  expect(new TypedList(Float64Array).view()).toEqual(new Float64Array(0))
})
