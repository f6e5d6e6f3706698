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

test('grows to a length with every new item 0, past its capacity too, and never shrinks', () => {
  const list = new TypedList(Uint32Array, 16)
  list.push(7)
  list.grow(40)
  expect(list.length).toBe(40)
  expect(list.get(0)).toBe(7)
  expect(Array.from(list.view().subarray(1))).toEqual(Array(39).fill(0))
  list.grow(10)
  expect(list.length).toBe(40)
})

test('set replaces an item that push and grow made', () => {
  const list = new TypedList(Float64Array, 16)
  list.push(1.5)
  list.grow(3)
  list.set(0, 2.5)
  list.set(2, list.get(2) + 0.25)
  expect(Array.from(list.view())).toEqual([2.5, 0, 0.25])
})
